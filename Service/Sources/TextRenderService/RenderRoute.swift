import Foundation
import HTTPTypes
import Hummingbird
import TextKitLite
import TextKitLiteFrontEnd
import TextKitLiteFeed

/// The JSON body of `POST /render`: the text, and `textrender render`'s options by their
/// names in camel case (`fontSize`, `maxLines`, `lineHeight`, ...). Unknown fields are refused.
struct RenderRequest: Decodable, Sendable {
    var text: String
    var settings = RenderSettings()
    /// Put the server's emoticon table's images in place of their codes.
    var emoticons = false
    /// Whether the body gave `maxPixels` (else the server's limit applies).
    var givesMaxPixels = false

    static let fields = [
        "text", "width", "fontSize", "lineSpacing", "weight", "italic", "underline", "strikethrough", "letterSpacing",
        "features", "maxLines", "truncationToken", "truncation", "align", "direction", "lineHeight",
        "lineHeightMultiple", "inset", "highlight", "emoticons", "scale", "debug", "maxPixels", "lang", "exactBox",
        "color", "background", "linkColor", "gray",
        "variations", "balance", "hyphenate", "exclude", "vertical",
    ]

    private struct Key: CodingKey {
        let stringValue: String
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    init(from decoder: Decoder) throws {
        let fields = try decoder.container(keyedBy: Key.self)
        for key in fields.allKeys where !Self.fields.contains(key.stringValue) {
            throw ServiceError.badRequest("unknown field \"\(key.stringValue)\" (known: \(Self.fields.joined(separator: ", ")))")
        }
        func value<T: Decodable>(_ name: String, _: T.Type = T.self) throws -> T? {
            try fields.decodeIfPresent(T.self, forKey: Key(name))
        }
        func invalid(_ name: String, _ value: Any, _ reason: String) -> ServiceError {
            .badRequest("invalid \"\(name)\" \(value): \(reason)")
        }
        func choice<T: RawRepresentable & CaseIterable>(_ name: String, _: T.Type) throws -> T? where T.RawValue == String {
            guard let raw: String = try value(name) else { return nil }
            guard let chosen = T(rawValue: raw) else {
                throw invalid(name, "\"\(raw)\"", "use one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return chosen
        }
        guard let text: String = try value("text") else { throw ServiceError.badRequest("missing \"text\"") }
        self.text = text
        var settings = RenderSettings()
        // "width": a number of points, or "inf" for no wrapping.
        if let width = try? fields.decodeIfPresent(Double.self, forKey: Key("width")) {
            settings.width = width
        } else if let width: String = try? value("width"), width == "inf" {
            settings.width = .infinity
        } else if fields.contains(Key("width")) {
            throw ServiceError.badRequest("\"width\" must be a number of points or \"inf\"")
        }
        /// A value checked by the rule the CLI checks it by.
        func checked<T: Decodable>(_ name: String, _ rule: (T) -> String?) throws -> T? {
            guard let given: T = try value(name) else { return nil }
            if let reason = rule(given) { throw invalid(name, given, reason) }
            return given
        }
        settings.fontSize = try checked("fontSize", OptionRules.fontSize) ?? settings.fontSize
        settings.lineSpacing = try checked("lineSpacing", OptionRules.lineSpacing) ?? settings.lineSpacing
        settings.letterSpacing = try checked("letterSpacing", OptionRules.letterSpacing) ?? settings.letterSpacing
        settings.maxLines = try checked("maxLines", OptionRules.maxLines) ?? settings.maxLines
        if let features: String = try value("features") {
            guard let list = FontFeature.list(features) else { throw invalid("features", "\"\(features)\"", OptionRules.featuresReason) }
            settings.features = list
        }
        if let variations: String = try value("variations") {
            guard let list = FontVariation.list(variations) else { throw invalid("variations", "\"\(variations)\"", OptionRules.variationsReason) }
            settings.variations = list
        }
        if let points = try? fields.decodeIfPresent(Double.self, forKey: Key("lineHeight")) {
            guard let mode = LineHeightMode(option: "\(points)") else { throw invalid("lineHeight", points, OptionRules.lineHeightReason) }
            settings.lineHeightMode = mode
        } else if let mode: String = try? value("lineHeight") {
            guard let parsed = LineHeightMode(option: mode) else { throw invalid("lineHeight", "\"\(mode)\"", OptionRules.lineHeightReason) }
            settings.lineHeightMode = parsed
        } else if fields.contains(Key("lineHeight")) {
            throw invalid("lineHeight", "(not a string or number)", OptionRules.lineHeightReason)
        }
        settings.weight = try choice("weight", TextStyle.Weight.self) ?? settings.weight
        settings.truncation = try choice("truncation", TruncationMode.self) ?? settings.truncation
        settings.alignment = try choice("align", TextAlignment.self) ?? settings.alignment
        settings.direction = try choice("direction", ParagraphDirection.self) ?? settings.direction
        settings.italic = try value("italic") ?? false
        settings.underline = try value("underline") ?? false
        settings.strikethrough = try value("strikethrough") ?? false
        settings.highlight = try value("highlight") ?? false
        settings.lineBalance = try value("balance") ?? false
        settings.hyphenation = try value("hyphenate") ?? false ? .auto : .none
        // Vertical columns: "width" is then the column length, as `render --vertical` takes it.
        settings.writingMode = try value("vertical") ?? false ? .vertical : .horizontal
        settings.debug = try value("debug") ?? false
        settings.truncationToken = try value("truncationToken")
        settings.lineHeightMultiple = try value("lineHeightMultiple") ?? settings.lineHeightMultiple
        settings.inset = try value("inset") ?? settings.inset
        // "exclude": `render --exclude`'s values, one string a shape, read by its rule.
        let shapes: [String]?
        do { shapes = try value("exclude") } catch {
            throw ServiceError.badRequest("\"exclude\" must be an array of strings such as \"circle:40,40,36\" (\(ExclusionShape.optionReason))")
        }
        if let shapes {
            switch ExclusionShape.shapes(options: shapes) {
            case .success(let parsed): settings.exclusions = parsed
            case .failure(let error): throw ServiceError.badRequest(error.message(option: "\"exclude\"", value: { "\"\($0)\"" }))
            }
        }
        settings.scale = try value("scale") ?? settings.scale
        settings.maxPixels = try value("maxPixels") ?? settings.maxPixels
        givesMaxPixels = fields.contains(Key("maxPixels"))
        if let language: String = try value("lang") {
            if let reason = OptionRules.language(language) { throw invalid("lang", "\"\(language)\"", reason) }
            settings.language = language
        }
        settings.inkOverflow = try value("exactBox") ?? false ? .clip : .include
        /// A color field: a string in the CLI's color forms.
        func color(_ name: String) throws -> Color? {
            guard let text: String = try value(name) else { return nil }
            guard let parsed = Color(text) else { throw invalid(name, "\"\(text)\"", Color.syntaxReason) }
            return parsed
        }
        settings.color = try color("color") ?? settings.color
        settings.background = try color("background") ?? settings.background
        settings.linkColor = try color("linkColor")
        settings.format = try value("gray") ?? false ? .gray8 : .rgba8
        emoticons = try value("emoticons") ?? false
        // The layout and drawing options through the library's own checks, named by field.
        if let refusal = settings.refusal {
            var lineHeight = 0.0  // only a fixed height can be refused
            if case .fixed(let points) = settings.lineHeightMode { lineHeight = points }
            // What the library refuses beside exclusion shapes (a flag's value is true), then
            // each field's own refusals.
            let conflict = ExclusionConflict(property: refusal.property, vertical: settings.writingMode == .vertical)
            let field: (name: String, value: Any) = if let conflict {
                (conflict.option, (ExclusionConflict.isFlag(conflict.option) ? "true " : "")
                    + (conflict.other.map { "with \"\($0)\"" } ?? "(\(refusal.value))"))
            } else {
                switch refusal.property {
                case "width": ("width", settings.width)
                case "insets": ("inset", settings.inset)
                case "lineHeightMode": ("lineHeight", lineHeight)
                case "lineHeightMultiple": ("lineHeightMultiple", settings.lineHeightMultiple)
                case "scale": ("scale", settings.scale)
                case "maxPixels": ("maxPixels", settings.maxPixels)
                case "truncation": ("truncation", "\"\(settings.truncation)\" with \"exclude\"")
                default: (refusal.property, "as given")  // maxLines and lineSpacing were checked above
                }
            }
            throw invalid(field.name, field.value, refusal.reason)
        }
        self.settings = settings
    }

    /// Decodes a body, turning the decoder's errors into messages that name the field.
    ///
    /// - Throws: `ServiceError` 400.
    static func decode(_ body: [UInt8]) throws(ServiceError) -> RenderRequest {
        do {
            return try JSONDecoder().decode(RenderRequest.self, from: Data(body))
        } catch let error as ServiceError {
            throw error
        } catch let DecodingError.typeMismatch(type, context), let DecodingError.valueNotFound(type, context) {
            let name = context.codingPath.first?.stringValue
            guard let name else { throw .badRequest("the body must be a JSON object") }
            throw .badRequest("\"\(name)\" must be \(describe(type))")
        } catch let DecodingError.dataCorrupted(context) {
            if let name = context.codingPath.first?.stringValue {
                throw .badRequest("\"\(name)\" is out of range: \(context.debugDescription)")
            }
            // Where the syntax goes wrong, in the words of Foundation's parser.
            throw .badRequest("bad JSON" + (FeedLineParser.syntaxError(in: Data(body)).map { ": " + $0 } ?? ""))
        } catch {
            throw .badRequest("bad JSON: \(error)")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type: "an integer"
        case is Double.Type: "a number"
        default: "a JSON object"
        }
    }
}

extension TextService {
    /// `POST /render`: a JSON body, a PNG back (RGBA or RGB; 8-bit gray with `gray`).
    ///
    /// The body (at most `maxRenderBytes`) is read before a request slot is taken, so a slow
    /// client holds none; the text is measured, and a box over the pixel limit refused,
    /// before the whole layout is built. What one render holds is bounded by its body
    /// (about 300 bytes a line, 90 a character) and its bitmap.
    func render(_ request: Request) async throws -> Response {
        // The smaller of the two limits, named as the server's option that sets it.
        let ownLimit = configuration.maxRenderBytes <= configuration.maxBodyBytes
        let limit = min(configuration.maxRenderBytes, configuration.maxBodyBytes)
        let tooLarge = ownLimit ? ServiceError.renderTooLarge(limit: limit) : .bodyTooLarge(limit: limit)
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw await refusal(tooLarge, of: request)
        }
        let body: [UInt8]
        let reader = BodyReader(request.body, limit: limit, timeout: configuration.bodyTimeout, requestTimeout: configuration.requestTimeout)
        do {
            body = try await reader.collect()
        } catch let error as ServiceError where error.status == .contentTooLarge {
            throw await refusal(tooLarge, of: request, reader: reader)
        }
        var decoded = try RenderRequest.decode(body)
        let serverLimit = configuration.maxPixels
        if !decoded.givesMaxPixels { decoded.settings.maxPixels = serverLimit }
        let job = decoded
        guard job.settings.maxPixels > 0, job.settings.maxPixels <= serverLimit else {
            throw ServiceError.badRequest("invalid \"maxPixels\" \(job.settings.maxPixels): must be from 1 to \(serverLimit) (the server's --max-pixels)")
        }
        guard let ticket = gate.enter() else { throw ServiceError.busy(limit: gate.limit) }
        defer { withExtendedLifetime(ticket) {} }
        let engine = engine
        if let problem = OptionRules.variationsProblem(job.settings.variations, chain: engine.fonts) {
            throw ServiceError.badRequest("invalid \"variations\" \"\(job.settings.variations.map(\.description).joined(separator: ","))\": \(problem)")
        }
        let table = job.emoticons ? emoticons : .empty
        // The PNG and what the headers say of the layout: the layout itself is freed on the
        // worker, before freed memory is handed back.
        let outcome: Result<(png: [UInt8], headers: HTTPFields), ServiceError> = await run {
            do {
                let text = table.attributed(job.settings.attributed(job.text))
                let (options, renderOptions) = (job.settings.layoutOptions, job.settings.renderOptions)
                // The box's pixels from a measurement (no lines, glyph positions or shaped
                // text kept), before the layout is made. An unwrapped text's width is known
                // from its layout only: it counts as one pixel, its height in full.
                let measured = try engine.measure(text, options: options)
                try renderOptions.checkPixels(width: options.width.isFinite ? options.width : 1 / renderOptions.scale, height: measured.height)
                let layout = try engine.layout(text, options: options)
                guard let bitmap = try TextRenderer().render(layout, options: renderOptions).bitmap else {
                    return .failure(ServiceError(.internalServerError, "render cancelled"))
                }
                let headers: HTTPFields = [
                    .contentType: "image/png",
                    HTTPField.Name("TextKitLite-Lines")!: "\(layout.lineCount)",
                    HTTPField.Name("TextKitLite-Truncated")!: "\(layout.isTruncated)",
                    HTTPField.Name("TextKitLite-Size")!: "\(layout.size.width)x\(layout.size.height)",
                ]
                return .success((try bitmap.pngData(), headers))
            } catch let error as RenderError {
                if case .bitmapTooLarge = error { return .failure(ServiceError(.unprocessableContent, error.description)) }
                return .failure(.badRequest(error.description))
            } catch {
                return .failure(.badRequest("\(error)"))
            }
        }
        if body.count >= Self.trimAfterBytes { releaseFreedMemory() }
        let (png, headers) = try outcome.get()
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: png)))
    }
}

extension ServiceError {
    static func renderTooLarge(limit: Int) -> ServiceError {
        ServiceError(.contentTooLarge, "render request body larger than \(limit) bytes (the server's --max-render-bytes)")
    }
}
