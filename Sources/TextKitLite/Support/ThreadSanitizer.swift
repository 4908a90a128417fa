#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Happens-before annotations for ThreadSanitizer, active only in a process built with
/// `-sanitize=thread` (the TSan runtime's `__tsan_acquire` / `__tsan_release` are looked up once;
/// elsewhere they are nil and cost one load).
///
/// Why: on Linux, `Synchronization.Mutex` hands a contended lock over through a priority-inheriting
/// futex in the kernel, which TSan cannot see, so it reports races on data the mutex does protect
/// (reproduced with a four-thread `withLock` loop and nothing else). `Locked` tells TSan about each
/// critical section with these hooks. (The Swift runtime annotates its own futex locks the same way.)
@usableFromInline
enum ThreadSanitizer {
    @usableFromInline typealias Hook = @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// The TSan runtime's `__tsan_acquire` (later accesses happen after the last `release`
    /// on the same address) and `__tsan_release` (earlier accesses happen before the next
    /// `acquire`), or nil without it: one lazily made global, so a critical section reads
    /// one, not two.
    @usableFromInline static let hooks: (acquire: Hook, release: Hook)? = {
        guard let acquire = lookup("__tsan_acquire"), let release = lookup("__tsan_release") else { return nil }
        return (acquire, release)
    }()

    private static func lookup(_ name: String) -> Hook? {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), name) else { return nil }
        return unsafeBitCast(symbol, to: Hook.self)
    }
}
