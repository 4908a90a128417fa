import ArgumentParser
import FeedViewer
import Foundation
import TextKitLite
import TextKitLiteFeed

/// `feedview FEED.jsonl`: a window one cell wide scrolling a feed with the wheel, the
/// arrow and page keys, and drags with flings; `--bench` scrolls by script and prints its
/// figures; `--screenshot` writes what the window shows at an offset.
@main
struct FeedView: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feedview",
        abstract: "Scroll a feed in a window, its cells drawn in the background (or on the main thread with --sync).",
        discussion: """
            Keys: arrows scroll a line, Page Up/Down (and space) a screen, Home/End to the ends, Esc or Q quits; \
            the wheel scrolls, a drag with the left button flings. Problems (a missing feed, a malformed line, \
            an unreadable picture) are reported on stderr as textrender reports them and shown in a bar at the \
            window's bottom; the viewer keeps running.
            --bench prints one JSON object: frames, droppedFrames, frameTimeMs, mainThreadMs, presentMs, \
            commitMs (each {mean, p50, p90, p99, max}), placeholderFrames, renders {started, finished, \
            cancelled, failed}, textureBytesPeak, peakRSSBytes and the run's settings.
            """)

    @Argument(help: "A JSON Lines feed (as textrender feed reads).")
    var feed: String

    @Option(name: .customLong("media-root"), help: ArgumentHelp("The folder relative picture paths are resolved against. Default: the feed file's folder.", valueName: "dir"))
    var mediaRoot: String?

    @Option(name: .customLong("repeat"), help: "Show the feed's posts this many times (copies get new ids): a long feed.")
    var repeatCount = 1

    @Option(help: "Cell and window width in points.")
    var width = 375.0

    @Option(help: "Window height in points.")
    var height = 667.0

    @Option(help: "Pixels per point.")
    var scale = 2.0

    @Option(help: "Cell colors: light or dark.")
    var theme = "light"

    @Option(help: ArgumentHelp("The time posts' times are shown relative to: an ISO 8601 date-time, or 'none' for their dates. Default: the current time.", valueName: "time|none"))
    var now: String?

    @Flag(help: "Draw each cell on the main thread when it becomes visible (as drawRect: does), for comparison.")
    var sync = false

    @Option(name: .customLong("commit-budget-ms"), help: "Main-thread milliseconds per frame for turning finished bitmaps into textures.")
    var commitBudget = 3.0

    @Option(name: .customLong("texture-memory-mb"), help: "The most megabytes textures may hold at once (at least what one screen needs).")
    var textureMemory = 96

    @Option(help: "Render workers (default: the active cores).")
    var jobs: Int?

    @Flag(help: "Use SDL's GPU renderer instead of its software renderer.")
    var accelerated = false

    @Flag(help: "Scroll by script at --speed for --seconds, paced at 60 Hz, and print the figures as JSON.")
    var bench = false

    @Option(help: "Bench speed in points per second (constant scrolling, or each fling's start with --fling).")
    var speed = 3000.0

    @Option(help: "Bench length in seconds.")
    var seconds = 10.0

    @Flag(help: "Bench with flings (each starting at --speed, decelerating as UIScrollView does) instead of a constant speed.")
    var fling = false

    @Flag(help: "Bench an empty scroll: no cells drawn, only the window cleared and presented (the window system's floor).")
    var empty = false

    @Option(help: ArgumentHelp("Write what the window shows at --offset, once every visible cell is drawn, as PNG.", valueName: "file.png"))
    var screenshot: String?

    @Option(help: "Scroll offset in points for --screenshot.")
    var offset = 0.0

    func validate() throws {
        guard FeedTheme(named: theme) != nil, theme != "gray" else { throw ValidationError("invalid --theme \(theme): use light or dark") }
        guard width.isFinite, width > 24, width <= 4096 else { throw ValidationError("invalid --width \(width): must be in (24, 4096]") }
        guard height.isFinite, height >= 50, height <= 4096 else { throw ValidationError("invalid --height \(height): must be in [50, 4096]") }
        guard scale.isFinite, scale > 0, scale <= 4 else { throw ValidationError("invalid --scale \(scale): must be in (0, 4]") }
        guard (1...10_000).contains(repeatCount) else { throw ValidationError("invalid --repeat \(repeatCount): must be from 1 to 10000") }
        guard commitBudget.isFinite, commitBudget >= 0, commitBudget <= 16 else { throw ValidationError("invalid --commit-budget-ms \(commitBudget): must be in [0, 16]") }
        guard (16...16_384).contains(textureMemory) else { throw ValidationError("invalid --texture-memory-mb \(textureMemory): must be from 16 to 16384") }
        if let jobs, !(1...64).contains(jobs) { throw ValidationError("invalid --jobs \(jobs): must be from 1 to 64") }
        guard speed.isFinite, speed >= 0, speed <= 1_000_000 else { throw ValidationError("invalid --speed \(speed)") }
        guard seconds.isFinite, seconds > 0, seconds <= 3600 else { throw ValidationError("invalid --seconds \(seconds): must be in (0, 3600]") }
        guard offset.isFinite, offset >= 0 else { throw ValidationError("invalid --offset \(offset): must be a finite number of points, at least 0") }
        if let now, now != "none", FeedPost.time(iso8601: now) == nil {
            throw ValidationError("invalid --now \(now): expected an ISO 8601 date-time such as 2026-11-28T21:50:00Z, or none")
        }
        if bench && screenshot != nil { throw ValidationError("--bench and --screenshot are separate runs") }
    }

    func run() throws {
        var settings = ViewerSettings(feedPath: feed)
        settings.mediaRoot = mediaRoot
        settings.repeatCount = repeatCount
        settings.width = width
        settings.height = height
        settings.scale = scale
        settings.theme = FeedTheme(named: theme) ?? .light
        settings.now = now == "none" ? nil : now.flatMap(FeedPost.time(iso8601:)) ?? Date()
        settings.mode = sync ? .synchronous : .asynchronous
        settings.commitBudget = commitBudget / 1000
        settings.textureMemoryLimit = textureMemory << 20
        if let jobs { settings.workers = jobs }
        settings.accelerated = accelerated
        settings.emptyScroll = empty
        let viewer: FeedViewer
        do { viewer = try FeedViewer(settings: settings) } catch { throw CLIError("\(error)") }
        defer { viewer.close() }
        if let screenshot {
            guard viewer.settle(at: offset), let image = viewer.screenshot() else { throw CLIError("the window closed before the screenshot") }
            do { try image.write(to: screenshot, format: .png) } catch { throw CLIError("\(error)") }
        } else if bench {
            let figures = BenchRun(speed: speed, seconds: seconds, fling: fling).run(viewer)
            print(figures)
        } else {
            viewer.run()
        }
        if !viewer.messages.isEmpty { throw ExitCode(2) }
    }
}

/// An error printed as "Error: <message>" with exit status 1.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
