// Every figure and ratio of BENCHMARKS.md from one process:
//   swift run -c release FeedReport [--rounds N] [--trials N]
// Each per-post figure is the median over N rounds; each round measures every workload
// back to back over the whole 2,000-post feed, and the ratios are the medians of the
// per-round ratios (so both sides of a ratio saw the same machine conditions).
import Foundation
import FeedWorkloads
import TextKitLite

func option(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count, let n = Int(arguments[i + 1]), n > 0 else {
        return value
    }
    return n
}

let rounds = option("--rounds", default: 7)
let profileSeconds = option("--seconds", default: 10)
let trials = option("--trials", default: 300)

func say(_ text: String) { FileHandle.standardError.write((text + "\n").data(using: .utf8)!) }

let loadBefore = loadAverage()
let stealBefore = stealSeconds()
let wallBefore = now()
say("load average before: \(loadBefore)")
let setupStart = now()
let fixture = FeedFixture()
say(String(format: "setup (warm engine, cells, glyph cache, HarfBuzz plans): %.1f s", Double(now() - setupStart) / 1e9))

/// One pass of a profiled workload, in a function of its own so that callgrind can count
/// only what it runs.
@inline(never)
func profileWork(_ work: () -> Double) -> Double { work() }

// `--profile NAME`: repeat one workload for `--seconds` (default 10), for perf or callgrind.
if let i = CommandLine.arguments.firstIndex(of: "--profile"), i + 1 < CommandLine.arguments.count {
    let name = CommandLine.arguments[i + 1]
    let work: () -> Double
    switch name {
    case "measureCold": work = { LayoutWorkloads.measureCold(fixture.posts) }
    case "measureWarmWords": work = { LayoutWorkloads.measureWarmWords(fixture.posts, engine: fixture.warmEngine) }
    case "cellLayoutCold": work = { LayoutWorkloads.cellLayoutCold(fixture.posts) }
    case "cellLayoutWarmWords": work = { LayoutWorkloads.cellLayoutWarmWords(fixture.posts, engine: fixture.warmEngine) }
    case "measureWidths4": work = { LayoutWorkloads.measureDeviceWidths(fixture.posts, engine: fixture.warmEngine) }
    case "relayoutPrepared": work = { LayoutWorkloads.relayoutPrepared(fixture.preparedBodies, engine: fixture.warmEngine) }
    case "heightCacheHit": work = { LayoutWorkloads.heightCacheHits(fixture.posts, precomputer: fixture.laidOut) }
    case "renderCell2x": work = { Double(RenderWorkloads.renderAll(fixture.cells, with: fixture.warmRenderer)) }
    case "rawHarfBuzz": work = { Double(fixture.harfBuzz.shapeAll(fixture.plans)) }
    case "mixedPost": work = { LayoutWorkloads.layoutMixedPost(engine: fixture.warmEngine) }
    case "precompute1": work = { ParallelWorkloads.precomputeCold(fixture.posts, pool: fixture.oneWorker) }
    case "precompute2": work = { ParallelWorkloads.precomputeCold(fixture.posts, pool: fixture.twoWorkers) }
    case "arithmetic1": work = { Double(ParallelWorkloads.arithmetic(pool: fixture.oneWorker)) }
    case "arithmetic2": work = { Double(ParallelWorkloads.arithmetic(pool: fixture.twoWorkers)) }
    case "memoryWalk1": work = { Double(ParallelWorkloads.memoryWalk(pool: fixture.oneWorker)) }
    case "memoryWalk2": work = { Double(ParallelWorkloads.memoryWalk(pool: fixture.twoWorkers)) }
    case "layoutRender1", "layoutRender2":
        let pool = name == "layoutRender1" ? fixture.oneWorker : fixture.twoWorkers
        work = {
            Double(ParallelWorkloads.layoutAndRender(fixture.posts, pool: pool, precomputer: Feed.precomputer(fixture.warmEngine),
                                                     renderer: fixture.warmRenderer))
        }
    default:
        say("unknown workload \(name)")
        exit(2)
    }
    // `--passes N` runs exactly N passes instead (for instruction counts: valgrind
    // --tool=callgrind --toggle-collect='*FeedReport*profileWork*'). `--cold` writes twice
    // the last-level cache (at least 64 MB) before each pass (not timed), so that the pass
    // finds its data in memory, not in the caches, as a workload does in a round after the
    // others.
    let fixedPasses = option("--passes", default: 0)
    let evictedBytes = max(64 << 20, 2 * sysconf(Int32(_SC_LEVEL3_CACHE_SIZE)))
    var evictor: [UInt8] = CommandLine.arguments.contains("--cold") ? Array(repeating: 1, count: evictedBytes) : []
    let end = now() + UInt64(profileSeconds) * 1_000_000_000
    var passes = 0, sink = 0.0, timed: UInt64 = 0
    while fixedPasses > 0 ? passes < fixedPasses : now() < end {
        for i in stride(from: 0, to: evictor.count, by: 64) { evictor[i] &+= 1 }
        let start = now()
        sink += profileWork(work)
        timed += now() - start
        passes += 1
    }
    say(String(format: "%@: %d passes, %.1f µs per pass%@ (%.0f)", name, passes, Double(timed) / 1e3 / Double(passes),
               evictor.isEmpty ? "" : ", caches cold", sink.truncatingRemainder(dividingBy: 10)))
    exit(0)
}

