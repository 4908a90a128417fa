import Foundation

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Sleeps until a monotonic time (returns at once if it has passed).
func sleep(until deadline: Double) {
    let remaining = deadline - monotonicSeconds()
    guard remaining > 0 else { return }
    var request = timespec(tv_sec: Int(remaining), tv_nsec: Int((remaining - Double(Int(remaining))) * 1e9))
    var left = timespec()
    while nanosleep(&request, &left) != 0, errno == EINTR { request = left }
}
