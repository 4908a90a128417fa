import Foundation
import TextKitLite
import TextKitLiteFeed

/// How the viewer draws cells.
public enum DrawingMode: String, Sendable, CaseIterable {
    /// Cells drawn on the render pool, committed as textures within a per-frame budget.
    case asynchronous
    /// Each cell drawn on the main thread when it becomes visible (UIKit's drawRect:), for
    /// comparison.
    case synchronous
}

/// Everything a viewer is opened with.
public struct ViewerSettings: Sendable {
    /// The feed file (JSON Lines).
    public var feedPath: String
    /// The folder relative picture paths are resolved against (default: the feed's folder).
    public var mediaRoot: String?
    /// Each post this many times (copies get new ids): a long feed.
    public var repeatCount = 1
    /// Cell (and window) width in points.
    public var width = 375.0
    /// Window height in points.
    public var height = 667.0
    /// Pixels per point.
    public var scale = 2.0
    public var theme: FeedTheme = .light
    /// The time posts' times are relative to (nil: their dates), as `textrender --now`.
    public var now: Date? = Date()
    public var mode: DrawingMode = .asynchronous
    /// Main-thread time per frame for turning finished bitmaps into textures, in seconds; at
    /// least one bitmap is committed per frame.
    public var commitBudget = 0.003
    /// The most bytes textures may hold at once.
    public var textureMemoryLimit = 96 << 20
    public var tuning = RangeTuning()
    /// Render workers (default: the active cores).
    public var workers = ProcessInfo.processInfo.activeProcessorCount
    /// SDL's GPU renderer instead of its software one.
    public var accelerated = false
    /// Draw no cells: clear and present only (the window system's floor for `--bench`).
    public var emptyScroll = false
    /// The pool to render on (default: a new one of `workers` workers); tests pass theirs.
    public var pool: RenderQueuePool?

    public init(feedPath: String) { self.feedPath = feedPath }

    /// The cells' style: `textrender feed`'s defaults, with the theme and `now`.
    public var cellStyle: FeedCellStyle {
        var style = FeedCellStyle()
        style.now = now
        style.theme = theme
        return style
    }

    public var renderOptions: RenderOptions { RenderOptions(scale: scale, format: .rgba8, background: theme.background) }
}
