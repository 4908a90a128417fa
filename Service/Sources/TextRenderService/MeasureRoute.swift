import Foundation
import Hummingbird
import TextKitLite
import TextKitLiteFrontEnd
import TextKitLiteFeed

/// The query parameters of `POST /measure`: `textrender measure`'s options by the same names.
struct MeasureParameters: Equatable {
    /// One width, or several (`width=320,375,414,768`): one measurement each, in order.
    var widths = [375.0]
    var subject: FeedMeasurer.Subject = .cell
    /// nil: the cell's default (6 body lines); for a text alone, no limit.
    var maxLines: Int?
    var fontSize = TextStyle.defaultSize
    var lineSpacing = 0.0
    /// The server's emoticon table (`emoticons=on`, the default) or none (`off`).
    var emoticons = true
    /// Hyphenate the body and quote (or the text alone): `hyphenate=true`.
    var hyphenate = false
    /// A text alone's style besides its size and how its lines are set (`layout=text`):
    /// weight, italic, letter-spacing, features, lang, variations, balance, exclusion shapes
    /// and vertical columns, as `textrender measure` takes them.
    var textStyle = RenderSettings()

    /// The parameters that style a text alone.
    static let styleNames = ["weight", "italic", "letter-spacing", "features", "lang", "variations", "balance"]
    /// The parameters that set a text alone's lines besides its style, and why a cell takes none.
    static let textLayoutNames: KeyValuePairs = [
        "exclude": "shapes a text alone: give it with layout=text (a cell's texts flow around none)",
        "vertical": "sets a text alone: give it with layout=text (a cell's texts are horizontal)",
    ]
    static let names = ["width", "layout", "max-lines", "font-size", "line-spacing", "emoticons", "hyphenate"] + styleNames
        + textLayoutNames.map(\.key)
    /// The parameters given once per value, as `--exclude` is repeated: one shape each.
    static let repeatable: Set<Substring> = ["exclude"]

    init() {}

