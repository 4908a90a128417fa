import Synchronization

/// A value behind a `Synchronization.Mutex` whose critical sections ThreadSanitizer can see
/// (see `ThreadSanitizer`). Same `withLock` as `Mutex`; a class, so it has a stable address for
/// the annotations and can be shared by reference.
///
/// Every lock of this package is one of these, the command-line tool's too: a bare `Mutex`
/// shared by two threads makes a ThreadSanitizer run report races on the data it protects as
/// soon as the lock is contended. The packages beside this one (the service, the viewer) keep
/// their shared state in an actor or a `Mutex` of their own.
@usableFromInline package final class Locked<Value: ~Copyable>: Sendable {
    @usableFromInline let mutex: Mutex<Value>
    /// `ThreadSanitizer.hooks`, read once: a lazily made global costs a call on every read.
    @usableFromInline let hooks = ThreadSanitizer.hooks

    package init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value.
    ///
    /// - Parameter body: reads or changes the value; must not call back into this lock.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    @inlinable
    package func withLock<Result: ~Copyable, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            let address = Unmanaged.passUnretained(self).toOpaque()
            hooks?.acquire(address)
            defer { hooks?.release(address) }
            return try body(&value)
        }
    }
}
