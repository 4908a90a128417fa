import Dispatch
@testable import SampleFeed
import Testing
@testable import TextKitLite

/// The bounded map behind every cache (shaped words, shaped texts, heights, glyphs,
/// tokens): eviction order (CLOCK), both bounds, counters, its hash table, and the
/// sharded, locked wrapper.
@Suite struct BoundedCacheTests {
    @Test func entryNotUsedLatelyGoesFirst() {
        var map = ClockMap<String, Int>(maxCount: 3, maxCost: 1_000)
        map.insert(1, for: "a", cost: 1)
        map.insert(2, for: "b", cost: 1)
        map.insert(3, for: "c", cost: 1)
        #expect(map.value(for: "a") == 1)  // "a" was used since it went in; "b" was not
        map.insert(4, for: "d", cost: 1)
        #expect(map.value(for: "b") == nil)
        #expect(map.value(for: "a") == 1)
        #expect(map.value(for: "c") == 3)
        #expect(map.value(for: "d") == 4)
        #expect(map.statistics.count == 3)
        #expect(map.statistics.evictions == 1)
    }

    @Test func costBoundEvictsUntilItHolds() {
        var map = ClockMap<Int, String>(maxCount: 100, maxCost: 10)
        for key in 0..<5 { map.insert("v\(key)", for: key, cost: 3) }  // 15 > 10: the two oldest go
        #expect(map.statistics.cost <= 10)
        #expect(map.statistics.count == 3)
        #expect(map.value(for: 0) == nil && map.value(for: 1) == nil)
        #expect(map.value(for: 4) == "v4")
        // An entry costlier than the whole bound is not kept, and evicts nothing else.
        map.insert("huge", for: 99, cost: 11)
        #expect(map.value(for: 99) == nil)
        #expect(map.statistics.count == 3)
        #expect((2..<5).allSatisfy { map.value(for: $0) == "v\($0)" })
        // Replacing a kept entry with one too costly drops the stale value.
        map.insert("huge", for: 4, cost: 11)
        #expect(map.value(for: 4) == nil)
        #expect(map.statistics.count == 2 && map.statistics.cost == 6)
    }

    @Test func replacingAValueUpdatesItsCostAndRecency() {
        var map = ClockMap<String, Int>(maxCount: 2, maxCost: 100)
        map.insert(1, for: "a", cost: 10)
        map.insert(2, for: "b", cost: 10)
        map.insert(3, for: "a", cost: 50)  // replaces, and "a" becomes the most recent
        #expect(map.statistics.count == 2)
        #expect(map.statistics.cost == 60)
        map.insert(4, for: "c", cost: 1)
        #expect(map.value(for: "b") == nil)
        #expect(map.value(for: "a") == 3)
    }

    @Test func countersAndRemoveAll() {
        var map = ClockMap<Int, Int>(maxCount: 10, maxCost: 100)
        map.insert(7, for: 1, cost: 1)
        _ = map.value(for: 1)
        _ = map.value(for: 2)
        _ = map.value(for: 1, record: false)
        #expect(map.statistics.hits == 1)
        #expect(map.statistics.misses == 1)
        map.removeAll()
        #expect(map.statistics.count == 0 && map.statistics.cost == 0)
        #expect(map.value(for: 1) == nil)
        #expect(map.statistics.hits == 1)  // counters stay
        // Slots freed by eviction and by removeAll are reused without losing entries.
        for key in 0..<50 { map.insert(key, for: key, cost: 1) }
        #expect(map.statistics.count == 10)
        #expect((40..<50).allSatisfy { map.value(for: $0) == $0 })
    }

    @Test func shardedCacheHoldsItsBoundsUnderConcurrentUse() {
        let cache = BoundedCache<Int, Int>(maxCount: 64, maxCost: 1 << 20, shards: 8)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for i in 0..<5_000 {
                let key = (i * 7 + worker) % 500
                if let value = cache.value(for: key) {
                    #expect(value == key * 2)
                } else {
                    cache.insert(key * 2, for: key, cost: 16)
                }
            }
        }
        let statistics = cache.statistics
        #expect(statistics.count <= 64)
        #expect(statistics.hits + statistics.misses == 20_000)
        #expect(statistics.evictions > 0)
    }

    /// The map's own hash table (linear probing, entries shifted back on removal) over
    /// random inserts, replacements, lookups and evictions: every lookup finds the latest
    /// value or nothing, the counts and costs are those of the entries it finds, and an
    /// entry used since the last sweep is never the next one evicted. Keys with colliding
    /// hashes (`Colliding`) make long probe chains that removal must mend.
    @Test func hashTableStaysConsistentUnderChurn() {
        struct Colliding: Hashable {
            var id: Int
            func hash(into hasher: inout Hasher) { hasher.combine(id % 7) }  // 7 distinct hashes
        }
        var map = ClockMap<Colliding, Int>(maxCount: 40, maxCost: 400)
        var latest: [Int: (value: Int, cost: Int)] = [:]
        var random = SampleFeed.SplitMix64(state: 42)
        for step in 0..<20_000 {
            let key = random.below(120)
            if random.below(3) == 0 {
                let cost = 1 + random.below(20)
                map.insert(step, for: Colliding(id: key), cost: cost)
                latest[key] = (step, cost)
                #expect(map.value(for: Colliding(id: key), record: false) == step)  // never evicts what it inserts
            } else if let found = map.value(for: Colliding(id: key)) {
                #expect(found == latest[key]?.value)
            }
            #expect(map.statistics.count <= 40 && map.statistics.cost <= 400)
        }
        var count = 0, cost = 0
        for key in 0..<120 {
            guard let found = map.value(for: Colliding(id: key), record: false) else { continue }
            #expect(found == latest[key]?.value)
            count += 1
            cost += latest[key]!.cost
        }
        #expect(map.statistics.count == count && map.statistics.cost == cost)
    }

    /// Second chance: of entries inserted together, one looked up since is kept over the
    /// ones never looked up, whichever order they came in.
    @Test func usedEntriesGetASecondChance() {
        var map = ClockMap<Int, Int>(maxCount: 4, maxCost: 100)
        for key in 0..<4 { map.insert(key, for: key, cost: 1) }
        _ = map.value(for: 0)
        _ = map.value(for: 2)
        map.insert(4, for: 4, cost: 1)
        map.insert(5, for: 5, cost: 1)
        #expect(map.value(for: 1, record: false) == nil && map.value(for: 3, record: false) == nil)
        #expect([0, 2, 4, 5].allSatisfy { map.value(for: $0, record: false) == $0 })
    }

    /// An evicted entry is released at once, not when its slot is reused: a costly insert
    /// that evicts many entries leaves none of them alive.
    @Test func evictedValuesAreReleased() {
        final class Payload {}
        var map = ClockMap<Int, Payload>(maxCount: 100, maxCost: 10)
        var watched: [() -> Payload?] = []
        for key in 0..<10 {
            let payload = Payload()
            weak let weakPayload = payload
            watched.append { weakPayload }
            map.insert(payload, for: key, cost: 1)
        }
        map.insert(Payload(), for: 99, cost: 10)  // evicts all ten
        #expect(map.statistics.count == 1)
        #expect(watched.allSatisfy { $0() == nil })
    }
}