    /// - Throws: `ServiceError` 400 naming the parameter and its value.
    init(query: some Sequence<(key: Substring, value: Substring)>) throws(ServiceError) {
        var seen = Set<Substring>()
        var givenWidth: Substring?
        var shapes: [String] = []
        for (name, value) in query {
            guard seen.insert(name).inserted || Self.repeatable.contains(name) else { throw .badRequest("query parameter \(name) given more than once") }
            func invalid(_ reason: String) -> ServiceError { .badRequest("invalid query parameter \(name)=\(value): \(reason)") }
            func number() throws(ServiceError) -> Double {
                guard let number = Double(value) else { throw invalid("not a number") }
                return number
            }
            switch name {
            case "width":
                givenWidth = value
                switch OptionRules.feedWidths(value) {
                case .success(let list): widths = list
                case .failure(let error): throw invalid(error.reason)
                }
            case "layout":
                guard let subject = FeedMeasurer.Subject(rawValue: String(value)) else { throw invalid("must be cell or text") }
                self.subject = subject
            case "max-lines":
                guard let lines = Int(value) else { throw invalid("not an integer") }
                if let reason = OptionRules.maxLines(lines) { throw invalid(reason) }
                maxLines = lines
            case "font-size":
                fontSize = try number()
                if let reason = OptionRules.fontSize(fontSize) { throw invalid(reason) }
            case "line-spacing":
                lineSpacing = try number()
                if let reason = OptionRules.lineSpacing(lineSpacing) { throw invalid(reason) }
            case "emoticons":
                switch value {
                case "on": emoticons = true
                case "off": emoticons = false
                default: throw invalid("must be on or off")
                }
            case "hyphenate":
                guard let hyphenate = Bool(String(value)) else { throw invalid("must be true or false") }
                self.hyphenate = hyphenate
            case "weight":
                guard let weight = TextStyle.Weight(rawValue: String(value)) else {
                    throw invalid("must be \(TextStyle.Weight.allCases.map(\.rawValue).joined(separator: " or "))")
                }
                textStyle.weight = weight
            case "italic":
                guard let italic = Bool(String(value)) else { throw invalid("must be true or false") }
                textStyle.italic = italic
            case "letter-spacing":
                textStyle.letterSpacing = try number()
                if let reason = OptionRules.letterSpacing(textStyle.letterSpacing) { throw invalid(reason) }
            case "features":
                guard let list = FontFeature.list(String(value)) else { throw invalid(OptionRules.featuresReason) }
                textStyle.features = list
            case "variations":
                guard let list = FontVariation.list(String(value)) else { throw invalid(OptionRules.variationsReason) }
                textStyle.variations = list
            case "lang":
                if let reason = OptionRules.language(String(value)) { throw invalid(reason) }
                textStyle.language = String(value)
            case "balance":
                guard let balance = Bool(String(value)) else { throw invalid("must be true or false") }
                textStyle.lineBalance = balance
            case "exclude":
                shapes.append(String(value))
            case "vertical":
                guard let vertical = Bool(String(value)) else { throw invalid("must be true or false") }
                textStyle.writingMode = vertical ? .vertical : .horizontal
            default:
                throw .badRequest("unknown query parameter \(name) (known: \(Self.names.joined(separator: ", ")))")
            }
        }
        for width in widths where subject == .cell {
            if let reason = cellStyle.cellWidthProblem(width) {
                throw .badRequest("invalid query parameter width=\(givenWidth ?? "\(width)"): \(reason)")
            }
        }
        // `render --exclude`'s rule, one shape a value.
        switch ExclusionShape.shapes(options: shapes) {
        case .success(let parsed): textStyle.exclusions = parsed
        case .failure(.invalid(let value, let reason)): throw .badRequest("invalid query parameter exclude=\(value): \(reason)")
        case .failure(let error): throw .badRequest(error.message(option: "query parameter exclude"))
        }
        if subject == .cell {
            if let name = Self.styleNames.first(where: { seen.contains(Substring($0)) }) {
                throw .badRequest("query parameter \(name) styles a text alone: give it with layout=text (a cell's texts have the feed's styles)")
            }
            if let (name, reason) = Self.textLayoutNames.first(where: { seen.contains(Substring($0.key)) }) {
                throw .badRequest("query parameter \(name) \(reason)")
            }
        }
        // What the library refuses of a text's lines (`LayoutOptions.validate()`): shapes
        // with vertical columns or with balance.
        if subject == .text, let refusal = textStyle.refusal {
            // A flag is given as `name=true` in a query.
            func parameter(_ name: String) -> String { ExclusionConflict.isFlag(name) ? name + "=true" : name }
            let given = if let conflict = ExclusionConflict(property: refusal.property, vertical: textStyle.writingMode == .vertical) {
                parameter(conflict.option) + (conflict.other.map { " with " + parameter($0) } ?? " (\(refusal.value))")
            } else {
                refusal.property
            }
            throw .badRequest("invalid query parameter \(given): \(refusal.reason)")
        }
        textStyle.fontSize = fontSize
    }

    var cellStyle: FeedCellStyle {
        var style = FeedCellStyle(bodySize: fontSize, lineSpacing: lineSpacing, bodyMaxLines: maxLines)
        if hyphenate { style.hyphenation = .auto }
        return style
    }
}

/// A bad input line as the service reports it, in its place among the measurements.
struct BadLine: Encodable {
    var error: String
    var line: Int
}

