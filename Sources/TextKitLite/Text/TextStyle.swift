/// The attributes of a run of text.
public struct TextStyle: Sendable, Hashable {
    /// Which font draws the run.
    public enum FontChoice: Sendable, Hashable {
        /// The layout's fallback chain, in order.
        case chain
        /// The first font of the chain with this family name, falling back along the chain.
        case family(String)
        /// An explicit font (e.g. loaded from a file), falling back along the chain.
        case font(Font)
    }

    /// A font weight. A chain font with a face of that weight in the chain uses it; any
    /// other font is emboldened (outlines widened, advances widened to match).
    public enum Weight: String, Sendable, Hashable, Codable, CaseIterable {
        case regular, bold
    }

    /// Font selection.
    public var font: FontChoice
    /// Point size.
    public var size: Double
    /// The color of the glyphs (black); a gray bitmap draws its gray level.
    public var ink: Color
    /// A rectangle behind the run's glyphs, as tall as the line and continuous across runs
    /// with the same background (a highlight's tapped state); nil for none.
    public var background: Color?
    /// The color of underlines and strikethroughs; nil for the ink.
    public var decorationColor: Color?
    /// BCP 47 language ("zh", "ja", "ar"): selects HarfBuzz's language-specific forms and
    /// ICU's line-break tailoring.
    public var language: String?
    /// Font weight.
    public var weight: Weight
    /// Italic: an italic face of the family when the chain has one, else slanted outlines.
    public var isItalic: Bool
    /// A line under the text, where and as thick as the font's `post` table says.
    public var underline: Bool
    /// A line through the text, where and as thick as the font's `OS/2` table says.
    public var strikethrough: Bool
    /// Extra space after each grapheme cluster, in points (negative tightens, but never
    /// below a cluster's own advance). None is added inside a cluster or inside a joined
    /// (cursive) word, where it goes after the word.
    public var letterSpacing: Double
    /// OpenType features for HarfBuzz, in order (later settings of a tag win).
    public var features: [FontFeature]
    /// Variable-font axis settings ("wght" 650), in order (later settings of a tag win): each
    /// font of the run that has the axis draws at the value clamped to the axis's range, and a
    /// font without it ignores it. A setting of "wght" overrides `weight` on a variable font.
    public var variations: [FontVariation] = []

    /// The point size of a style made without one, and of every front end's text and feed
    /// body unless told otherwise (`RenderSettings`, `FeedCellStyle`, `textrender
    /// --font-size`): 17.
    public static let defaultSize = 17.0

    public init(font: FontChoice = .chain, size: Double = TextStyle.defaultSize, ink: Color = .black, background: Color? = nil,
                decorationColor: Color? = nil, language: String? = nil, weight: Weight = .regular, isItalic: Bool = false,
                underline: Bool = false, strikethrough: Bool = false, letterSpacing: Double = 0,
                features: [FontFeature] = []) {
        self.font = font
        self.size = size
        self.ink = ink
        self.background = background
        self.decorationColor = decorationColor
        self.language = language
        self.weight = weight
        self.isItalic = isItalic
        self.underline = underline
        self.strikethrough = strikethrough
        self.letterSpacing = letterSpacing
        self.features = features
    }

    /// True for a well-formed BCP 47 language tag as styles take it: a 2-8 letter
    /// language, then subtags of 1-8 letters or digits after "-" ("ja", "zh-Hant",
    /// "zh-Hant-HK", "en-US"), at most 35 characters.
    public static func isWellFormedLanguage(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard tag.utf8.count <= 35, let language = parts.first, (2...8).contains(language.count),
              language.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    /// The style with only what shaping and line breaking depend on (font, size, language,
    /// weight, slant, letter spacing, features, variations): colors and decorations at their defaults.
    var shapingAttributes: TextStyle {
        var style = self
        style.ink = .black
        style.background = nil
        style.decorationColor = nil
        style.underline = false
        style.strikethrough = false
        return style
    }

    /// The style changes glyphs or their advances beyond font and size: a weight, a
    /// slant, features or letter spacing.
    var changesGlyphs: Bool { weight != .regular || isItalic || !features.isEmpty || letterSpacing != 0 || !variations.isEmpty }
}

/// An OpenType feature setting: a four-letter tag and its value (0 off, 1 on, or an
/// alternate's index), as `hb_feature_t` without a range.
public struct FontFeature: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The four-character tag, e.g. "liga", "tnum", "ss01".
    public let tag: String
    public let value: UInt32

