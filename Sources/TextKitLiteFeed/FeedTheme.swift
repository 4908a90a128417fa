import TextKitLite

/// The colors of a feed cell: its background, texts, links and placeholders. A theme
/// changes pixels only, never a size or a line: cells are measured without it, and the
/// height cache answers for every theme with one measurement.
public struct FeedTheme: Sendable, Hashable, Codable {
    /// Behind everything (`RenderOptions.background` when drawing a cell).
    public var background: Color
    /// The author line, the body and the quote.
    public var text: Color
    /// The footer.
    public var secondaryText: Color
    /// Mentions, topics, hashtags, URLs and the expand token: their ink (one, or one per
    /// kind), weight, underline and background.
    public var highlight: HighlightStyle
    /// URLs are underlined as well as in their ink (mentions and topics are not).
    public var underlinesURLs: Bool
    /// The avatar's placeholder.
    public var avatarFill: Color
    /// An image's placeholder, and its one-pixel outline.
    public var imageFill: Color
    public var imageStroke: Color
    /// The box behind a quoted post.
    public var quoteFill: Color
    /// The one-pixel line under a cell, when the cell style shows one.
    public var separator: Color

    /// A theme; the separator defaults to the images' outline color.
    public init(background: Color, text: Color, secondaryText: Color, highlight: HighlightStyle, underlinesURLs: Bool,
                avatarFill: Color, imageFill: Color, imageStroke: Color, quoteFill: Color, separator: Color? = nil) {
        self.separator = separator ?? imageStroke
        self.background = background
        self.text = text
        self.secondaryText = secondaryText
        self.highlight = highlight
        self.underlinesURLs = underlinesURLs
        self.avatarFill = avatarFill
        self.imageFill = imageFill
        self.imageStroke = imageStroke
        self.quoteFill = quoteFill
    }

    /// Dark text on white, links and mentions in blue and not underlined: what a feed app
    /// ships by day.
    public static let light = FeedTheme(
        background: .white, text: Color(red: 0x0f, green: 0x14, blue: 0x19), secondaryText: Color(red: 0x53, green: 0x64, blue: 0x71),
        highlight: HighlightStyle(ink: Color(red: 0x1d, green: 0x9b, blue: 0xf0)), underlinesURLs: false,
        avatarFill: Color(red: 0xcf, green: 0xd9, blue: 0xde), imageFill: Color(red: 0xe1, green: 0xe8, blue: 0xed),
        imageStroke: Color(red: 0xcf, green: 0xd9, blue: 0xde), quoteFill: Color(red: 0xf7, green: 0xf9, blue: 0xf9))

    /// Light text on a dark blue-gray, the same blue for links: what half of a feed app's
    /// users see.
    public static let dark = FeedTheme(
        background: Color(red: 0x15, green: 0x20, blue: 0x2b), text: Color(red: 0xf7, green: 0xf9, blue: 0xf9),
        secondaryText: Color(red: 0x8b, green: 0x98, blue: 0xa5),
        highlight: HighlightStyle(ink: Color(red: 0x1d, green: 0x9b, blue: 0xf0)), underlinesURLs: false,
        avatarFill: Color(red: 0x38, green: 0x44, blue: 0x4d), imageFill: Color(red: 0x27, green: 0x33, blue: 0x40),
        imageStroke: Color(red: 0x38, green: 0x44, blue: 0x4d), quoteFill: Color(red: 0x19, green: 0x27, blue: 0x34))

    /// Gray levels, links in a dark gray and URLs underlined: the cells' look before colors,
    /// kept for 8-bit gray output (`textrender feed --gray`).
    public static let gray = FeedTheme(
        background: 255, text: 0, secondaryText: 110, highlight: HighlightStyle(ink: 70), underlinesURLs: true,
        avatarFill: 200, imageFill: 225, imageStroke: 185, quoteFill: 242)

    /// The themes by the names front ends take (`--theme light|dark|gray`).
    public static let named: [(name: String, theme: FeedTheme)] = [("light", .light), ("dark", .dark), ("gray", .gray)]

    /// A theme by name, or nil.
    public init?(named name: String) {
        guard let theme = Self.named.first(where: { $0.name == name })?.theme else { return nil }
        self = theme
    }
}
