import Dispatch
import Synchronization
import TextKitLite

/// How fast a render in flight stops when its target is cancelled.
///
/// A 200-line layout is displayed through `AsyncRenderer.display` (a `DisplayTask.text` on a
/// one-worker pool, warm glyph cache). The task's `lineDrawn` hook signals when line `k`
/// has been drawn; the benchmark thread then calls `RenderTarget.cancel()` and notes how
/// many lines were drawn when it returned. The task's display closure is wrapped to note
/// when it returns (the render stopped), and `didDisplay` notes the report.
public final class CancelLatencyBench {
    /// The long layout (exactly `lineCount` lines).
    public let layout: TextLayout
    public let lineCount: Int
    private let renderer: AsyncRenderer
    private let textRenderer: TextRenderer
    private let options = RenderOptions(scale: Feed.scale)

    /// One trial's figures.
    public struct Trial: Sendable {
        /// The line after which the cancel was requested (1-based count of lines drawn).
        public var k: Int
        /// Lines drawn when `cancel()` returned.
        public var linesAtCancel: Int
        /// Lines drawn after `cancel()` returned.
        public var linesAfterCancel: Int
        /// From the `cancel()` call to the display closure returning (the render stopped).
        public var cancelToStopNanoseconds: UInt64
        /// From the `cancel()` call to `didDisplay(finished: false)` on the callback queue.
        public var cancelToReportNanoseconds: UInt64
        /// The duration of the `cancel()` call itself.
        public var cancelCallNanoseconds: UInt64
        /// The render finished all lines (the cancel came too late); should never happen.
        public var finished: Bool
        /// Lines drawn in all.
        public var linesDrawn: Int
    }

    /// - Parameters:
    ///   - engine: lays out the long text.
    ///   - lines: the number of lines of the layout.
    public init(engine: TextEngine, lines: Int = 200) {
        // Feed bodies, one paragraph each, until the text has enough lines at 375 pt.
        var text = ""
        var layout: TextLayout?
        var index = 0
        repeat {
            for _ in 0..<40 {
                text += Feed.posts[index % Feed.posts.count].text + "\n"
                index += 1
            }
            layout = try? engine.layout(AttributedText(text, style: TextStyle(size: 16)),
                                        options: LayoutOptions(width: Feed.width, maxLines: lines))
        } while (layout?.lineCount ?? 0) < lines || layout?.isTruncated != true
        self.layout = layout!
        lineCount = layout!.lineCount
        let textRenderer = TextRenderer(glyphCache: GlyphCache())
        self.textRenderer = textRenderer
        renderer = AsyncRenderer(pool: RenderQueuePool(workerCount: 1, label: "bench.cancel"),
                                 callbackQueue: DispatchQueue(label: "bench.cancel.callback"),
                                 renderer: textRenderer)
        // Warm the glyph cache: every trial draws the same glyphs.
        _ = try? textRenderer.render(self.layout, options: options)
    }

    /// The state one trial shares with the worker and the callback queue.
    private final class Probe: Sendable {
        let k: Int
        let lines = Atomic<Int>(0)
        let stoppedAt = Atomic<UInt64>(0)
        let reportedAt = Atomic<UInt64>(0)
        let finished = Atomic<Bool>(false)
        let reached = DispatchSemaphore(value: 0)
        let stopped = DispatchSemaphore(value: 0)
        let reported = DispatchSemaphore(value: 0)
        init(k: Int) { self.k = k }
    }

    /// Runs one trial: cancel after `k` lines were drawn.
    public func trial(k: Int) -> Trial {
        precondition(k >= 1 && k < lineCount)
        let probe = Probe(k: k)
        let target = RenderTarget(name: "cancel-\(k)")
        let base: DisplayTask
        do {
            base = try DisplayTask.text(
                layout, options: options, renderer: textRenderer,
                lineDrawn: { index in
                    probe.lines.store(index + 1, ordering: .releasing)
                    if index + 1 == probe.k { probe.reached.signal() }
                },
                didDisplay: { _, outcome in
                    probe.reportedAt.store(now(), ordering: .relaxed)
                    probe.finished.store(outcome.finished, ordering: .relaxed)
                    probe.reported.signal()
                })
        } catch {
            fatalError("display task: \(error)")
        }
        var task = base
        let draw = base.display
        task.display = { bitmap, isCancelled in
            draw(&bitmap, isCancelled)
            probe.stoppedAt.store(now(), ordering: .relaxed)
            probe.stopped.signal()
        }
        renderer.display(task, on: target)
        probe.reached.wait()
        let cancelStart = now()
        target.cancel()
        let cancelEnd = now()
        let linesAtCancel = probe.lines.load(ordering: .acquiring)
        probe.stopped.wait()
        probe.reported.wait()
        let total = probe.lines.load(ordering: .acquiring)
        let stoppedAt = probe.stoppedAt.load(ordering: .relaxed)
        let reportedAt = probe.reportedAt.load(ordering: .relaxed)
        return Trial(
            k: k, linesAtCancel: linesAtCancel, linesAfterCancel: total - linesAtCancel,
            cancelToStopNanoseconds: stoppedAt > cancelStart ? stoppedAt - cancelStart : 0,
            cancelToReportNanoseconds: reportedAt > cancelStart ? reportedAt - cancelStart : 0,
            cancelCallNanoseconds: cancelEnd - cancelStart,
            finished: probe.finished.load(ordering: .relaxed), linesDrawn: total)
    }

    /// Runs `count` trials with k spread over the first three quarters of the layout.
    public func trials(_ count: Int) -> [Trial] {
        let span = max(1, lineCount * 3 / 4 - 10)
        return (0..<count).map { i in trial(k: 10 + (i * 37) % span) }
    }

    /// Median and worst of a set of trials.
    public struct Figures: Sendable {
        /// Trials in the latencies (the cancelled ones).
        public var trials: Int
        public var linesAfterCancel: Summary
        public var cancelToStopMicroseconds: Summary
        public var cancelToReportMicroseconds: Summary
        public var cancelCallMicroseconds: Summary
        /// Trials whose render drew every line (not stopped by the cancel).
        public var finishedAnyway: Int
        /// Microseconds per drawn line without cancellation (for scale).
        public var microsecondsPerLine: Double
    }

    /// Runs `count` trials and summarizes them.
    ///
    /// A trial whose render drew every line before the cancel (the benchmark thread was
    /// descheduled for longer than the rest of the render) measures nothing: it is counted in
    /// `finishedAnyway` and left out of the latencies.
    public func figures(trials count: Int) -> Figures {
        let all = trials(count)
        var results = all.filter { !$0.finished }
        if results.isEmpty { results = all }
        let (_, full) = timed { _ = try? textRenderer.render(layout, options: options) }
        return Figures(
            trials: results.count,
            linesAfterCancel: Summary(results.map { Double($0.linesAfterCancel) }),
            cancelToStopMicroseconds: Summary(results.map { Double($0.cancelToStopNanoseconds) / 1_000 }),
            cancelToReportMicroseconds: Summary(results.map { Double($0.cancelToReportNanoseconds) / 1_000 }),
            cancelCallMicroseconds: Summary(results.map { Double($0.cancelCallNanoseconds) / 1_000 }),
            finishedAnyway: all.filter(\.finished).count,
            microsecondsPerLine: Double(full) / 1_000 / Double(lineCount))
    }
}
