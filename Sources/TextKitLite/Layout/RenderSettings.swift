import Foundation

/// The ranges the front ends (`textrender`, the HTTP service) accept for their options, kept
/// in one place for both. Each check returns why a value is refused, or nil; the front end
/// names the option its own way (`--max-lines`, `max-lines=`, `"maxLines"`).
public enum OptionRules {
    /// The most lines a line limit may be: more than any text shows, and far from where the
    /// line-limit arithmetic (one line past the limit) overflows.
    public static let maximumMaxLines = 1_000_000

    /// A line limit: 0 (none) to `maximumMaxLines`.
    public static func maxLines(_ value: Int) -> String? {
        (0...maximumMaxLines).contains(value) ? nil : "must be from 0 (no limit) to \(maximumMaxLines)"
    }

    /// A feed's cell (or text) width.
    public static func feedWidth(_ value: Double) -> String? {
        value > 0 && value <= LayoutOptions.maximumLength ? nil : "must be a positive number of points up to \(Int(LayoutOptions.maximumLength))"
    }

    /// The most widths one measurement takes.
    public static let maximumWidthCount = 64

    /// A list of feed widths, "375" or "320,375,414,768" (blanks around each allowed): the
    /// widths, or why the list is refused.
    public static func feedWidths(_ list: some StringProtocol) -> Result<[Double], WidthListError> {
        var widths: [Double] = []
        for part in list.split(separator: ",", omittingEmptySubsequences: false) {
            guard let width = Double(part.trimmingCharacters(in: .whitespaces)) else { return .failure(.notNumbers) }
            if let reason = feedWidth(width) { return .failure(.outOfRange(width, reason: reason)) }
            widths.append(width)
        }
        guard widths.count <= maximumWidthCount else { return .failure(.tooMany) }
        return .success(widths)
    }

    /// Why a width list is refused.
    public enum WidthListError: Error, Sendable, Equatable {
        case notNumbers
        case tooMany
        /// A width `feedWidth` refuses, and its reason.
        case outOfRange(Double, reason: String)

        public var reason: String {
            switch self {
            case .notNumbers: "not a number or a comma-separated list of numbers"
            case .tooMany: "at most \(OptionRules.maximumWidthCount) widths"
            case .outOfRange(_, let reason): reason
            }
        }
    }

    /// A font size in points.
    public static func fontSize(_ value: Double) -> String? {
        value.isFinite && value > 0 && value <= TextStyle.maximumSize ? nil : "must be in (0, \(Int(TextStyle.maximumSize))] points"
    }

    /// Extra points between lines.
    public static func lineSpacing(_ value: Double) -> String? {
        value.isFinite && abs(value) <= 1e6 ? nil : "must be a finite number of points within ±1e6"
    }

    /// Extra points after each grapheme cluster.
    public static func letterSpacing(_ value: Double) -> String? {
        value.isFinite && abs(value) <= 1e4 ? nil : "must be a finite number of points within ±10000"
    }

    /// A text's language: a well-formed BCP 47 tag (`TextStyle.isWellFormedLanguage`).
    public static func language(_ tag: String) -> String? {
        TextStyle.isWellFormedLanguage(tag) ? nil : "expected a BCP 47 language tag such as ja, ko, zh-Hans, zh-Hant, en-US"
    }

    /// Why a list of OpenType features ("tnum,-liga") is refused.
    public static let featuresReason = "use comma-separated four-letter tags, each optionally with - (off), + (on) or =N, e.g. tnum,-liga"

    /// Why a line height is refused.
    public static let lineHeightReason = "use natural, uniform or a positive number of points"
}

/// Why a front end's option could not be used (a font that does not load, an emoticon table
/// that cannot be read): the message, which names the option and the file.
public struct OptionFailure: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}

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
    /// Content insets in points, on every side.
    public var inset = 0.0
    /// Highlight mentions, topics, hashtags and URLs as the feed does.
    public var highlight = false
    public var scale = 1.0
    public var debug = false
    public var maxPixels = RenderOptions.defaultMaxPixels
    /// Ink past the layout box: drawn (the image grows) or cut.
    public var inkOverflow: InkOverflow = .include
    /// The bitmap's pixel format: premultiplied RGBA (color) by default, or 8-bit gray.
    public var format: PixelFormat = .rgba8
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
        TextStyle(size: fontSize, ink: color, language: language, weight: weight, isItalic: italic, underline: underline,
                  strikethrough: strikethrough, letterSpacing: letterSpacing, features: features)
    }

    /// The text styled (and highlighted when asked), before any emoticons are put in.
    public func attributed(_ string: String) -> AttributedText {
        let link = linkColor ?? (format == .gray8 ? 70 : Self.defaultLinkColor)
        return highlight ? Highlighter().attributed(string, style: style, highlightStyle: HighlightStyle(ink: link))
                         : AttributedText(string, style: style)
    }

    /// The first option the library's checks refuse (`LayoutOptions.validate()`, then
    /// `RenderOptions.validate()`): the property they name ("width", "insets",
    /// "lineHeightMultiple", "lineHeightMode", "scale", "maxPixels", ...) and why; nil when
    /// every option passes. Each front end names the property its own way.
    public var refusal: (property: String, reason: String)? {
        do throws(LayoutError) {
            try layoutOptions.validate()
        } catch {
            guard case .invalidOption(let property, _, let reason) = error else { return ("layout options", error.description) }
            return (property, reason)
        }
        do throws(RenderError) {
            try renderOptions.validate()
        } catch {
            guard case .invalidOption(let property, _, let reason) = error else { return ("render options", error.description) }
            return (property, reason)
        }
        return nil
    }

    public var layoutOptions: LayoutOptions {
        LayoutOptions(
            width: width, maxLines: maxLines, truncation: truncation,
            truncationToken: truncationToken.map { AttributedText($0, style: style) }, alignment: alignment,
            lineHeightMultiple: lineHeightMultiple, lineSpacing: lineSpacing,
            lineHeightMode: lineHeightMode, insets: EdgeInsets(all: inset), direction: direction)
    }

    public var renderOptions: RenderOptions {
        RenderOptions(scale: scale, format: format, background: background, debug: debug, maxPixels: maxPixels, inkOverflow: inkOverflow)
    }
}
