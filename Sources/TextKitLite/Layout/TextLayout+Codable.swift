import Foundation

// Codable layouts: a server precomputes layouts and a client draws them without shaping.
// Fonts travel as names the client resolves (a bundled font's file name, an installed
// font's family and style) and are loaded again on decoding; only a font that is neither
// (a file given by path and not installed) is recorded by its path.

/// A font as stored in encoded layouts and styles: its file name and face, its family and
/// style, and its path only when no name finds it (see `init(_:)`). A variant (features,
/// synthesis) records them too.
struct FontReference: Codable, Hashable {
    var file: String
    /// The absolute path, for a font no name finds: neither bundled nor installed.
    var path: String?
    var faceIndex: Int
    /// The family and style, for an installed font (fontconfig finds it by them).
    var family: String?
    var style: String?
    var features: [FontFeature]?
    var syntheticBold: Bool?
    var syntheticOblique: Bool?
    /// A variable font's axis values (`Font.variations`), none for its default instance.
    var variations: [FontVariation]?

    /// A bundled font is named by its file ("NotoSansSC-Subset.otf"), resolved in the
    /// decoder's bundled fonts folder; an installed one by its family and style, which
    /// fontconfig on the decoding machine resolves; any other font by its path.
    init(_ font: Font) {
        file = URL(fileURLWithPath: font.path).lastPathComponent
        faceIndex = font.faceIndex
        if font.path != BundledFonts.path(file) {
            let installed = SystemFonts.face(family: font.familyName, style: font.styleName)
            if let installed, installed.path == font.path, installed.faceIndex == font.faceIndex {
                (family, style) = (font.familyName, font.styleName)
            } else {
                path = font.path
            }
        }
        features = font.features.isEmpty ? nil : font.features
        syntheticBold = font.isSyntheticBold ? true : nil
        syntheticOblique = font.isSyntheticItalic ? true : nil
        variations = font.variations.isEmpty ? nil : font.variations
    }

    /// The font: by its path when it has one (layouts encoded before fonts had names
    /// always do), by its family and style through fontconfig, else the bundled font of its
    /// file name.
    func resolve(codingPath: [CodingKey]) throws -> Font {
        let synthesis = FontSynthesis(emboldened: syntheticBold ?? false, slanted: syntheticOblique ?? false)
        if let path, let font = try? Font.load(path: path, faceIndex: faceIndex) { return font.variant(synthesis, features: features ?? [], variations: axisValues(of: font)) }
        if let family {
            guard let face = SystemFonts.face(family: family, style: style), let font = try? Font.load(path: face.path, faceIndex: face.faceIndex) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath,
                                                        debugDescription: "font \(family) \(style ?? ""): not installed (fontconfig finds no such family and style)"))
            }
            return font.variant(synthesis, features: features ?? [], variations: axisValues(of: font))
        }
        do {
            let font = try Font.load(path: BundledFonts.path(file), faceIndex: faceIndex)
            return font.variant(synthesis, features: features ?? [], variations: axisValues(of: font))
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "font \(path ?? file)#\(faceIndex): \(error)"))
        }
    }
}

extension FontReference {
    /// The recorded axis values as the decoded face takes them: clamped to its axes' ranges
    /// and in its axis order (`Font.variations(for:)`), so a hostile value cannot reach
    /// FreeType; none for a face without the axes.
    fileprivate func axisValues(of font: Font) -> [FontVariation] {
        guard let variations else { return [] }
        var style = TextStyle()
        style.variations = variations
        return font.variations(for: style)
    }
}

extension TextStyle.FontChoice: Codable {
    private enum CodingKeys: String, CodingKey { case chain, family, font }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .chain: try container.encode(true, forKey: .chain)
        case .family(let name): try container.encode(name, forKey: .family)
        case .font(let font): try container.encode(FontReference(font), forKey: .font)
        }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let name = try container.decodeIfPresent(String.self, forKey: .family) {
            self = .family(name)
        } else if let reference = try container.decodeIfPresent(FontReference.self, forKey: .font) {
            self = .font(try reference.resolve(codingPath: decoder.codingPath))
        } else {
            self = .chain
        }
    }
}

