// Cancellation latency of AsyncRenderer / DisplayTask:
//   swift run -c release CancelLatency [trials]
import FeedWorkloads
import Foundation
import TextKitLite

let trials = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 300
let engine = Feed.coldEngine()
let bench = CancelLatencyBench(engine: engine)
let figures = bench.figures(trials: trials)

func row(_ name: String, _ s: Summary, _ unit: String) -> String {
    String(format: "%@: median %.1f, p90 %.1f, p99 %.1f, worst %.1f %@", name, s.median, s.percentile(90), s.percentile(99), s.max, unit)
}
print("\(figures.trials) trials, \(bench.lineCount)-line layout, \(String(format: "%.1f", figures.microsecondsPerLine)) µs per line at 2×, load \(loadAverage())")
print(row("cancel() → render stopped", figures.cancelToStopMicroseconds, "µs"))
print(row("cancel() → didDisplay(finished: false)", figures.cancelToReportMicroseconds, "µs"))
print(row("cancel() call", figures.cancelCallMicroseconds, "µs"))
print(row("lines drawn after cancel() returned", figures.linesAfterCancel, "lines"))
print("renders that finished anyway: \(figures.finishedAnyway)")
