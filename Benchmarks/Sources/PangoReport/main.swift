// TextKitLite against Pango + cairo on the same posts and fonts, one core each:
//   Benchmarks/pango.sh [--rounds N]     (or .build/release/PangoReport --textrender PATH)
// Each round runs every workload once over the feed, alternating the two libraries, so both
// sides of a ratio saw the same machine; figures are medians (and minimums) over rounds.
import Foundation
import FeedWorkloads
import PangoPeer
import SampleFeed
import TextKitLite
import TextKitLiteFeed

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}

func say(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

let rounds = option("--rounds").flatMap(Int.init) ?? 7
let textrender = option("--textrender")
/// An older `textrender`, run beside the current one in every round (`--baseline PATH`).
let baseline = option("--baseline")
let posts = Feed.posts
let bodies = posts.map { Array($0.text.utf8) }
let style = FeedCellStyle()
let bodyWidth = Feed.width - style.padding.left - style.padding.right

/// A Pango + cairo peer over the bundled font files only, set up as the cell's body is.
func peer(maxLines: Int) -> OpaquePointer {
    let paths = Feed.fontPaths
    var error = [CChar](repeating: 0, count: 512)
    let made = withArrayOfCStrings(paths) { files in
        pango_peer_create(files, Int32(paths.count), "DejaVu Sans, Noto Sans CJK SC, Noto Color Emoji", style.bodySize, bodyWidth,
                          style.lineSpacing, Int32(maxLines), &error, Int32(error.count))
    }
    guard let made else { fatalError(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
    return made
}

func withArrayOfCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

let cellPeer = peer(maxLines: style.bodyMaxLines)
let allLinesPeer = peer(maxLines: 0)

func pangoLayout(_ peer: OpaquePointer) -> Int {
    var total = 0
    for body in bodies { total &+= Int(body.withUnsafeBufferPointer { pango_peer_layout(peer, $0.baseAddress, Int32($0.count), nil) }) }
    return total
}

func pangoDraw(_ peer: OpaquePointer, argb: Bool = false) -> Int {
    var total = 0
    for body in bodies { total &+= Int(body.withUnsafeBufferPointer { pango_peer_draw(peer, $0.baseAddress, Int32($0.count), argb ? 1 : 0) }) }
    return total
}

/// Draws layouts made ahead, as a client draws bodies laid out in the background.
func pangoDrawPrepared(_ layouts: [UnsafeMutableRawPointer?], argb: Bool) -> Int {
    var total = 0
    for layout in layouts { total &+= Int(pango_peer_draw_layout(layout, argb ? 1 : 0)) }
    return total
}

// Setup, not timed: a warm word cache and glyph cache for TextKitLite, a warm font map
// and glyph cache for Pango + cairo.
let engine = LayoutWorkloads.warmEngine(posts)
let cells = OneScaleWorkloads.cells(posts, engine: engine)
let renderer = CellRenderer(textRenderer: TextRenderer(glyphCache: GlyphCache()))
_ = OneScaleWorkloads.draw(cells, renderer: renderer)
_ = OneScaleWorkloads.draw(cells, renderer: renderer, format: .rgba8)
let plainBodies = OneScaleWorkloads.bodies(posts)
_ = OneScaleWorkloads.layoutAndDrawBodies(plainBodies, engine: engine, renderer: renderer.textRenderer)
_ = pangoDraw(cellPeer)
_ = pangoDraw(cellPeer, argb: true)
_ = pangoLayout(allLinesPeer)
let preparedLayouts = bodies.map { body in body.withUnsafeBufferPointer { pango_peer_prepare(cellPeer, $0.baseAddress, Int32($0.count)) } }
let bodyLayouts = OneScaleWorkloads.layouts(plainBodies, engine: engine)
_ = pangoDrawPrepared(preparedLayouts, argb: true)
_ = OneScaleWorkloads.drawBodies(bodyLayouts, renderer: renderer.textRenderer, format: .rgba8)

/// One pass, in a function of its own so that callgrind can count only what it runs.
@inline(never)
func profileWork(_ work: () -> Int) -> Int { work() }

let workloads: [(name: String, run: () -> Int)] = [
    ("pangoLayout", { pangoLayout(cellPeer) }),
    ("measureWarmWords", { Int(LayoutWorkloads.measureWarmWords(posts, engine: engine)) }),
    ("pangoCairoDraw", { pangoDraw(cellPeer) }),
    ("layoutDraw1x", { OneScaleWorkloads.layoutAndDraw(posts, engine: engine, renderer: renderer) }),
    ("draw1x", { OneScaleWorkloads.draw(cells, renderer: renderer) }),
    ("measureCold", { Int(LayoutWorkloads.measureCold(posts)) }),
    ("pangoLayoutAllLines", { pangoLayout(allLinesPeer) }),
    ("measureBody", { OneScaleWorkloads.measureBodies(plainBodies, engine: engine) }),
    ("layoutDrawBody1x", { OneScaleWorkloads.layoutAndDrawBodies(plainBodies, engine: engine, renderer: renderer.textRenderer) }),
    ("pangoCairoDrawARGB", { pangoDraw(cellPeer, argb: true) }),
    ("layoutDraw1xRGBA", { OneScaleWorkloads.layoutAndDraw(posts, engine: engine, renderer: renderer, format: .rgba8) }),
    ("draw1xRGBA", { OneScaleWorkloads.draw(cells, renderer: renderer, format: .rgba8) }),
    ("pangoCairoDrawPreparedARGB", { pangoDrawPrepared(preparedLayouts, argb: true) }),
    ("drawBody1xRGBA", { OneScaleWorkloads.drawBodies(bodyLayouts, renderer: renderer.textRenderer, format: .rgba8) }),
    ("layoutDrawBody1xRGBA", {
        OneScaleWorkloads.layoutAndDrawBodies(plainBodies, engine: engine, renderer: renderer.textRenderer, format: .rgba8)
    }),
]

// `--profile NAME [--passes N]`: N passes (default 20) of one workload, for perf or callgrind
// (--toggle-collect='*profileWork*').
if let name = option("--profile") {
    guard let work = workloads.first(where: { $0.name == name })?.run else { fatalError("unknown workload \(name)") }
    let passes = option("--passes").flatMap(Int.init) ?? 20
    var sink = 0
    let start = now()
    for _ in 0..<passes { sink &+= profileWork(work) }
    say(String(format: "%@: %d passes, %.2f µs per post (%d)", name, passes, Double(now() - start) / 1e3 / Double(passes * posts.count), sink & 7))
    exit(0)
}

// The same posts as one JSON Lines file, for whole `textrender feed` processes
// (`--write-feed PATH` writes it and stops, for profiling such a process).
let feedPath = option("--write-feed") ?? "/dev/shm/pango-report-\(getpid()).jsonl", outPath = "/dev/shm/pango-report-\(getpid())"
if textrender != nil || option("--write-feed") != nil {
    _ = FileManager.default.createFile(atPath: feedPath, contents: Data(posts.map { SampleFeed.jsonLine($0) + "\n" }.joined().utf8))
}
if option("--write-feed") != nil { exit(0) }
defer { try? FileManager.default.removeItem(atPath: feedPath); try? FileManager.default.removeItem(atPath: outPath) }

/// A whole `textrender feed --scale 1 --jobs 1` process over the feed, with `arguments`
/// besides: wall and CPU time.
func process(_ path: String, _ arguments: [String]) -> (wall: Double, cpu: Double) {
    try? FileManager.default.removeItem(atPath: outPath)
    let task = Process()
    task.executableURL = URL(fileURLWithPath: path)
    task.arguments = ["feed", feedPath, "--scale", "1", "--jobs", "1", "--out", outPath] + arguments
    task.standardError = FileHandle.nullDevice
    var before = rusage(), after = rusage()
    getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &before)
    let start = now()
    do { try task.run() } catch { fatalError("\(path): \(error)") }
    task.waitUntilExit()
    let wall = Double(now() - start)
    getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &after)
    guard task.terminationStatus == 0 else { fatalError("\(path) exited with \(task.terminationStatus)") }
    func ns(_ t: timeval) -> Double { Double(t.tv_sec) * 1e9 + Double(t.tv_usec) * 1e3 }
    let cpu = ns(after.ru_utime) + ns(after.ru_stime) - ns(before.ru_utime) - ns(before.ru_stime)
    return (wall, cpu)
}

/// Every round's wall and CPU nanoseconds per post, by workload, and a checksum.
func measureRounds(_ workloads: [(name: String, run: () -> Int)]) -> (wall: [String: [Double]], cpu: [String: [Double]], sink: Int) {
var wall: [String: [Double]] = [:], cpu: [String: [Double]] = [:]
var sink = 0
for round in 1...rounds {
    for (name, run) in workloads {
        let cpuStart = threadCPUTime(), start = now()
        sink &+= run()
        wall[name, default: []].append(Double(now() - start) / Double(posts.count))
        cpu[name, default: []].append(Double(threadCPUTime() - cpuStart) / Double(posts.count))
    }
    // Gray PGM cells (`--gray`: the output of the gray-only versions, which a baseline
    // older than colors writes by default), color PPM cells (uncompressed, as PGM is) and
    // color PNG cells (the default).
    let runs: [(key: String, path: String?, arguments: [String])] = [
        ("process", textrender, ["--gray"]), ("processColor", textrender, ["--format", "ppm"]),
        ("processPNG", textrender, []), ("baselineProcess", baseline, []),
    ]
    for (key, path, arguments) in runs {
        guard let path else { continue }
        let figure = process(path, arguments)
        wall[key, default: []].append(figure.wall / Double(posts.count))
        cpu[key, default: []].append(figure.cpu / Double(posts.count))
    }
    say(String(format: "round %d: Pango layout %.1f µs, Pango + cairo %.1f, measure %.1f, layout + draw %.1f, draw %.1f, process %.1f",
               round, wall["pangoLayout"]!.last! / 1e3, wall["pangoCairoDraw"]!.last! / 1e3, wall["measureWarmWords"]!.last! / 1e3,
               wall["layoutDraw1x"]!.last! / 1e3, wall["draw1x"]!.last! / 1e3, (wall["process"]?.last ?? 0) / 1e3))
}
return (wall, cpu, sink)
}
let (wall, cpu, sink) = measureRounds(workloads)

func f(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }

func row(_ name: String, _ key: String) -> String {
    guard let w = wall[key], let c = cpu[key] else { return "| \(name) | — | — | — |" }
    let ws = Summary(w), cs = Summary(c)
    return "| \(name) | \(f(ws.median / 1e3)) | \(f(cs.median / 1e3)) | \(f(ws.min / 1e3))–\(f(ws.max / 1e3)) |"
}

/// A bound: `costly` / `plain` per round (CPU time) at most `limit`, the median and the range.
func ratioAtMost(_ name: String, costly: String, plain: String, limit: Double) -> String {
    guard let c = cpu[costly], let p = cpu[plain] else { return "| \(name) | — | — | ≤ \(f(limit))× | — |" }
    let s = Summary(zip(c, p).map { $0 / $1 })
    return "| \(name) | \(f(s.median, 2))× | \(f(s.min, 2))–\(f(s.max, 2)) | ≤ \(f(limit))× | \(s.median <= limit ? "met" : "**missed**") |"
}

/// A goal: `peer` / `ours` per round (CPU time), the median and the range.
func ratio(_ name: String, peer: String, ours: String, goal: Double) -> String {
    guard let p = cpu[peer], let o = cpu[ours] else { return "| \(name) | — | — | ≥ \(f(goal, 0))× | — |" }
    let s = Summary(zip(p, o).map { $0 / $1 })
    return "| \(name) | \(f(s.median, 2))× | \(f(s.min, 2))–\(f(s.max, 2)) | ≥ \(f(goal, 0))× | \(s.median >= goal ? "met" : "**missed**") |"
}

// Sanity: Pango uses the bundled files only and wraps where TextKitLite does.
var files: [String: Int] = [:]
var buffer = [CChar](repeating: 0, count: 4096)
for body in bodies {
    _ = body.withUnsafeBufferPointer { pango_peer_font_files(cellPeer, $0.baseAddress, Int32($0.count), &buffer, Int32(buffer.count)) }
    for file in String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: "\n") { files[(String(file) as NSString).lastPathComponent, default: 0] += 1 }
}
var allStyle = style
allStyle.bodyMaxLines = 0
let allLines = FeedPrecomputer(engine: engine, style: allStyle, heightCache: HeightCache())
var same = 0, withinOne = 0, sameAll = 0, withinOneAll = 0, withBody = 0
for (index, post) in posts.enumerated() where !post.text.isEmpty {
    withBody += 1
    var pangoLines: Int32 = 0, pangoAll: Int32 = 0
    _ = bodies[index].withUnsafeBufferPointer { pango_peer_layout(cellPeer, $0.baseAddress, Int32($0.count), &pangoLines) }
    _ = bodies[index].withUnsafeBufferPointer { pango_peer_layout(allLinesPeer, $0.baseAddress, Int32($0.count), &pangoAll) }
    let ours = cells[index].element("body")?.text?.lineCount ?? 0
    let oursAll = (try? allLines.layout(post, width: Feed.width, scale: 1).element("body")?.text?.lineCount) ?? 0
    if ours == Int(pangoLines) { same += 1 }
    if abs(ours - Int(pangoLines)) <= 1 { withinOne += 1 }
    if oursAll == Int(pangoAll) { sameAll += 1 }
    if abs(oursAll - Int(pangoAll)) <= 1 { withinOneAll += 1 }
}
let bodyCount = withBody
func share(_ n: Int) -> String { f(100 * Double(n) / Double(max(1, bodyCount))) + " %" }

