import Foundation
import Synchronization
import Testing
@testable import TextKitLite

/// The bounded worker pool: never more jobs at once than workers, visible before prefetch.
@Suite struct AsyncQueuePoolTests {
    /// Counts jobs running now and the most ever seen at once.
    final class Concurrency: Sendable {
        private let running = Atomic<Int>(0)
        private let peak = Atomic<Int>(0)

        func enter() {
            let now = running.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
            var seen = peak.load(ordering: .relaxed)
            while now > seen {
                let (exchanged, original) = peak.compareExchange(
                    expected: seen, desired: now, ordering: .acquiringAndReleasing)
                if exchanged { break }
                seen = original
            }
        }

        func leave() { running.wrappingSubtract(1, ordering: .acquiringAndReleasing) }
        var maximum: Int { peak.load(ordering: .acquiring) }
    }

    /// Occupies every worker of `pool` with a job that waits on its own gate.
    static func occupy(_ pool: RenderQueuePool, concurrency: Concurrency? = nil) async -> (gates: [Gate], ended: Latch) {
        let gates = (0..<pool.workerCount).map { _ in Gate() }
        let started = Latch(pool.workerCount)
        let ended = Latch(pool.workerCount)
        for gate in gates {
            pool.submit(priority: .visible) {
                concurrency?.enter()
                started.countDown()
                gate.wait()
                concurrency?.leave()
                ended.countDown()
            }
        }
        await started.wait()  // every worker now runs a gate job
        return (gates, ended)
    }

    @Test func neverMoreJobsAtOnceThanWorkers() async {
        let workers = 3
        let pool = RenderQueuePool(workerCount: workers)
        let concurrency = Concurrency()
        let (gates, gatesEnded) = await Self.occupy(pool, concurrency: concurrency)
        let jobs = 1_000
        let done = Latch(jobs)
        let checksum = Atomic<Int>(0)
        for index in 0..<jobs {
            pool.submit(priority: index.isMultiple(of: 3) ? .prefetch : .visible) {
                concurrency.enter()
                var value = index
                for _ in 0..<200 { value = value &* 31 &+ 7 }  // a little work, no sleep
                checksum.wrappingAdd(value & 1, ordering: .relaxed)
                concurrency.leave()
                done.countDown()
            }
        }
        #expect(pool.pendingCount == jobs, "all jobs wait while every worker is busy")
        for gate in gates { gate.open() }
        await done.wait()
        await gatesEnded.wait()
        #expect(concurrency.maximum == workers, "the gate jobs ran \(workers) at once, and never more")
        #expect(pool.pendingCount == 0)
    }

    @Test func visibleJobsStartBeforeEarlierPrefetchJobs() async {
        let pool = RenderQueuePool(workerCount: 3)
        let (gates, gatesEnded) = await Self.occupy(pool)
        let order = Recorder<String>()
        let count = 20
        let done = Latch(2 * count)
        for index in 0..<count {
            pool.submit(priority: .prefetch) { order.append("p\(index)"); done.countDown() }
        }
        for index in 0..<count {
            pool.submit(priority: .visible) { order.append("v\(index)"); done.countDown() }
        }
        gates[0].open()  // one worker frees; the others stay busy, so the start order is exact
        await done.wait()
        #expect(order.values == (0..<count).map { "v\($0)" } + (0..<count).map { "p\($0)" })
        for gate in gates.dropFirst() { gate.open() }
        await gatesEnded.wait()
    }

    @Test func workerCountDefaultsToActiveCores() {
        #expect(RenderQueuePool().workerCount == ProcessInfo.processInfo.activeProcessorCount)
        #expect(RenderQueuePool(workerCount: 0).workerCount == 1)
    }

    @Test func idleWorkersWakeForLaterJobs() async {
        let pool = RenderQueuePool(workerCount: 2)
        for round in 0..<3 {
            let done = Latch(10)
            for _ in 0..<10 { pool.submit(priority: round.isMultiple(of: 2) ? .visible : .prefetch) { done.countDown() } }
            await done.wait()
        }
        #expect(pool.pendingCount == 0)
    }
}