extension AttributedText: Codable {
    private enum CodingKeys: String, CodingKey { case string, runs, baseStyle, highlights, attachments }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(string, forKey: .string)
        try container.encode(runs, forKey: .runs)
        try container.encode(baseStyle, forKey: .baseStyle)
        // Each left out when empty: a plain text encodes as before.
        if !highlights.isEmpty { try container.encode(highlights, forKey: .highlights) }
        if !attachments.isEmpty { try container.encode(attachments, forKey: .attachments) }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let string = try container.decode(String.self, forKey: .string)
        let runs = try container.decode([Run].self, forKey: .runs)
        self.init(string, style: try container.decode(TextStyle.self, forKey: .baseStyle))
        var next = 0
        for run in runs {
            guard run.range.lowerBound == next, run.range.upperBound <= utf16Count else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "style runs do not cover the text"))
            }
            next = run.range.upperBound
        }
        restyle(runs.map(\.range)) { k, style in style = runs[k].style }
        var previous = -1
        for attachment in try container.decodeIfPresent([Attachment].self, forKey: .attachments) ?? [] {
            guard attachment.offset > previous, attachment.offset < utf16Count, utf16[attachment.offset] == TextAttachment.unit else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                       debugDescription: "attachment at \(attachment.offset) is not on an ascending U+FFFC"))
            }
            setAttachment(attachment.attachment, at: attachment.offset)
            previous = attachment.offset
        }
        let highlights = try container.decodeIfPresent([AttributedText.Highlight].self, forKey: .highlights) ?? []
        setHighlights(highlights)
        guard self.highlights == highlights else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "highlights are not ascending, disjoint, non-empty ranges of the text"))
        }
    }
}


extension GlyphRun: Codable {
    private enum CodingKeys: String, CodingKey {
        case font, fontSize, style, isRightToLeft, isUpright, isTruncationToken, range, glyphs, positions, clusters, x, width
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(FontReference(font), forKey: .font)
        try container.encode(fontSize, forKey: .fontSize)
        try container.encode(style, forKey: .style)
        try container.encode(isRightToLeft, forKey: .isRightToLeft)
        if isUpright { try container.encode(isUpright, forKey: .isUpright) }  // only in vertical layouts
        try container.encode(isTruncationToken, forKey: .isTruncationToken)
        try container.encode(range, forKey: .range)
        try container.encode(glyphs.map(\.id), forKey: .glyphs)
        try container.encode(glyphs.map(\.position), forKey: .positions)
        try container.encode(glyphs.map(\.cluster), forKey: .clusters)
        try container.encode(x, forKey: .x)
        try container.encode(width, forKey: .width)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let glyphs = try container.decode([UInt32].self, forKey: .glyphs)
        let positions = try container.decode([GlyphRun.Position].self, forKey: .positions)
        let clusters = try container.decode([Int32].self, forKey: .clusters)
        guard positions.count == glyphs.count, clusters.count == glyphs.count else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "glyph arrays differ in length"))
        }
        self.init(
            font: try container.decode(FontReference.self, forKey: .font).resolve(codingPath: decoder.codingPath),
            fontSize: try container.decode(Double.self, forKey: .fontSize),
            style: try container.decode(TextStyle.self, forKey: .style),
            isRightToLeft: try container.decode(Bool.self, forKey: .isRightToLeft),
            isUpright: try container.decodeIfPresent(Bool.self, forKey: .isUpright) ?? false,
            isTruncationToken: try container.decode(Bool.self, forKey: .isTruncationToken),
            range: try container.decode(Range<Int>.self, forKey: .range),
            glyphs: Glyphs(glyphs.indices.map { Glyph(id: glyphs[$0], position: positions[$0], cluster: clusters[$0]) }),
            x: try container.decode(Double.self, forKey: .x),
            width: try container.decode(Double.self, forKey: .width))
    }
}