/// The JSON Lines posts of a request body as they arrive: the body's chunks cut into
/// records by `FeedLineSplitter`.
///
/// A task of its own drains the body as fast as the client sends it, whether or not the
/// answer is being read: a client that sends its whole body before reading the answer
/// (what most HTTP clients do) would otherwise wait for the server to read while the
/// server waits for it to read, until the connection timed out. What is drained and not
/// yet measured is held, at most the body limit (`maxBodyBytes`).
///
/// `@unchecked Sendable`: the handler reads the first records (to answer 400 when no line
/// holds a post) and then hands this over to the response body's writer, which Hummingbird
/// runs only after the handler has returned; one task at a time uses it.
final class BodyRecords: @unchecked Sendable {
    private var chunks: AsyncThrowingStream<ByteBuffer, any Error>.AsyncIterator
    private let drain: Task<Void, Never>
    private var splitter = FeedLineSplitter()
    /// Records read ahead by the handler, given out first (`readAhead[given...]`).
    private var readAhead: [FeedRecord] = []
    private var given = 0
    /// Bytes of the body received so far.
    private(set) var received = 0

    /// Starts draining `body`; the draining stops when this is dropped.
    init(_ body: BodyReader) {
        let (stream, continuation) = AsyncThrowingStream<ByteBuffer, any Error>.makeStream()
        let drain = Task {
            do {
                while let chunk = try await body.next() { continuation.yield(chunk) }
                continuation.finish()
            } catch let error as ServiceError where error.status == .contentTooLarge {
                continuation.finish(throwing: error)
                await body.discardRest()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        // Dropped unread (the client went away): stop. Finished: the drain may still be
        // discarding the rest of a body over the limit.
        continuation.onTermination = { termination in
            if case .cancelled = termination { drain.cancel() }
        }
        chunks = stream.makeAsyncIterator()
        self.drain = drain
    }

    /// Waits until the body was all read (or dropped past the limit, or ended by a timeout).
    /// The answer ends only then: Hummingbird reads what is left of a body once the answer
    /// has ended, and two readers of one body at once would be one too many.
    func drained() async { await drain.value }

    /// The next record without waiting for the body, or nil when the body given so far has
    /// no more (see `isFinished`).
    func nextReady() -> FeedRecord? {
        if given < readAhead.count {
            given += 1
            return readAhead[given - 1]
        }
        return splitter.next()
    }

    /// True when every record was given out.
    var isFinished: Bool { given == readAhead.count && splitter.isFinished }

    /// Waits for the next chunk of the body (marks the end when there is none).
    ///
    /// - Throws: what `BodyReader.next()` throws.
    func receive() async throws {
        guard let chunk = try await chunks.next() else { return splitter.finish() }
        received += chunk.readableBytes
        splitter.append(chunk.readableBytesView)
    }

    /// Reads records until the first post (or the end); they are given out again later.
    ///
    /// - Returns: whether a post came; false when the body held none.
    func readUntilFirstPost() async throws -> Bool {
        while true {
            if let record = splitter.next() {
                readAhead.append(record)
                if case .success = record.result { return true }
            } else if splitter.isFinished {
                return false
            } else {
                try await receive()
            }
        }
    }

    /// The records read ahead.
    var firstRecords: [FeedRecord] { readAhead }
}

extension TextService {
    /// `POST /measure`: JSON Lines posts in, one JSON line out per post, in input order, as
    /// `textrender measure` writes them; a bad line gives `{"error", "line"}` in its place.
    func measure(_ request: Request) async throws -> Response {
        let parameters = try MeasureParameters(query: request.uri.queryParameters)
        let limit = configuration.maxBodyBytes
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw await refusal(.bodyTooLarge(limit: limit), of: request)
        }
        if let problem = OptionRules.variationsProblem(parameters.textStyle.variations, chain: engine.fonts) {
            throw ServiceError.badRequest("invalid query parameter variations: \(problem)")
        }
        guard let ticket = gate.enter() else { throw ServiceError.busy(limit: gate.limit) }
        let records = BodyRecords(BodyReader(request.body, limit: limit, timeout: configuration.bodyTimeout,
                                             requestTimeout: configuration.requestTimeout))
        // Lines but no post in them: 400 rather than a stream of errors. An empty body gets
        // an empty 200, as `textrender measure` writes nothing for empty input.
        guard try await records.readUntilFirstPost() else {
            let bad = records.firstRecords.compactMap { record -> FeedLineError? in
                if case .failure(let error) = record.result { return error } else { return nil }
            }
            guard let first = bad.first else { return Response(status: .ok, headers: [.contentType: "application/jsonl; charset=utf-8"]) }
            throw ServiceError.badRequest("no valid post in the request body (\(bad.count) bad line\(bad.count == 1 ? "" : "s")); line \(first.line): \(first.reason)")
        }
        var configured = FeedMeasurer(precomputer: await precomputer(style: parameters.cellStyle, emoticons: parameters.emoticons),
                                      subject: parameters.subject, widths: parameters.widths, maxLines: parameters.maxLines ?? 0,
                                      textStyle: parameters.textStyle.style)
        configured.lineBalance = parameters.textStyle.lineBalance
        configured.exclusions = parameters.textStyle.exclusions
        configured.writingMode = parameters.textStyle.writingMode
        let measurer = configured
        return Response(status: .ok, headers: [.contentType: "application/jsonl; charset=utf-8"], body: ResponseBody { writer in
            // The slot is held until the response is written.
            defer { withExtendedLifetime(ticket) {} }
            try await self.stream(records, measurer: measurer, to: &writer)
            if records.received >= Self.trimAfterBytes { self.releaseFreedMemory() }
        })
    }

    /// Measures the records on the worker pool, a window of them at a time, and writes the
    /// lines in input order as they are done: the response is never held whole; a client
    /// that reads slowly holds the measuring back, not the draining of its body.
    private func stream(_ records: BodyRecords, measurer: FeedMeasurer, to writer: inout any ResponseBodyWriter) async throws {
        let window = 16 * pool.workerCount
        var inFlight: [Task<[UInt8], Never>] = []
        var head = 0
        var output = ByteBuffer()
        func writeHead() async throws {
            output.writeBytes(await inFlight[head].value)
            head += 1
            if head >= window {
                inFlight.removeFirst(head)
                head = 0
            }
            if output.readableBytes >= 1 << 16 { try await flush() }
        }
        func flush() async throws {
            guard output.readableBytes > 0 else { return }
            try await writer.write(output)
            output.clear()
        }
        do {
            while true {
                if let record = records.nextReady() {
                    inFlight.append(Task { await self.run { Self.measuredLine(record, measurer: measurer) } })
                    if inFlight.count - head >= window { try await writeHead() }
                } else if records.isFinished {
                    break
                } else {
                    // Before waiting for the client, send what is done.
                    while head < inFlight.count { try await writeHead() }
                    try await flush()
                    try await records.receive()
                }
            }
        } catch let error as ServiceError {
            // The status is sent: the last line says why the rest was not read.
            while head < inFlight.count { try await writeHead() }
            var line: [UInt8] = []
            try JSONLines.append(["error": error.message], to: &line)
            output.writeBytes(line)
        }
        while head < inFlight.count { try await writeHead() }
        try await flush()
        await records.drained()
        try await writer.finish(nil)
    }

    /// One record's output line: its measurement as `textrender measure` encodes it, or
    /// the bad line's reason and number.
    private static func measuredLine(_ record: FeedRecord, measurer: FeedMeasurer) -> [UInt8] {
        var bytes: [UInt8] = []
        // A record is written directly and never throws; the bad line's small value always encodes.
        switch measurer.measure(record) {
        case .success(let measured): try? JSONLines.append(measured, to: &bytes)
        case .failure(let error): try? JSONLines.append(BadLine(error: error.reason, line: error.line), to: &bytes)
        }
        return bytes
    }
}

extension ServiceError {
    static func busy(limit: Int) -> ServiceError {
        var error = ServiceError(.serviceUnavailable, "busy: all \(limit) request slots are at work (the server's --max-concurrent); retry shortly")
        error.headers[.retryAfter] = "1"
        return error
    }
}
