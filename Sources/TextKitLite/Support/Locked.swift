import Synchronization

/// A value behind a `Synchronization.Mutex`, whose critical sections ThreadSanitizer can see
/// (see `ThreadSanitizer`). Same `withLock` as `Mutex`; a class, so it has a stable address for
/// the annotations and can be shared by reference.
final class Locked<Value>: Sendable {
    private let mutex: Mutex<Value>
    /// ThreadSanitizer's hooks, read once: reading the statics costs a `swift_once` call
    /// each, twice per critical section (860,000 calls in two passes of the warm measuring
    /// benchmark, one pair per shaped-word lookup).
    private let acquire = ThreadSanitizer.acquire, release = ThreadSanitizer.release

    init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value.
    ///
    /// - Parameter body: reads or changes the value; must not call back into this lock.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            let address = Unmanaged.passUnretained(self).toOpaque()
            acquire?(address)
            defer { release?(address) }
            return try body(&value)
        }
    }
}
