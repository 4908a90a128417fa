import Foundation
import Synchronization
import Testing
@testable import TextKitLite

/// Results handed out in input order whatever order the workers finish in, never more
/// than `window` elements in flight.
@Suite struct OrderedMapTests {
    /// Elements taken from the input and not yet consumed, and the most seen at once.
    final class InFlight: Sendable {
        let current = Atomic<Int>(0)
        let peak = Atomic<Int>(0)
        func taken() {
            let now = current.wrappingAdd(1, ordering: .relaxed).newValue
            peak.max(now, ordering: .relaxed)
        }
        func consumed() { current.wrappingSubtract(1, ordering: .relaxed) }
    }

    /// Finishing out of order: element i sleeps longer the smaller `i % 7` is, so later
    /// elements (and the ends of the consumer's wait batches) are often done before earlier ones.
    @Test(arguments: [(1, 1), (2, 2), (3, 4), (2, 16), (3, 64)])
    func inputOrderAndWindowUnderOutOfOrderCompletion(workers: Int, window: Int) {
        let pool = RenderQueuePool(workerCount: workers, label: "test.ordered")
        let inFlight = InFlight()
        let count = 300
        var output: [Int] = []
        let input = (0..<count).lazy.map { i -> Int in
            inFlight.taken()
            return i
        }
        pool.orderedMap(input, window: window, transform: { (i: Int) -> Int in
            usleep(UInt32((6 - i % 7) * 40))
            return i * 2
        }, consume: { (value: Int) in
            inFlight.consumed()
            output.append(value)
        })
        #expect(output == (0..<count).map { $0 * 2 })
        #expect(inFlight.peak.load(ordering: .relaxed) <= window + 1)  // the element being submitted
    }

    /// What the transform captures is freed on the calling thread when the caller lets go,
    /// never on a worker after `orderedMap` returned (a worker's job closure outlives the job).
    /// Cannot fail spuriously; a closure holding the transform made it fail in about one
    /// run in three at 30 rounds.
    @Test func transformIsReleasedOnTheCallingThread() {
        let pool = RenderQueuePool(workerCount: 2, label: "test.release")
        let caller = pthread_self()
        let threads = Mutex<[pthread_t]>([])
        for _ in 0..<200 {
            do {
                let captured = Tracked { threads.withLock { $0.append(pthread_self()) } }
                pool.orderedMap(0..<64, window: 8, transform: { (i: Int) -> Int in
                    captured.touch()
                    return i
                }, consume: { (_: Int) in })
            }
        }
        let released = threads.withLock { $0 }
        #expect(released.count == 200)
        #expect(released.allSatisfy { pthread_equal($0, caller) != 0 })
    }

    /// Calls `onDeinit` when freed.
    final class Tracked: Sendable {
        let onDeinit: @Sendable () -> Void
        init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
        func touch() {}
        deinit { onDeinit() }
    }

    @Test func emptyInput() {
        var consumed = 0
        RenderQueuePool(workerCount: 2).orderedMap([Int](), window: 8,
                                                   transform: { $0 }, consume: { (_: Int) in consumed += 1 })
        #expect(consumed == 0)
    }
}
