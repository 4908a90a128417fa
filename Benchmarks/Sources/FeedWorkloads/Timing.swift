import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Monotonic nanoseconds (CLOCK_MONOTONIC through Dispatch).
@inline(__always)
public func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Runs `body` and returns its result and the nanoseconds it took.
@inline(__always)
public func timed<T>(_ body: () throws -> T) rethrows -> (value: T, nanoseconds: UInt64) {
    let start = now()
    let value = try body()
    return (value, now() - start)
}

/// Order statistics of a sample.
public struct Summary: Sendable, CustomStringConvertible {
    public let sorted: [Double]

    public init(_ values: [Double]) {
        precondition(!values.isEmpty, "empty sample")
        sorted = values.sorted()
    }

    public var count: Int { sorted.count }
    public var min: Double { sorted[0] }
    public var max: Double { sorted[sorted.count - 1] }
    public var median: Double { percentile(50) }
    public var mean: Double { sorted.reduce(0, +) / Double(sorted.count) }

    /// Nearest-rank percentile (p in 0...100).
    public func percentile(_ p: Double) -> Double {
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
    }

    public var description: String { "median \(median), min \(min), max \(max), n \(count)" }
}

/// CPU nanoseconds used by the whole process so far (all threads).
public func processCPUTime() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// CPU nanoseconds used by the calling thread so far: unlike wall time, it does not count
/// the time other processes hold the core.
public func threadCPUTime() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}
