// The feed benchmarks for package-benchmark (`swift package benchmark`). Every iteration
// processes the whole 2,000-post feed (SampleFeed, seed 1); the custom metric "ns/post"
// (or "posts/s", "ns/hit") gives the per-post figure, wall clock the per-feed one.
// FeedReport prints the same figures and their ratios from one process (BENCHMARKS.md).
import Benchmark
import FeedWorkloads
import SampleFeed
import TextKitLite
import TextKitLiteFeed

/// Custom metrics (package-benchmark records integers).
enum Metric {
    static let nsPerPost = BenchmarkMetric.custom("ns/post", polarity: .prefersSmaller, useScalingFactor: false)
    static let nsPerHit = BenchmarkMetric.custom("ns/hit", polarity: .prefersSmaller, useScalingFactor: false)
    static let postsPerSecond = BenchmarkMetric.custom("posts/s", polarity: .prefersLarger, useScalingFactor: false)
    static let coldOverRaw = BenchmarkMetric.custom("measureCold/rawHarfBuzz CPU ×100", polarity: .prefersSmaller, useScalingFactor: false)
    static let warmOverRaw = BenchmarkMetric.custom("measureWarmWords/rawHarfBuzz CPU ×100", polarity: .prefersSmaller, useScalingFactor: false)
    static let precomputeSpeedup = BenchmarkMetric.custom("precompute 2w/1w speedup ×100", polarity: .prefersLarger, useScalingFactor: false)
    static let renderSpeedup = BenchmarkMetric.custom("layout+render 2w/1w speedup ×100", polarity: .prefersLarger, useScalingFactor: false)
    static let hitRate = BenchmarkMetric.custom("glyph cache hit rate ×10000", polarity: .prefersLarger, useScalingFactor: false)
    static let all = [nsPerPost, nsPerHit, postsPerSecond, coldOverRaw, warmOverRaw, precomputeSpeedup, renderSpeedup, hitRate]
}

/// Times `body` over the feed and records nanoseconds per post.
@inline(__always)
func perPost(_ benchmark: Benchmark, posts: Int = Feed.count, _ body: () -> Double) {
    let (value, ns) = timed(body)
    blackHole(value)
    benchmark.measurement(Metric.nsPerPost, Int(ns) / posts)
}

/// The relayout benchmark's precomputer, replaced every iteration (package-benchmark runs the
/// iterations of a benchmark one after another, on one thread).
final class Relayout {
    var precomputer: FeedPrecomputer
    init(_ precomputer: FeedPrecomputer) { self.precomputer = precomputer }
}

/// Cells and a renderer whose glyph cache holds their glyphs.
struct RenderState {
    var cells: [CellLayout]
    var renderer: CellRenderer
}

/// A warm engine and a warm renderer.
struct WarmState {
    var engine: TextEngine
    var renderer: CellRenderer
}

/// The raw HarfBuzz shaper and the feed's texts, planned.
struct HarfBuzzState {
    var shaper: RawHarfBuzz
    var plans: [RawHarfBuzz.Plan]
}

