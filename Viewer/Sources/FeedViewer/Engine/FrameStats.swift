import Foundation

/// Figures of a run, per frame and in total: what `feedview --bench` prints.
public struct FrameStats: Sendable {
    /// Frames presented.
    public var frames = 0
    /// Frames presented after their tick's deadline (1/60 s after the tick they started at).
    public var droppedFrames = 0
    /// Frames in which some visible cell showed its placeholder.
    public var placeholderFrames = 0
    /// Each frame's time from its start to the end of its present, in milliseconds.
    public var frameTimes: [Double] = []
    /// Each frame's main-thread work (events, ranges, commits, drawing), without the
    /// present, in milliseconds.
    public var mainThreadTimes: [Double] = []
    /// Each frame's present (the window system's copy), in milliseconds.
    public var presentTimes: [Double] = []
    /// Each frame's commits (bitmaps made textures), in milliseconds.
    public var commitTimes: [Double] = []
    /// The parts of each frame's main-thread work besides commits, in milliseconds: input
    /// events and the scroll; deliveries from the workers and the ranges' update (layouts
    /// asked for, renders started and cancelled, textures released); drawing the window's
    /// contents (textures and placeholders copied into its back buffer).
    public var inputTimes: [Double] = []
    public var updateTimes: [Double] = []
    public var drawTimes: [Double] = []
    /// Each frame's drawing of cells on the main thread (`--sync` only), in milliseconds.
    public var syncDrawTimes: [Double] = []
    public var rendersStarted = 0
    public var rendersFinished = 0
    /// Renders cancelled (the cell left the display range) or finished too late to be used:
    /// neither delivered a texture.
    public var rendersCancelled = 0
    public var rendersFailed = 0
    /// Bitmaps made textures.
    public var commits = 0
    /// Bitmaps waiting for a later frame's budget, summed over frames.
    public var deferredCommits = 0
    public var textureBytesPeak = 0
    public var texturesReleased = 0

    public init() {}

    /// Mean, median, 90th and 99th percentiles and maximum.
    public static func summary(_ values: [Double]) -> [String: Double] {
        guard !values.isEmpty else { return ["mean": 0, "p50": 0, "p90": 0, "p99": 0, "max": 0] }
        let sorted = values.sorted()
        func percentile(_ p: Double) -> Double {
            let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
            return sorted[max(0, min(sorted.count - 1, rank))]
        }
        func round3(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }
        return ["mean": round3(values.reduce(0, +) / Double(values.count)), "p50": round3(percentile(50)),
                "p90": round3(percentile(90)), "p99": round3(percentile(99)), "max": round3(sorted[sorted.count - 1])]
    }

    /// The figures as one JSON object (keys sorted), with `extra` fields beside them.
    public func json(extra: [String: Any] = [:]) -> String {
        var object: [String: Any] = [
            "frames": frames, "droppedFrames": droppedFrames, "placeholderFrames": placeholderFrames,
            "frameTimeMs": Self.summary(frameTimes), "mainThreadMs": Self.summary(mainThreadTimes),
            "presentMs": Self.summary(presentTimes), "commitMs": Self.summary(commitTimes),
            "inputMs": Self.summary(inputTimes), "updateMs": Self.summary(updateTimes), "drawMs": Self.summary(drawTimes),
            "renders": ["started": rendersStarted, "finished": rendersFinished, "cancelled": rendersCancelled, "failed": rendersFailed],
            "commits": commits, "deferredCommits": deferredCommits,
            "textureBytesPeak": textureBytesPeak, "texturesReleased": texturesReleased,
        ]
        if !syncDrawTimes.isEmpty { object["syncDrawMs"] = Self.summary(syncDrawTimes) }
        for (key, value) in extra { object[key] = value }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Peak resident memory of this process (VmHWM), in bytes; 0 where /proc cannot be read.
public func peakResidentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let digits = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return digits * 1024
    }
    return 0
}
