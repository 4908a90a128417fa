import Foundation
import TextKitLite
import TextKitLiteFeed

/// Everything the figures need, built once (not measured): the warm engine, a precomputer
/// that has laid out the feed, the cells, a renderer with a warm glyph cache, the raw
/// HarfBuzz plans, and the two pools.
public final class FeedFixture {
    public let posts: [FeedPost]
    /// Shaped-word cache holding every word of the feed.
    public let warmEngine: TextEngine
    /// Has laid out every post at 375 pt (full height cache).
    public let laidOut: FeedPrecomputer
    public let cells: [CellLayout]
    /// Glyph cache holding every glyph of the feed at 2×.
    public let warmRenderer: CellRenderer
    public let harfBuzz: RawHarfBuzz
    public let plans: [RawHarfBuzz.Plan]
    /// Each post's body shaped (`LayoutWorkloads.preparedBodies`).
    public let preparedBodies: [ShapedText]
    public let oneWorker = RenderQueuePool(workerCount: 1, label: "bench.pool1")
    public let twoWorkers = RenderQueuePool(workerCount: 2, label: "bench.pool2")

    public init(posts: [FeedPost] = Feed.posts) {
        self.posts = posts
        warmEngine = LayoutWorkloads.warmEngine(posts)
        laidOut = LayoutWorkloads.laidOutPrecomputer(posts, engine: warmEngine)
        cells = RenderWorkloads.cells(posts, engine: warmEngine)
        warmRenderer = RenderWorkloads.warmRenderer(cells)
        harfBuzz = RawHarfBuzz()
        plans = posts.map(harfBuzz.plan)
        preparedBodies = LayoutWorkloads.preparedBodies(posts, engine: warmEngine)
    }
}

/// One measurement: wall-clock and CPU nanoseconds per unit (post, hit or layout). CPU
/// time is the measuring thread's for single-threaded work and the whole process's for
/// the parallel runs; on a shared machine it is the steadier of the two.
public struct Figure: Sendable {
    public var wall = 0.0
    public var cpu = 0.0
}

/// One round of every figure, measured back to back so that ratios compare like with like.
public struct FeedRound: Sendable {
    /// `FeedPrecomputer.measure` (what `textrender measure` does).
    public var measureCold = Figure()
    public var measureWarmWords = Figure()
    /// The same posts as cell layouts (frames, lines and glyph runs).
    public var cellLayoutCold = Figure()
    public var cellLayoutWarmWords = Figure()
    /// Per hit.
    public var heightCacheHit = Figure()
    public var relayoutNewWidth = Figure()
    /// `FeedPrecomputer.measure(_:widths:)` at four widths, per post.
    public var measureWidths4 = Figure()
    /// A prepared body text measured again at a new width, per post.
    public var relayoutPrepared = Figure()
    public var renderCell2x = Figure()
    public var rawHarfBuzz = Figure()
    /// Process CPU time: contention shows as more CPU per post with two workers; other
    /// load on the machine does not.
    public var precompute1 = Figure()
    public var precompute2 = Figure()
    /// Freeing the precomputer (and its engine) after a cold precompute, single-threaded.
    public var precomputeTeardown = Figure()
    public var layoutRender1 = Figure()
    public var layoutRender2 = Figure()
    /// Arithmetic only, one job per post: the machine's ceiling for the ratios above.
    public var arithmetic1 = Figure()
    public var arithmetic2 = Figure()
    /// Pointer chasing in an L2-sized table per worker: the ceiling for memory-bound work.
    public var memoryWalk1 = Figure()
    public var memoryWalk2 = Figure()
    /// Per layout of the single post.
    public var mixedPostWarm = Figure()
    public var mixedPostCold = Figure()
    public var checksum = 0.0