var rounds_: [FeedRound] = []
for r in 1...rounds {
    let round = FeedRound.measure(fixture)
    rounds_.append(round)
    say(String(format: "round %d: cold %.1f µs (CPU %.1f), warm %.1f (%.1f), raw HB %.1f (%.1f), render %.1f (%.1f), precompute 1w %.1f / 2w %.1f, memory walk 1w %.1f / 2w %.1f, load %@",
               r, round.measureCold.wall / 1e3, round.measureCold.cpu / 1e3, round.measureWarmWords.wall / 1e3,
               round.measureWarmWords.cpu / 1e3, round.rawHarfBuzz.wall / 1e3, round.rawHarfBuzz.cpu / 1e3,
               round.renderCell2x.wall / 1e3, round.renderCell2x.cpu / 1e3,
               round.precompute1.wall / 1e3, round.precompute2.wall / 1e3,
               round.memoryWalk1.wall / 1e3, round.memoryWalk2.wall / 1e3, loadAverage()))
}
let results = rounds_

let glyphs = RenderWorkloads.glyphCacheAfterFeed(fixture.cells)
let shapeStats = fixture.warmEngine.shapeCache.statistics
let usage = fixture.harfBuzz.fontUsage(fixture.plans)

say("cancellation: \(trials) trials")
let cancelBench = CancelLatencyBench(engine: fixture.warmEngine)
let cancel = cancelBench.figures(trials: trials)
let loadAfter = loadAverage()
let stolen = stealSeconds() - stealBefore
let runSeconds = Double(now() - wallBefore) / 1e9
let cpus = ProcessInfo.processInfo.activeProcessorCount
say("load average after: \(loadAfter)")

func wall(_ key: (FeedRound) -> Figure) -> Summary { Summary(results.map { key($0).wall }) }
func cpu(_ key: (FeedRound) -> Figure) -> Summary { Summary(results.map { key($0).cpu }) }
func f(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }

/// A row in µs (or ns with `scale` 1): wall median, CPU median, wall range.
func row(_ id: String, _ name: String, _ key: (FeedRound) -> Figure, unit: String, scale: Double = 1e3, digits: Int = 1) -> String {
    let w = wall(key), c = cpu(key)
    return "| \(id) | \(name) | \(f(w.median / scale, digits)) | \(f(c.median / scale, digits)) | \(f(w.min / scale, digits))–\(f(w.max / scale, digits)) | \(unit) |"
}

func ratio(_ name: String, _ values: [Double], goal: String, met: (Double) -> Bool) -> String {
    let s = Summary(values)
    return "| \(name) | \(f(s.median, 2))× | \(f(s.min, 2))–\(f(s.max, 2)) | \(goal) | \(met(s.median) ? "met" : "**missed**") |"
}

func throughput(_ id: String, _ name: String, _ key: (FeedRound) -> Figure) -> String {
    let w = wall(key), c = cpu(key)
    return "| \(id) | \(name) | \(f(1e9 / w.median, 0)) posts/s | \(f(c.median / 1e3)) µs/post | \(f(1e9 / w.max, 0))–\(f(1e9 / w.min, 0)) posts/s | wall µs/post \(f(w.median / 1e3)) |"
}