extension LayoutLine {
    private enum CodingKeys: String, CodingKey {
        case range, frame, baseline, ascent, descent, hangingWidth, runs, attachments, isParagraphEnd, isTruncated
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(range, forKey: .range)
        try container.encode(frame, forKey: .frame)
        try container.encode(baseline, forKey: .baseline)
        try container.encode(ascent, forKey: .ascent)
        try container.encode(descent, forKey: .descent)
        try container.encode(hangingWidth, forKey: .hangingWidth)
        try container.encode(runs, forKey: .runs)
        if !attachments.isEmpty { try container.encode(attachments, forKey: .attachments) }
        try container.encode(isParagraphEnd, forKey: .isParagraphEnd)
        try container.encode(isTruncated, forKey: .isTruncated)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(range: try container.decode(Range<Int>.self, forKey: .range), frame: try container.decode(Rect.self, forKey: .frame),
                  baseline: try container.decode(Double.self, forKey: .baseline), ascent: try container.decode(Double.self, forKey: .ascent),
                  descent: try container.decode(Double.self, forKey: .descent),
                  hangingWidth: try container.decode(Double.self, forKey: .hangingWidth),
                  runs: try container.decode([GlyphRun].self, forKey: .runs),
                  attachments: try container.decodeIfPresent([LayoutLine.Attachment].self, forKey: .attachments) ?? [],
                  isParagraphEnd: try container.decode(Bool.self, forKey: .isParagraphEnd),
                  isTruncated: try container.decode(Bool.self, forKey: .isTruncated))
    }
}

extension TextLayout: Codable {
    private enum CodingKeys: String, CodingKey { case text, options, lines, size, measuredWidth, isTruncated }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(options, forKey: .options)
        try container.encode(lines, forKey: .lines)
        try container.encode(size, forKey: .size)
        try container.encode(measuredWidth, forKey: .measuredWidth)
        try container.encode(isTruncated, forKey: .isTruncated)
    }

    /// Decodes a layout and checks what drawing and hit testing rely on (a layout from
    /// elsewhere may be damaged or hostile): valid options, lines in order inside the text,
    /// runs, clusters and attachments inside the text or truncation token they show, and
    /// finite numbers.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming what is wrong.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(text: try container.decode(AttributedText.self, forKey: .text),
                  options: try container.decode(LayoutOptions.self, forKey: .options),
                  lines: try container.decode([LayoutLine].self, forKey: .lines),
                  size: try container.decode(Size.self, forKey: .size),
                  measuredWidth: try container.decode(Double.self, forKey: .measuredWidth),
                  isTruncated: try container.decode(Bool.self, forKey: .isTruncated))
        if let problem = decodingProblem {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a valid layout: \(problem)"))
        }
    }

    /// What makes a decoded layout unusable, or nil.
    private var decodingProblem: String? {
        do { try options.validate() } catch { return error.description }
        guard size.width.isFinite, size.height.isFinite, measuredWidth.isFinite else { return "size not finite" }
        let textCount = text.utf16Count, tokenCount = truncationTokenUnits.count  // the default token is "…"
        var previousEnd = 0
        for (index, line) in lines.enumerated() {
            guard line.range.lowerBound >= previousEnd, line.range.upperBound <= textCount else {
                return "line \(index) range \(line.range) is not after the previous line and inside the text (\(textCount) units)"
            }
            previousEnd = line.range.upperBound
            let numbers = [line.frame.x, line.frame.y, line.frame.width, line.frame.height, line.baseline, line.ascent, line.descent, line.hangingWidth]
            guard numbers.allSatisfy(\.isFinite) else { return "line \(index) has a number that is not finite" }
            for run in line.runs {
                let count = run.isTruncationToken ? tokenCount : textCount
                guard run.range.lowerBound >= 0, run.range.upperBound <= count,
                      // A hyphen the breaker put at a line's end has its break's offset, the run's end.
                      run.glyphs.allSatisfy({ (run.range.lowerBound...run.range.upperBound).contains(Int($0.cluster)) }) else {
                    return "line \(index) has a run whose range or clusters are outside its text"
                }
                guard run.fontSize.isFinite, run.fontSize > 0, run.x.isFinite, run.width.isFinite,
                      run.glyphs.allSatisfy({ $0.position.x.isFinite && $0.position.y.isFinite }) else {
                    return "line \(index) has a run with a number that is not finite"
                }
            }
            for attachment in line.attachments {
                let count = attachment.isTruncationToken ? tokenCount : textCount
                let rect = attachment.rect
                guard (0..<count).contains(attachment.offset),
                      [rect.x, rect.y, rect.width, rect.height].allSatisfy(\.isFinite) else {
                    return "line \(index) has an attachment outside its text or with a number that is not finite"
                }
            }
        }
        return nil
    }
}
