import Synchronization

/// A value behind a `Synchronization.Mutex` whose critical sections ThreadSanitizer can see
/// (see `ThreadSanitizer`). Same `withLock` as `Mutex`; a class, so it has a stable address for
/// the annotations and can be shared by reference.
///
/// Every lock of the project is one of these, the command-line tool's and the service's too:
/// a bare `Mutex` shared by two threads makes a ThreadSanitizer run report races on the data it
/// protects as soon as the lock is contended. Clients that test under TSan can use it as well.
public final class Locked<Value: ~Copyable>: Sendable {
    @usableFromInline let mutex: Mutex<Value>

    public init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value.
    ///
    /// - Parameter body: reads or changes the value; must not call back into this lock.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    @inlinable
    public func withLock<Result: ~Copyable, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            let address = Unmanaged.passUnretained(self).toOpaque()
            let hooks = ThreadSanitizer.hooks
            hooks?.acquire(address)
            defer { hooks?.release(address) }
            return try body(&value)
        }
    }
}