let benchmarks: @Sendable () -> Void = {
    let feedMetrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, Metric.nsPerPost]
    Benchmark.defaultConfiguration = .init(
        metrics: feedMetrics, timeUnits: .milliseconds,
        units: Dictionary(uniqueKeysWithValues: Metric.all.map { ($0, BenchmarkUnits.count) }),
        warmupIterations: 1, maxDuration: .seconds(6), maxIterations: 25)

    // 1. Cold: new engine (new shaped-word cache), new height cache, every post measured.
    Benchmark("measureCold") { benchmark in
        perPost(benchmark) { LayoutWorkloads.measureCold() }
    }

    // 2. Warm words: engine reused, precomputer (shaped texts, heights) new.
    Benchmark("measureWarmWords") { benchmark, engine in
        perPost(benchmark) { LayoutWorkloads.measureWarmWords(engine: engine) }
    } setup: {
        LayoutWorkloads.warmEngine()
    }

    // 2c. As 2, every post laid out as a cell layout.
    Benchmark("cellLayoutWarmWords") { benchmark, engine in
        perPost(benchmark) { LayoutWorkloads.cellLayoutWarmWords(engine: engine) }
    } setup: {
        LayoutWorkloads.warmEngine()
    }

    // 3. Height cache hits: every post looked up again (2,000 hits per iteration).
    Benchmark("heightCacheHit", configuration: .init(
        metrics: [.wallClock, .mallocCountTotal, Metric.nsPerHit], timeUnits: .microseconds, maxIterations: 200)) { benchmark, precomputer in
        let (value, ns) = timed { LayoutWorkloads.heightCacheHits(precomputer: precomputer) }
        blackHole(value)
        benchmark.measurement(Metric.nsPerHit, Int(ns) / Feed.count)
    } setup: {
        LayoutWorkloads.laidOutPrecomputer(engine: LayoutWorkloads.warmEngine())
    }

    // 4. Relayout: a fresh precomputer lays the feed out at 375 pt (not measured), then at 320 pt.
    Benchmark("relayoutNewWidth") { benchmark, state in
        state.precomputer = Feed.precomputer(state.precomputer.engine)
        blackHole(LayoutWorkloads.layoutAll(Feed.posts, with: state.precomputer))
        benchmark.startMeasurement()
        perPost(benchmark) { LayoutWorkloads.relayoutNarrow(precomputer: state.precomputer) }
    } setup: {
        Relayout(Feed.precomputer(LayoutWorkloads.warmEngine()))
    }

    // 5. Drawing precomputed cells at 2× with a warm glyph cache.
    Benchmark("renderCell2x") { (benchmark: Benchmark, state: RenderState) in
        perPost(benchmark) { Double(RenderWorkloads.renderAll(state.cells, with: state.renderer) & 0xffff) }
    } setup: {
        let cells = RenderWorkloads.cells(engine: LayoutWorkloads.warmEngine())
        return RenderState(cells: cells, renderer: RenderWorkloads.warmRenderer(cells))
    }

    // 6. The floor: hb_shape on the same texts (see RawHarfBuzz).
    Benchmark("rawHarfBuzz") { (benchmark: Benchmark, harfBuzz: HarfBuzzState) in
        perPost(benchmark) { Double(harfBuzz.shaper.shapeAll(harfBuzz.plans) & 0xffff) }
    } setup: {
        let shaper = RawHarfBuzz()
        return HarfBuzzState(shaper: shaper, plans: Feed.posts.map(shaper.plan))
    }

    // 7. Precompute (cold caches) and layout + render (warm words and glyphs), 1 and 2 workers.
    for workers in [1, 2] {
        let pool = RenderQueuePool(workerCount: workers, label: "bench.pool\(workers)")
        Benchmark("precompute-\(workers)w", configuration: .init(metrics: feedMetrics + [Metric.postsPerSecond])) { benchmark in
            let precomputer = Feed.precomputer(Feed.coldEngine())  // freed after timing
            let (value, ns) = timed { ParallelWorkloads.precompute(pool: pool, with: precomputer) }
            blackHole(value)
            benchmark.measurement(Metric.nsPerPost, Int(ns) / Feed.count)
            benchmark.measurement(Metric.postsPerSecond, Int(Double(Feed.count) * 1e9 / Double(ns)))
        }
        Benchmark("layoutRender2x-\(workers)w", configuration: .init(metrics: feedMetrics + [Metric.postsPerSecond])) { (benchmark: Benchmark, state: WarmState) in
            let precomputer = Feed.precomputer(state.engine)  // freed after timing
            let (value, ns) = timed {
                ParallelWorkloads.layoutAndRender(pool: pool, precomputer: precomputer, renderer: state.renderer)
            }
            blackHole(value)
            benchmark.measurement(Metric.nsPerPost, Int(ns) / Feed.count)
            benchmark.measurement(Metric.postsPerSecond, Int(Double(Feed.count) * 1e9 / Double(ns)))
        } setup: {
            let engine = LayoutWorkloads.warmEngine()
            return WarmState(engine: engine, renderer: RenderWorkloads.warmRenderer(RenderWorkloads.cells(engine: engine)))
        }
    }

    // 8. One 140-character mixed post (Chinese, English, emoji), warm and new engine.
    Benchmark("mixedPost140-warm", configuration: .init(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, maxDuration: .seconds(2), maxIterations: 5_000)) { benchmark, engine in
        blackHole(LayoutWorkloads.layoutMixedPost(engine: engine))
    } setup: {
        LayoutWorkloads.warmEngine()
    }
    Benchmark("mixedPost140-cold", configuration: .init(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, maxDuration: .seconds(2), maxIterations: 1_000)) { benchmark in
        let engine = Feed.coldEngine()
        benchmark.startMeasurement()
        blackHole(LayoutWorkloads.layoutMixedPost(engine: engine))
    }
    Benchmark("glyphCacheHitRate", configuration: .init(
        metrics: [.wallClock, Metric.hitRate], warmupIterations: 0, maxIterations: 3)) { benchmark, cells in
        let figures = RenderWorkloads.glyphCacheAfterFeed(cells)
        benchmark.measurement(Metric.hitRate, Int(figures.hitRate * 10_000))
    } setup: {
        RenderWorkloads.cells(engine: LayoutWorkloads.warmEngine())
    }

    // The goals, each iteration measuring both sides back to back.
    Benchmark("ratios", configuration: .init(
        metrics: [.wallClock, Metric.coldOverRaw, Metric.warmOverRaw, Metric.precomputeSpeedup, Metric.renderSpeedup],
        timeUnits: .milliseconds, warmupIterations: 1, maxDuration: .seconds(30), maxIterations: 7)) { benchmark, fixture in
        let round = FeedRound.measure(fixture, hitLoops: 1, mixedRepeats: 1)
        blackHole(round.checksum)
        // Layout over shaping in thread CPU time (steady on a shared machine); speedups in wall time.
        benchmark.measurement(Metric.coldOverRaw, Int(100 * round.measureCold.cpu / round.rawHarfBuzz.cpu))
        benchmark.measurement(Metric.warmOverRaw, Int(100 * round.measureWarmWords.cpu / round.rawHarfBuzz.cpu))
        benchmark.measurement(Metric.precomputeSpeedup, Int(100 * round.precompute1.wall / round.precompute2.wall))
        benchmark.measurement(Metric.renderSpeedup, Int(100 * round.layoutRender1.wall / round.layoutRender2.wall))
    } setup: {
        FeedFixture()
    }
}