print("""
| # | Benchmark | Wall (median) | CPU (median) | Wall range, \(rounds) rounds | Unit |
|---|---|---:|---:|---:|---|
\(row("1", "measureCold: new engine and caches, 375 pt", \.measureCold, unit: "µs/post"))
\(row("2", "measureWarmWords: word cache warm, height cache fresh", \.measureWarmWords, unit: "µs/post"))
\(row("1c", "cellLayoutCold: as 1, cell layouts (glyph runs built)", \.cellLayoutCold, unit: "µs/post"))
\(row("2c", "cellLayoutWarmWords: as 2, cell layouts", \.cellLayoutWarmWords, unit: "µs/post"))
\(row("3", "heightCacheHit: post already laid out", \.heightCacheHit, unit: "ns/hit", scale: 1, digits: 0))
\(row("4", "relayoutNewWidth: 375 → 320 pt, shaping reused", \.relayoutNewWidth, unit: "µs/post"))
\(row("4w", "measureWidths4: as 2, at 320, 375, 414 and 768 pt at once", \.measureWidths4, unit: "µs/post"))
\(row("4p", "relayoutPrepared: a shaped body measured at 320 pt", \.relayoutPrepared, unit: "µs/post"))
\(row("5", "renderCell2x: precomputed cell, warm glyph cache", \.renderCell2x, unit: "µs/post"))
\(row("6", "rawHarfBuzz: hb_shape on the same texts", \.rawHarfBuzz, unit: "µs/post"))
\(row("7t", "freeing a precomputer after a cold precompute (7a)", \.precomputeTeardown, unit: "µs/post"))
\(row("8a", "one 140-character mixed post, warm word cache", \.mixedPostWarm, unit: "µs"))
\(row("8b", "one 140-character mixed post, new engine", \.mixedPostCold, unit: "µs"))

| # | Parallel (process CPU) | Throughput (median) | CPU per post | Throughput range | |
|---|---|---:|---:|---:|---|
\(throughput("7a", "precompute, 1 worker, cold caches", \.precompute1))
\(throughput("7b", "precompute, 2 workers, cold caches", \.precompute2))
\(throughput("7c", "layout + render 2×, 1 worker", \.layoutRender1))
\(throughput("7d", "layout + render 2×, 2 workers", \.layoutRender2))
\(throughput("7e", "arithmetic only (machine ceiling), 1 worker", \.arithmetic1))
\(throughput("7f", "arithmetic only (machine ceiling), 2 workers", \.arithmetic2))
\(throughput("7g", "memory walk (memory-bound ceiling), 1 worker", \.memoryWalk1))
\(throughput("7h", "memory walk (memory-bound ceiling), 2 workers", \.memoryWalk2))

| Ratio (median of the per-round ratios) | Value | Range | Goal | |
|---|---:|---:|---|---|
\(ratio("measureCold / rawHarfBuzz, CPU time", results.map { $0.measureCold.cpu / $0.rawHarfBuzz.cpu }, goal: "≤ 1.5×") { $0 <= 1.5 })
\(ratio("measureCold / rawHarfBuzz, wall time", results.map { $0.measureCold.wall / $0.rawHarfBuzz.wall }, goal: "≤ 1.5×") { $0 <= 1.5 })
\(ratio("measureWarmWords / rawHarfBuzz, CPU time", results.map { $0.measureWarmWords.cpu / $0.rawHarfBuzz.cpu }, goal: "< 1×") { $0 < 1 })
\(ratio("measureWarmWords / rawHarfBuzz, wall time", results.map { $0.measureWarmWords.wall / $0.rawHarfBuzz.wall }, goal: "< 1×") { $0 < 1 })
\(ratio("measureWidths4 / measureWarmWords (four widths / one), CPU time", results.map { $0.measureWidths4.cpu / $0.measureWarmWords.cpu }, goal: "≤ 1.3×") { $0 <= 1.3 })
\(ratio("measureCold / cellLayoutCold (measuring vs laying out cells), CPU time", results.map { $0.measureCold.cpu / $0.cellLayoutCold.cpu }, goal: "< 1×") { $0 < 1 })
\(ratio("measureWarmWords / cellLayoutWarmWords, CPU time", results.map { $0.measureWarmWords.cpu / $0.cellLayoutWarmWords.cpu }, goal: "< 1×") { $0 < 1 })
\(ratio("cellLayoutCold / rawHarfBuzz, CPU time (no goal: for comparison)", results.map { $0.cellLayoutCold.cpu / $0.rawHarfBuzz.cpu }, goal: "—") { _ in true })
\(ratio("cellLayoutWarmWords / rawHarfBuzz, CPU time (no goal: for comparison)", results.map { $0.cellLayoutWarmWords.cpu / $0.rawHarfBuzz.cpu }, goal: "—") { _ in true })
\(ratio("precompute speedup, 2 workers / 1 (wall)", results.map { $0.precompute1.wall / $0.precompute2.wall }, goal: "≥ 1.8×") { $0 >= 1.8 })
\(ratio("layout + render speedup, 2 workers / 1 (wall)", results.map { $0.layoutRender1.wall / $0.layoutRender2.wall }, goal: "≥ 1.8×") { $0 >= 1.8 })
\(ratio("machine ceiling: arithmetic speedup, 2 workers / 1 (wall)", results.map { $0.arithmetic1.wall / $0.arithmetic2.wall }, goal: "≈ 2×") { $0 >= 1.9 })
\(ratio("memory-bound ceiling: memory walk speedup, 2 workers / 1 (wall)", results.map { $0.memoryWalk1.wall / $0.memoryWalk2.wall }, goal: "≈ 2×") { $0 >= 1.9 })
\(ratio("precompute speedup as a share of the machine ceiling", results.map { ($0.precompute1.wall / $0.precompute2.wall) / ($0.arithmetic1.wall / $0.arithmetic2.wall) }, goal: "≈ 1") { $0 >= 0.9 })
\(ratio("layout + render speedup as a share of the machine ceiling", results.map { ($0.layoutRender1.wall / $0.layoutRender2.wall) / ($0.arithmetic1.wall / $0.arithmetic2.wall) }, goal: "≈ 1") { $0 >= 0.9 })
\(ratio("precompute CPU per post, 2 workers / 1", results.map { $0.precompute2.cpu / $0.precompute1.cpu }, goal: "≈ 1×") { $0 < 1.1 })
\(ratio("layout + render CPU per post, 2 workers / 1", results.map { $0.layoutRender2.cpu / $0.layoutRender1.cpu }, goal: "≈ 1×") { $0 < 1.1 })
\(ratio("cores busy during precompute, 2 workers (CPU / wall)", results.map { $0.precompute2.cpu / $0.precompute2.wall }, goal: "≈ 2") { $0 >= 1.8 })
\(ratio("cores busy during layout + render, 2 workers (CPU / wall)", results.map { $0.layoutRender2.cpu / $0.layoutRender2.wall }, goal: "≈ 2") { $0 >= 1.8 })

Glyph cache after drawing the feed once at 2× with a new cache: hit rate \(f(glyphs.hitRate * 100, 2)) % \
(\(glyphs.lookups) lookups, \(glyphs.rasterizations) glyphs rasterized).

Cancellation (\(cancel.trials) trials, \(cancelBench.lineCount)-line layout, \(f(cancel.microsecondsPerLine)) µs per line at 2×, \
renders that finished anyway: \(cancel.finishedAnyway)):

| Cancellation | Median | p90 | p99 | Worst |
|---|---:|---:|---:|---:|
| cancel() call → render stopped (display closure returned), µs | \(f(cancel.cancelToStopMicroseconds.median)) | \(f(cancel.cancelToStopMicroseconds.percentile(90))) | \(f(cancel.cancelToStopMicroseconds.percentile(99))) | \(f(cancel.cancelToStopMicroseconds.max)) |
| cancel() call → didDisplay(finished: false), µs | \(f(cancel.cancelToReportMicroseconds.median)) | \(f(cancel.cancelToReportMicroseconds.percentile(90))) | \(f(cancel.cancelToReportMicroseconds.percentile(99))) | \(f(cancel.cancelToReportMicroseconds.max)) |
| cancel() call itself, µs | \(f(cancel.cancelCallMicroseconds.median)) | \(f(cancel.cancelCallMicroseconds.percentile(90))) | \(f(cancel.cancelCallMicroseconds.percentile(99))) | \(f(cancel.cancelCallMicroseconds.max)) |
| lines drawn after cancel() returned | \(f(cancel.linesAfterCancel.median, 0)) | \(f(cancel.linesAfterCancel.percentile(90), 0)) | \(f(cancel.linesAfterCancel.percentile(99), 0)) | \(f(cancel.linesAfterCancel.max, 0)) |

Word cache after the feed: \(shapeStats.count) words from \(fixture.warmEngine.shapeCache.shapingCount) HarfBuzz calls. \
Raw HarfBuzz font choice, texts per font in chain order: \(usage.map(String.init).joined(separator: " / ")). \
Checksum \(Int(results.reduce(0) { $0 + $1.checksum }) & 0xff).
Run \(ISO8601DateFormatter().string(from: Date())), load average (1, 5, 15 min) before \(loadBefore), after \(loadAfter); \
CPU time stolen by the hypervisor during the run: \(f(stolen)) s of \(f(runSeconds)) s × \(cpus) CPUs (\(f(100 * stolen / (Double(cpus) * runSeconds))) %).
""")
