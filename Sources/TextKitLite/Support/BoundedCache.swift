import Synchronization

/// Hit, miss and eviction counts of a cache, and what it holds now.
public struct CacheStatistics: Sendable, Hashable, CustomStringConvertible {
    public var hits: Int = 0
    public var misses: Int = 0
    public var evictions: Int = 0
    /// Entries held now.
    public var count: Int = 0
    /// Total cost (bytes) of the entries held now.
    public var cost: Int = 0

    public init() {}

    /// hits / (hits + misses), 0 when nothing was looked up.
    public var hitRate: Double { hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses) }

    public var description: String {
        "\(hits) hits, \(misses) misses (\(String(format: "%.1f", hitRate * 100))%), \(evictions) evictions, \(count) entries"
    }

    static func + (a: CacheStatistics, b: CacheStatistics) -> CacheStatistics {
        var sum = CacheStatistics()
        sum.hits = a.hits + b.hits
        sum.misses = a.misses + b.misses
        sum.evictions = a.evictions + b.evictions
        sum.count = a.count + b.count
        sum.cost = a.cost + b.cost
        return sum
    }
}

/// A least-recently-used map bounded by entry count and by total cost, with counters.
/// Not thread-safe; `BoundedCache` puts it behind locks.
struct LRUMap<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        var value: Value
        var cost: Int
        var previous: Int32
        var next: Int32
    }

    private var index: [Key: Int32] = [:]
    private var nodes: [Node] = []
    private var free: [Int32] = []
    private var head: Int32 = -1  // most recently used
    private var tail: Int32 = -1  // least recently used
    let maxCount: Int
    let maxCost: Int
    private(set) var statistics = CacheStatistics()

    init(maxCount: Int, maxCost: Int) {
        self.maxCount = max(1, maxCount)
        self.maxCost = max(1, maxCost)
    }

    /// The value for `key`, marked most recently used; counted as a hit or miss when `record`.
    mutating func value(for key: Key, record: Bool = true) -> Value? {
        guard let slot = index[key] else {
            if record { statistics.misses += 1 }
            return nil
        }
        if record { statistics.hits += 1 }
        moveToFront(slot)
        return nodes[Int(slot)].value
    }

    /// Inserts or replaces an entry, then evicts least recently used entries until both
    /// bounds hold. An entry costlier than `maxCost` is not kept at all, and evicts
    /// nothing else (only the stale value it would have replaced).
    mutating func insert(_ value: Value, for key: Key, cost: Int) {
        guard cost <= maxCost else {
            if let slot = index[key] { evict(slot) }
            return
        }
        if let slot = index[key] {
            statistics.cost += cost - nodes[Int(slot)].cost
            nodes[Int(slot)].value = value
            nodes[Int(slot)].cost = cost
            moveToFront(slot)
        } else {
            let node = Node(key: key, value: value, cost: cost, previous: -1, next: head)
            let slot: Int32
            if let reused = free.popLast() {
                slot = reused
                nodes[Int(slot)] = node
            } else {
                slot = Int32(nodes.count)
                nodes.append(node)
            }
            if head >= 0 { nodes[Int(head)].previous = slot }
            head = slot
            if tail < 0 { tail = slot }
            index[key] = slot
            statistics.count += 1
            statistics.cost += cost
        }
        while statistics.count > maxCount || statistics.cost > maxCost, tail >= 0 {
            evict(tail)
        }
    }

    mutating func removeAll() {
        index.removeAll()
        nodes.removeAll()
        free.removeAll()
        head = -1
        tail = -1
        statistics.count = 0
        statistics.cost = 0
    }

    /// Takes a node out of the recency list (its links only: copying the node would retain
    /// its key and value).
    private mutating func unlink(_ slot: Int32) {
        let previous = nodes[Int(slot)].previous, next = nodes[Int(slot)].next
        if previous >= 0 { nodes[Int(previous)].next = next } else { head = next }
        if next >= 0 { nodes[Int(next)].previous = previous } else { tail = previous }
    }

    private mutating func moveToFront(_ slot: Int32) {
        guard slot != head else { return }
        unlink(slot)
        nodes[Int(slot)].previous = -1
        nodes[Int(slot)].next = head
        if head >= 0 { nodes[Int(head)].previous = slot }
        head = slot
        if tail < 0 { tail = slot }
    }

    private mutating func evict(_ slot: Int32) {
        unlink(slot)
        index[nodes[Int(slot)].key] = nil
        statistics.count -= 1
        statistics.cost -= nodes[Int(slot)].cost
        statistics.evictions += 1
        free.append(slot)
    }
}

/// A thread-safe LRU cache bounded by entries and cost, split into independently locked
/// shards so that threads seldom wait for each other.
final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private final class Shard: Sendable {
        let map: Locked<LRUMap<Key, Value>>
        init(maxCount: Int, maxCost: Int) { map = Locked(LRUMap(maxCount: maxCount, maxCost: maxCost)) }
    }

    private let shards: [Shard]
    /// The bounds over all shards.
    let maxCount: Int
    let maxCost: Int

    /// - Parameters:
    ///   - maxCount: most entries held at once (over all shards).
    ///   - maxCost: most total cost (bytes) held at once.
    ///   - shards: number of independently locked parts; each gets an equal share of the bounds.
    init(maxCount: Int, maxCost: Int, shards: Int = 8) {
        let n = max(1, min(shards, maxCount))
        self.maxCount = max(1, maxCount)
        self.maxCost = max(1, maxCost)
        self.shards = (0..<n).map { _ in Shard(maxCount: max(1, maxCount / n), maxCost: max(1, maxCost / n)) }
    }

    @inline(__always)
    private func shard(_ key: Key) -> Shard {
        shards[Int(UInt(bitPattern: key.hashValue) % UInt(shards.count))]
    }

    /// The cached value; `record: false` looks without counting a hit or miss.
    func value(for key: Key, record: Bool = true) -> Value? {
        shard(key).map.withLock { $0.value(for: key, record: record) }
    }

    func insert(_ value: Value, for key: Key, cost: Int) {
        shard(key).map.withLock { $0.insert(value, for: key, cost: cost) }
    }

    /// Counters and contents summed over all shards.
    var statistics: CacheStatistics {
        shards.reduce(CacheStatistics()) { sum, shard in sum + shard.map.withLock { $0.statistics } }
    }

    func removeAll() {
        for shard in shards { shard.map.withLock { $0.removeAll() } }
    }
}
