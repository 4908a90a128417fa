import TextKitLite

extension LineHeightMode {
    /// A line height as an option gives it: "natural", "uniform" or a positive number of points.
    public init?(option: String) {
        switch option {
        case "natural": self = .natural
        case "uniform": self = .uniform
        default:
            guard let points = Double(option), points.isFinite, points > 0 else { return nil }
            self = .fixed(points)
        }
    }
}

/// Everything `textrender render` and the HTTP service's `POST /render` take besides the
/// text and the fonts: the style, the layout options and the drawing options, made into the
/// library's values in one place so both lay out and draw alike.
public struct RenderSettings: Sendable, Hashable {
    public var width = 375.0
    public var fontSize = TextStyle.defaultSize
    public var lineSpacing = 0.0
    public var weight: TextStyle.Weight = .regular
    public var italic = false
    public var underline = false
    public var strikethrough = false
    public var letterSpacing = 0.0
    public var features: [FontFeature] = []
    /// Variable-font axis settings (`TextStyle.variations`).
    public var variations: [FontVariation] = []
    /// The text's language (BCP 47), nil for none.
    public var language: String?
    public var maxLines = 0
    /// Shown where the text is cut (nil: the engine's "…").
    public var truncationToken: String?
    public var truncation: TruncationMode = .end
    public var alignment: TextAlignment = .natural
    public var direction: ParagraphDirection = .auto
    public var lineHeightMode: LineHeightMode = .natural
    public var lineHeightMultiple = 1.0
    /// Balanced lines (`LayoutOptions.lineBalance`).
    public var lineBalance = false
    /// Content insets in points, on every side.
    public var inset = 0.0
    /// Shapes the lines flow around (`LayoutOptions.exclusions`).
    public var exclusions: [ExclusionShape] = []
    /// Hyphenation of words that do not fit a line (`--hyphenate`: `.auto`).
    public var hyphenation: Hyphenation = .none
    /// Horizontal lines, or vertical columns (`--vertical`; `width` is then the column length).
    public var writingMode: LayoutOptions.WritingMode = .horizontal
    /// Highlight mentions, topics, hashtags and URLs as the feed does.
    public var highlight = false
    public var scale = 1.0
    public var debug = false
    public var maxPixels = RenderOptions.defaultMaxPixels
    /// Ink past the layout box: drawn (the image grows) or cut.
    public var inkOverflow: RenderOptions.InkOverflow = .include
    /// The bitmap's pixel format: premultiplied RGBA (color) by default, or 8-bit gray.
    public var format: Bitmap.PixelFormat = .rgba8
    /// The text's color.
    public var color: Color = .black
    /// The image's background.
    public var background: Color = .white
    /// The highlights' color (with `highlight`); nil for the default: `defaultLinkColor` in
    /// color, gray 70 (the gray feed's link ink) on a gray bitmap.
    public var linkColor: Color?

    /// The highlights' color unless told otherwise: a feed app's link blue.
    public static let defaultLinkColor = Color(red: 0x1d, green: 0x9b, blue: 0xf0)

    public init() {}

    /// The text's style.
    public var style: TextStyle {
        var style = TextStyle(size: fontSize, ink: color, language: language, weight: weight, isItalic: italic, underline: underline,
                              strikethrough: strikethrough, letterSpacing: letterSpacing, features: features)
        style.variations = variations
        return style
    }

    /// The text styled (and highlighted when asked), before any emoticons are put in.
    public func attributed(_ string: String) -> AttributedText {
        let link = linkColor ?? (format == .gray8 ? 70 : Self.defaultLinkColor)
        return highlight ? Highlighter().attributed(string, style: style, highlightStyle: HighlightStyle(ink: link))
                         : AttributedText(string, style: style)
    }

    /// The first option the library's checks refuse (`LayoutOptions.validate()`, then
    /// `RenderOptions.validate()`): the property they name ("width", "insets",
    /// "lineHeightMultiple", "lineHeightMode", "scale", "maxPixels", ...), the value as the
    /// library states it ("1200 polygon vertices"), and why; nil when every option passes.
    /// Each front end names the property its own way.
    public var refusal: (property: String, value: String, reason: String)? {
        OptionRules.refusal { () throws(LayoutError) in try layoutOptions.validate() }
            ?? OptionRules.refusal { () throws(RenderError) in try renderOptions.validate() }
    }

    public var layoutOptions: LayoutOptions {
        var options = LayoutOptions(
            width: width, maxLines: maxLines, truncation: truncation,
            truncationToken: truncationToken.map { AttributedText($0, style: style) }, alignment: alignment,
            lineHeightMultiple: lineHeightMultiple, lineSpacing: lineSpacing,
            lineHeightMode: lineHeightMode, insets: EdgeInsets(all: inset), direction: direction,
            exclusions: exclusions, hyphenation: hyphenation, writingMode: writingMode)
        options.lineBalance = lineBalance
        return options
    }

    public var renderOptions: RenderOptions {
        RenderOptions(scale: scale, format: format, background: background, debug: debug, maxPixels: maxPixels, inkOverflow: inkOverflow)
    }
}
