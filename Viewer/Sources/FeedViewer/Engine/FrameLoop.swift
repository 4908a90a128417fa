/// The viewer's frame clock: 60 ticks a second on the monotonic clock. A frame starts at a
/// tick and should be presented by the next; one that is late is counted dropped, and the
/// next frame starts at the first tick after it (as a display link skips missed vsyncs).
struct FrameClock {
    static let rate = 60.0
    let start = monotonicSeconds()
    private(set) var tick = 0

    /// The deadline of the current tick's frame.
    var deadline: Double { start + Double(tick + 1) / Self.rate }

    /// Waits for the next tick after now; returns how many ticks passed.
    mutating func waitForNextTick() -> Int {
        let now = monotonicSeconds()
        let next = max(tick + 1, Int(((now - start) * Self.rate).rounded(.up)))
        sleep(until: start + Double(next) / Self.rate)
        defer { tick = next }
        return next - tick
    }
}

extension FeedViewer {
    /// Shows the feed until the user closes the window, paced at 60 Hz.
    public func run() {
        var clock = FrameClock()
        var ticks = 1
        while frame(seconds: Double(ticks) / FrameClock.rate, deadline: clock.deadline) {
            ticks = clock.waitForNextTick()
        }
    }
}

/// A scripted scroll for `--bench`: constant speed (bouncing at the ends), or flings each
/// started at the speed once the last has stopped, paced by the frame clock.
public struct BenchRun: Sendable {
    public var speed: Double
    public var seconds: Double
    public var fling: Bool

    public init(speed: Double, seconds: Double, fling: Bool) {
        self.speed = speed
        self.seconds = seconds
        self.fling = fling
    }

    /// Settles the first screen, runs the scroll, and returns the figures as one JSON object.
    public func run(_ viewer: FeedViewer) -> String {
        viewer.settle()
        viewer.resetStatistics()
        let pixelsPerTick = speed * viewer.settings.scale / FrameClock.rate
        var clock = FrameClock()
        var direction = 1.0
        var ticks = 1
        let total = Int(seconds * FrameClock.rate)
        var distance = 0.0
        while clock.tick < total {
            let before = viewer.offsetPoints
            if fling {
                if !viewer.isFlinging {
                    if viewer.atEnd(direction) { direction = -direction }
                    viewer.fling(pointsPerSecond: direction * speed)
                }
                guard viewer.frame(seconds: Double(ticks) / FrameClock.rate, deadline: clock.deadline) else { break }
            } else {
                if viewer.atEnd(direction) { direction = -direction }
                guard viewer.frame(seconds: Double(ticks) / FrameClock.rate, deadline: clock.deadline,
                                   scrollBy: direction * pixelsPerTick * Double(ticks)) else { break }
            }
            distance += abs(viewer.offsetPoints - before)
            ticks = clock.waitForNextTick()
        }
        let settings = viewer.settings
        return viewer.stats.json(extra: [
            "mode": settings.emptyScroll ? "empty" : settings.mode == .synchronous ? "sync" : "async",
            "scroll": fling ? "fling" : "constant", "speedPtPerS": speed, "seconds": seconds, "ticks": clock.tick,
            "distancePt": distance.rounded(), "posts": viewer.document.posts.count,
            "window": ["width": viewer.pixelWidth, "height": viewer.pixelHeight, "scale": settings.scale],
            "commitBudgetMs": settings.commitBudget * 1000, "textureMemoryLimit": settings.textureMemoryLimit,
            "workers": viewer.pool.workerCount, "peakRSSBytes": peakResidentBytes(),
        ])
    }
}