    /// Measures a round.
    ///
    /// - Parameters:
    ///   - hitLoops: how many times the height-cache pass over the feed is repeated.
    ///   - mixedRepeats: layouts of the single mixed post with the warm engine (a quarter as
    ///     many with new engines).
    public static func measure(_ fixture: FeedFixture, hitLoops: Int = 20, mixedRepeats: Int = 200) -> FeedRound {
        var round = FeedRound()
        var sink = 0.0
        func measure(units: Int, process: Bool = false, _ body: () -> Double) -> Figure {
            let cpuClock = process ? processCPUTime : threadCPUTime
            let cpu = cpuClock()
            let (value, ns) = timed(body)
            let cpuNs = cpuClock() - cpu
            sink += value
            return Figure(wall: Double(ns) / Double(units), cpu: Double(cpuNs) / Double(units))
        }
        let n = fixture.posts.count
        round.rawHarfBuzz = measure(units: n) { Double(fixture.harfBuzz.shapeAll(fixture.plans) & 0xffff) }
        round.measureCold = measure(units: n) { LayoutWorkloads.measureCold(fixture.posts) }
        round.measureWarmWords = measure(units: n) { LayoutWorkloads.measureWarmWords(fixture.posts, engine: fixture.warmEngine) }
        round.cellLayoutCold = measure(units: n) { LayoutWorkloads.cellLayoutCold(fixture.posts) }
        round.cellLayoutWarmWords = measure(units: n) { LayoutWorkloads.cellLayoutWarmWords(fixture.posts, engine: fixture.warmEngine) }
        round.heightCacheHit = measure(units: n * hitLoops) {
            (0..<hitLoops).reduce(0.0) { t, _ in t + LayoutWorkloads.heightCacheHits(fixture.posts, precomputer: fixture.laidOut) }
        }
        let relayout = Feed.precomputer(fixture.warmEngine)
        sink += LayoutWorkloads.layoutAll(fixture.posts, with: relayout)
        round.relayoutNewWidth = measure(units: n) { LayoutWorkloads.relayoutNarrow(fixture.posts, precomputer: relayout) }
        round.measureWidths4 = measure(units: n) { LayoutWorkloads.measureDeviceWidths(fixture.posts, engine: fixture.warmEngine) }
        round.relayoutPrepared = measure(units: n) { LayoutWorkloads.relayoutPrepared(fixture.preparedBodies, engine: fixture.warmEngine) }
        round.renderCell2x = measure(units: n) { Double(RenderWorkloads.renderAll(fixture.cells, with: fixture.warmRenderer) & 0xffff) }
        /// Times `body` on `pool` with a new precomputer made before timing, then times
        /// freeing it (single-threaded): a service keeps its precomputer, so the teardown is
        /// a cost of its own, not part of precomputing.
        func measureParallel(_ make: () -> FeedPrecomputer, _ pool: RenderQueuePool,
                             _ body: (FeedPrecomputer, RenderQueuePool) -> Double) -> (work: Figure, teardown: Figure) {
            var precomputer: FeedPrecomputer? = make()
            let work = measure(units: n, process: true) { body(precomputer!, pool) }
            let teardown = measure(units: n) { precomputer = nil; return 0 }
            return (work, teardown)
        }
        // Cold caches: a new engine for each.
        let precompute = { (precomputer: FeedPrecomputer, pool: RenderQueuePool) in
            ParallelWorkloads.precompute(fixture.posts, pool: pool, with: precomputer)
        }
        (round.precompute1, round.precomputeTeardown) = measureParallel({ Feed.precomputer(Feed.coldEngine()) },
                                                                         fixture.oneWorker, precompute)
        round.precompute2 = measureParallel({ Feed.precomputer(Feed.coldEngine()) }, fixture.twoWorkers, precompute).work
        // A fresh precomputer over the warm engine for each.
        let layoutAndRender = { (precomputer: FeedPrecomputer, pool: RenderQueuePool) in
            Double(ParallelWorkloads.layoutAndRender(fixture.posts, pool: pool, precomputer: precomputer,
                                                     renderer: fixture.warmRenderer) & 0xffff)
        }
        round.layoutRender1 = measureParallel({ Feed.precomputer(fixture.warmEngine) }, fixture.oneWorker, layoutAndRender).work
        round.layoutRender2 = measureParallel({ Feed.precomputer(fixture.warmEngine) }, fixture.twoWorkers, layoutAndRender).work
        round.arithmetic1 = measure(units: n, process: true) {
            Double(ParallelWorkloads.arithmetic(pool: fixture.oneWorker))
        }
        round.arithmetic2 = measure(units: n, process: true) {
            Double(ParallelWorkloads.arithmetic(pool: fixture.twoWorkers))
        }
        round.memoryWalk1 = measure(units: n, process: true) {
            Double(ParallelWorkloads.memoryWalk(pool: fixture.oneWorker))
        }
        round.memoryWalk2 = measure(units: n, process: true) {
            Double(ParallelWorkloads.memoryWalk(pool: fixture.twoWorkers))
        }
        round.mixedPostWarm = measure(units: mixedRepeats) {
            (0..<mixedRepeats).reduce(0.0) { t, _ in t + LayoutWorkloads.layoutMixedPost(engine: fixture.warmEngine) }
        }
        let coldRepeats = max(1, mixedRepeats / 4)
        round.mixedPostCold = measure(units: coldRepeats) {
            (0..<coldRepeats).reduce(0.0) { t, _ in t + LayoutWorkloads.layoutMixedPost(engine: Feed.coldEngine()) }
        }
        round.checksum = sink
        return round
    }
}

/// The machine's load, to tell a disturbed run (other builds) from a quiet one.
public func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
        .split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
}

/// Time the hypervisor gave this machine's CPUs to others ("steal", from /proc/stat), in
/// seconds summed over all CPUs since boot: the difference over a run tells how much of
/// its wall time the machine was not running it at all.
public func stealSeconds() -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
          let line = stat.split(separator: "\n").first, line.hasPrefix("cpu "),
          let ticks = line.split(separator: " ").dropFirst().compactMap({ Double($0) }).dropFirst(7).first
    else { return 0 }
    return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
}
