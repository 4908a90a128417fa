/// The attributes of a run of text.
public struct TextStyle: Sendable, Hashable, Codable {
    /// Which font draws the run.
    public enum FontChoice: Sendable, Hashable {
        /// The layout's fallback chain, in order.
        case chain
        /// The first font of the chain with this family name, falling back along the chain.
        case family(String)
        /// An explicit font (e.g. loaded from a file), falling back along the chain.
        case font(Font)
    }

    /// Font selection.
    public var font: FontChoice
    /// Point size.
    public var size: Double
    /// Gray level of the ink, 0 (black) to 255 (white).
    public var ink: UInt8
    /// A link or highlight target (an @mention, a #topic#, a URL). Later stages keep it:
    /// glyph runs carry it so a renderer or hit test can find it.
    public var link: String?
    /// BCP 47 language ("zh", "ja", "ar"): selects HarfBuzz's language-specific forms and
    /// ICU's line-break tailoring.
    public var language: String?

    public init(font: FontChoice = .chain, size: Double = 17, ink: UInt8 = 0,
                link: String? = nil, language: String? = nil) {
        self.font = font
        self.size = size
        self.ink = ink
        self.link = link
        self.language = language
    }

    /// True when the run is a link or highlight.
    public var isLink: Bool { link != nil }
}