let figures = [
    row("Pango layout of the body (6 lines, ellipsized), µs", "pangoLayout"),
    row("Pango layout of the body, every line, µs", "pangoLayoutAllLines"),
    row("Pango + cairo: layout and A8 drawing of the body, µs", "pangoCairoDraw"),
    row("TextKitLite measure of the body alone (`TextEngine.measure`, words cached), µs", "measureBody"),
    row("TextKitLite measure of the cell (`FeedPrecomputer.measure`, words cached), µs", "measureWarmWords"),
    row("TextKitLite measure, new engine (cold word cache), µs", "measureCold"),
    row("TextKitLite layout + drawing of the body alone at 1×, µs", "layoutDrawBody1x"),
    row("TextKitLite cell layout + drawing at 1×, µs", "layoutDraw1x"),
    row("TextKitLite drawing alone (precomputed cells, 1×), µs", "draw1x"),
    row("Pango + cairo: layout and ARGB32 drawing of the body (dark text on white), µs", "pangoCairoDrawARGB"),
    row("TextKitLite layout + RGBA drawing of the body alone at 1×, µs", "layoutDrawBody1xRGBA"),
    row("TextKitLite cell layout + RGBA drawing at 1× (light theme), µs", "layoutDraw1xRGBA"),
    row("TextKitLite RGBA drawing alone (precomputed cells, 1×), µs", "draw1xRGBA"),
    row("Pango + cairo: ARGB32 drawing alone of the body laid out ahead, µs", "pangoCairoDrawPreparedARGB"),
    row("TextKitLite RGBA drawing alone of the body laid out ahead, µs", "drawBody1xRGBA"),
    row("whole `textrender feed --scale 1 --jobs 1 --gray` process (PGM files on tmpfs), µs", "process"),
    row("the same in color, `--format ppm` (PPM files), µs", "processColor"),
    row("the same in color, the default PNG files, µs", "processPNG"),
] + (baseline == nil ? [] : [row("the same, the `--baseline` build, µs", "baselineProcess")])
let goals = [
    ratio("Pango + cairo / TextKitLite layout + drawing, the body", peer: "pangoCairoDraw", ours: "layoutDrawBody1x", goal: 3),
    ratio("Pango + cairo / TextKitLite layout + drawing, the whole cell", peer: "pangoCairoDraw", ours: "layoutDraw1x", goal: 3),
    ratio("Pango + cairo / whole textrender feed process", peer: "pangoCairoDraw", ours: "process", goal: 3),
    ratio("Pango + cairo ARGB32 / TextKitLite RGBA layout + drawing, the body", peer: "pangoCairoDrawARGB", ours: "layoutDrawBody1xRGBA", goal: 3),
    ratio("Pango + cairo ARGB32 / TextKitLite RGBA layout + drawing, the whole cell", peer: "pangoCairoDrawARGB", ours: "layoutDraw1xRGBA", goal: 3),
    ratio("Pango + cairo ARGB32 / TextKitLite RGBA drawing alone, the body", peer: "pangoCairoDrawPreparedARGB", ours: "drawBody1xRGBA", goal: 3),
    ratio("Pango + cairo ARGB32 drawing alone of the body / TextKitLite RGBA drawing alone of the whole cell",
          peer: "pangoCairoDrawPreparedARGB", ours: "draw1xRGBA", goal: 3),
    ratioAtMost("RGBA / gray drawing alone, precomputed cells", costly: "draw1xRGBA", plain: "draw1x", limit: 1.6),
    ratioAtMost("RGBA / gray layout + drawing, the whole cell", costly: "layoutDraw1xRGBA", plain: "layoutDraw1x", limit: 1.6),
    ratioAtMost("color PPM / gray PGM, whole textrender feed processes", costly: "processColor", plain: "process", limit: 1.6),
    ratio("Pango layout / TextKitLite measure, the body", peer: "pangoLayout", ours: "measureBody", goal: 10),
    ratio("Pango layout / TextKitLite measure, the whole cell", peer: "pangoLayout", ours: "measureWarmWords", goal: 10),
    ratio("Pango layout / TextKitLite measure, cold word cache", peer: "pangoLayout", ours: "measureCold", goal: 10),
] + (baseline == nil ? [] : [ratio("`--baseline` / this textrender process (speedup)", peer: "baselineProcess", ours: "process", goal: 1)])

print("""
| Per post (\(posts.count) posts, \(rounds) rounds, one core) | Wall (median) | CPU (median) | Wall range |
|---|---:|---:|---:|
\(figures.joined(separator: "\n"))

| Goal (CPU time, median of per-round ratios) | Value | Range | Goal | |
|---|---:|---:|---|---|
\(goals.joined(separator: "\n"))

Pango's fonts over the feed's bodies (posts using each file): \(files.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")).
Body line counts, TextKitLite against Pango (\(withBody) bodies): 6 lines: \(share(same)) equal, \(share(withinOne)) within one; \
every line: \(share(sameAll)) equal, \(share(withinOneAll)) within one. Checksum \(sink & 0xff).
""")