    /// A feature from its tag (four printable ASCII characters) and value.
    public init?(tag: String, value: UInt32 = 1) {
        guard tag.unicodeScalars.count == 4, tag.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) else { return nil }
        self.tag = tag
        self.value = value
    }

    /// A feature from CSS-like text: "tnum" (on), "-liga" (off), "+kern", "ss01=2".
    public init?(_ text: some StringProtocol) {
        var body = Substring(text)
        var value: UInt32 = 1
        if body.hasPrefix("-") { value = 0; body = body.dropFirst() }
        else if body.hasPrefix("+") { body = body.dropFirst() }
        if let equals = body.firstIndex(of: "=") {
            guard value == 1, let parsed = UInt32(body[body.index(after: equals)...]) else { return nil }
            value = parsed
            body = body[..<equals]
        }
        self.init(tag: String(body), value: value)
    }

    /// A list of features separated by commas: "tnum,-liga".
    public static func list(_ text: String) -> [FontFeature]? {
        text.commaSeparated { FontFeature($0) }
    }

    public var description: String {
        switch value {
        case 0: "-\(tag)"
        case 1: tag
        default: "\(tag)=\(value)"
        }
    }
}

extension String {
    /// The parts between commas, blanks around each trimmed, each made a value by `parse`;
    /// nil when `parse` refuses a part.
    func commaSeparated<Value>(_ parse: (Substring) -> Value?) -> [Value]? {
        var result: [Value] = []
        for part in split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = parse(part.trimmingSpaces) else { return nil }
            result.append(value)
        }
        return result
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var result = self
        while result.first == " " { result = result.dropFirst() }
        while result.last == " " { result = result.dropLast() }
        return result
    }
}

extension TextStyle: Codable {
    private enum CodingKeys: String, CodingKey {
        case font, size, ink, background, decorationColor, language, weight, isItalic, underline, strikethrough, letterSpacing, features
        case variations
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(font, forKey: .font)
        try container.encode(size, forKey: .size)
        try container.encode(ink, forKey: .ink)
        try container.encodeIfPresent(background, forKey: .background)
        try container.encodeIfPresent(decorationColor, forKey: .decorationColor)
        try container.encodeIfPresent(language, forKey: .language)
        // Attributes at their defaults are left out: plain text encodes as before.
        if weight != .regular { try container.encode(weight, forKey: .weight) }
        if isItalic { try container.encode(isItalic, forKey: .isItalic) }
        if underline { try container.encode(underline, forKey: .underline) }
        if strikethrough { try container.encode(strikethrough, forKey: .strikethrough) }
        if letterSpacing != 0 { try container.encode(letterSpacing, forKey: .letterSpacing) }
        if !features.isEmpty { try container.encode(features, forKey: .features) }
        if !variations.isEmpty { try container.encode(variations, forKey: .variations) }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            font: try container.decode(FontChoice.self, forKey: .font),
            size: try container.decode(Double.self, forKey: .size),
            ink: try container.decode(Color.self, forKey: .ink),
            background: try container.decodeIfPresent(Color.self, forKey: .background),
            decorationColor: try container.decodeIfPresent(Color.self, forKey: .decorationColor),
            language: try container.decodeIfPresent(String.self, forKey: .language),
            weight: try container.decodeIfPresent(Weight.self, forKey: .weight) ?? .regular,
            isItalic: try container.decodeIfPresent(Bool.self, forKey: .isItalic) ?? false,
            underline: try container.decodeIfPresent(Bool.self, forKey: .underline) ?? false,
            strikethrough: try container.decodeIfPresent(Bool.self, forKey: .strikethrough) ?? false,
            letterSpacing: try container.decodeIfPresent(Double.self, forKey: .letterSpacing) ?? 0,
            features: try container.decodeIfPresent([FontFeature].self, forKey: .features) ?? [])
        variations = try container.decodeIfPresent([FontVariation].self, forKey: .variations) ?? []
    }
}
