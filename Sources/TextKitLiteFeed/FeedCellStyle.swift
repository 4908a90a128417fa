import Foundation
import TextKitLite

/// Sizes, spacing and limits of a feed cell (avatar + author line and an optional time and
/// source line, body, optional quote box, optional image grid, footer).
public struct FeedCellStyle: Sendable, Hashable, Codable {
    public var padding = EdgeInsets(all: 12)
    /// Space between the cell's rows.
    public var spacing = 8.0
    public var avatarSize = 40.0
    public var authorSize = 15.0
    /// The body's point size: a text's default (`TextStyle.defaultSize`), as `textrender` and
    /// the service draw it unless told otherwise.
    public var bodySize = TextStyle.defaultSize
    public var quoteSize = 14.0
    public var footerSize = 12.0
    /// The line under the author (time and source).
    public var metaSize = 12.0
    /// Extra points between lines of the body and the quote (none, as in a text).
    public var lineSpacing = 0.0
    /// Lines of body text shown before the expand token; 0 for all.
    public var bodyMaxLines = 6
    public var quoteMaxLines = 4
    /// Shown at the end of a truncated body or quote.
    public var expandToken = "…全文"
    /// Even line heights across scripts and emoji (the Weibo demo's modifier).
    public var lineHeightMode: LineHeightMode = .uniform
    public var imageSpacing = 4.0
    /// The cell's colors: they change no size and no line.
    public var theme: FeedTheme = .light
    /// The time a post's `time` is shown relative to ("3分钟前", "3 minutes ago"); nil shows
    /// its date. Cells of different `now`s are measured and cached apart (a label's length
    /// can change a line).
    public var now: Date?
    /// A one-pixel line in the theme's `separator` color across the bottom of each cell,
    /// inside its height (what a list shows between cells).
    public var showsSeparator = false
    /// The author line's weight (bold, as Weibo shows names).
    public var authorWeight: TextStyle.Weight = .bold
    /// The cell's direction: `auto` takes its post's body's (the body's first strong
    /// character, rules P2–P3; left to right when it has none). A right-to-left cell is
    /// mirrored: avatar on the right, author and footer lines right-aligned beside and
    /// under it, images from the right. Each text keeps its own paragraph direction.
    public var direction: ParagraphDirection = .auto
    /// Hyphenation of the body's and the quote's words (`textrender feed/measure --hyphenate`).
    public var hyphenation: Hyphenation = .none

    public init() {}

    /// The style with the default theme: everything a cell's size and lines depend on, which
    /// measurements are cached by.
    var withoutTheme: FeedCellStyle {
        var style = self
        style.theme = .light
        return style
    }

    /// The cell style of `textrender feed`/`measure` and the HTTP service: the body at a font
    /// size and line spacing, and its line limit (nil: the default 6; 0: all).
    public init(bodySize: Double, lineSpacing: Double, bodyMaxLines: Int?) {
        self.bodySize = bodySize
        self.lineSpacing = lineSpacing
        if let bodyMaxLines { self.bodyMaxLines = bodyMaxLines }
    }

    /// Why a cell width is refused for this style (it leaves no room inside the padding), or
    /// nil: checked once per run or request rather than reported for every post.
    public func cellWidthProblem(_ width: Double) -> String? {
        width > padding.horizontal ? nil : "a cell must be wider than its padding (\(padding.horizontal) points)"
    }

    /// Checks every value, naming the first bad one.
    public func validate() throws(LayoutError) {
        let sizes = [("bodySize", bodySize), ("authorSize", authorSize), ("quoteSize", quoteSize), ("footerSize", footerSize),
                     ("metaSize", metaSize)]
        for (name, value) in sizes {
            if let reason = TextStyle.sizeProblem(value) { throw .invalidOption(name: name, value: "\(value)", reason: reason) }
        }
        for (name, value) in [("spacing", spacing), ("avatarSize", avatarSize), ("imageSpacing", imageSpacing)]
            where !(value.isFinite && value >= 0 && value <= 1e5) {
            throw .invalidOption(name: name, value: "\(value)", reason: "must be in [0, 100000] points")
        }
        // The line spacing and line height every text block gets, checked as the engine checks
        // them: the precomputer measures its text blocks without checking them again.
        try LayoutOptions(lineSpacing: lineSpacing, lineHeightMode: lineHeightMode).validate()
        guard padding.isWithin(LayoutOptions.maximumLength) else {
            throw .invalidOption(name: "padding", value: "\(padding)", reason: LayoutOptions.insetReason)
        }
        guard bodyMaxLines >= 0 else { throw .invalidOption(name: "bodyMaxLines", value: "\(bodyMaxLines)", reason: "must be 0 (all) or more") }
        guard quoteMaxLines >= 0 else { throw .invalidOption(name: "quoteMaxLines", value: "\(quoteMaxLines)", reason: "must be 0 (all) or more") }
    }
}
