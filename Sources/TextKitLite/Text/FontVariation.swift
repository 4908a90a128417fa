/// A variable font's axis setting: a four-letter axis tag and a design-space value
/// ("wght" 650, "wdth" 80), as `hb_variation_t` and CSS `font-variation-settings` give it.
///
/// A style's variations apply to each font of a run that has the axis, clamped to the axis's
/// range; a font without the axis ignores the setting, as CSS does.
public struct FontVariation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The four-character axis tag, e.g. "wght", "wdth", "slnt", "opsz".
    public let tag: String
    /// The axis value in design units (a weight of 100 to 900, a width in percent, ...).
    public let value: Double

    /// The largest magnitude a value may have: the 16.16 fixed-point range FreeType's
    /// design coordinates take.
    public static let maximumMagnitude = 32767.0

    /// A setting from its tag (four printable ASCII characters) and a finite value of at most
    /// `maximumMagnitude`; nil otherwise.
    public init?(tag: String, value: Double) {
        guard tag.unicodeScalars.count == 4, tag.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }),
              value.isFinite, abs(value) <= Self.maximumMagnitude else { return nil }
        self.tag = tag
        self.value = value
    }

    /// A setting from text "TAG=VALUE": "wght=650", "wdth=87.5".
    public init?(_ text: some StringProtocol) {
        guard let equals = text.firstIndex(of: "="), let value = Double(text[text.index(after: equals)...]) else { return nil }
        self.init(tag: String(text[..<equals]), value: value)
    }

    /// A comma-separated list of settings: "wght=650,wdth=80" (blanks around each allowed);
    /// nil when any part is not "TAG=VALUE". A later setting of a tag wins.
    public static func list(_ text: String) -> [FontVariation]? {
        text.commaSeparated { FontVariation($0) }
    }

    private enum CodingKeys: String, CodingKey { case tag, value }

    /// Decodes a setting, refusing what `init(tag:value:)` refuses.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let tag = try container.decode(String.self, forKey: .tag), value = try container.decode(Double.self, forKey: .value)
        guard let variation = FontVariation(tag: tag, value: value) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "variation \(tag)=\(value): expected a four-letter tag and a value of at most ±\(Int(Self.maximumMagnitude))"))
        }
        self = variation
    }

    /// The tag as HarfBuzz and FreeType take it: its four bytes, big-endian.
    var tagValue: UInt32 { tag.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }

    public var description: String {
        "\(tag)=\(value == value.rounded() ? String(Int(value)) : String(value))"
    }
}

extension Font {
    /// One axis of a variable font, from its `fvar` table: the tag and the range of design values,
    /// with the value the font draws at when no setting is given.
    public struct Axis: Sendable, Hashable, CustomStringConvertible {
        /// The four-character axis tag ("wght").
        public let tag: String
        /// The smallest value the axis takes.
        public let minimum: Double
        /// The value of the font's default instance.
        public let defaultValue: Double
        /// The largest value the axis takes.
        public let maximum: Double

        /// The axis as "wght 100–900".
        public var description: String {
            func number(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
            return "\(tag) \(number(minimum))–\(number(maximum))"
        }
    }
}
