import Synchronization

/// A counter that makes earlier work stale, as YYSentinel does: work captures the value
/// when it starts and is cancelled once the value has moved on.
///
/// ```swift
/// let generation = sentinel.increment()
/// let isCancelled = { sentinel.value != generation }
/// ```
final class Sentinel: Sendable {
    private let counter = Atomic<Int>(0)

    init() {}

    /// The current value.
    var value: Int { counter.load(ordering: .acquiring) }

    /// Moves the counter on, making every earlier value stale.
    ///
    /// - Returns: the new value.
    @discardableResult
    func increment() -> Int {
        counter.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
    }

    /// Whether `value` is still the current value (the work that captured it is not cancelled).
    func isCurrent(_ value: Int) -> Bool { self.value == value }
}
