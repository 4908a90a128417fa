import Synchronization

/// A value behind a `Synchronization.Mutex`, whose critical sections ThreadSanitizer can see
/// (see `ThreadSanitizer`). Same `withLock` as `Mutex`; a class, so it has a stable address for
/// the annotations and can be shared by reference.
@usableFromInline
final class Locked<Value>: Sendable {
    @usableFromInline let mutex: Mutex<Value>
    @usableFromInline
    init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value.
    ///
    /// - Parameter body: reads or changes the value; must not call back into this lock.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    @inlinable
    func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            let address = Unmanaged.passUnretained(self).toOpaque()
            let hooks = ThreadSanitizer.hooks
            hooks?.acquire(address)
            defer { hooks?.release(address) }
            return try body(&value)
        }
    }
}
