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

/// A map bounded by entry count and by total cost, with counters, that evicts entries
/// not used lately first: CLOCK (second chance), the approximation of least recently used
/// that page caches use. A hit only sets the entry's reference bit, where a strict LRU
/// list would relink the entry and its two neighbours (three scattered writes per hit, on
/// the shaped-word cache's hottest path); eviction sweeps a hand over the entries, clearing
/// set bits and evicting the first entry whose bit is clear. An entry used since the hand
/// last passed it survives the next sweep; one never used again goes first. An evicted
/// entry is released at once (the last entry takes its slot), so memory never holds more
/// than the bounds allow, even after one costly insert evicted many entries.
/// Not thread-safe; `BoundedCache` puts it behind locks.
///
/// Its index is its own open-addressing table (linear probing, backward-shift deletion)
/// over the caller's hash value: a key is hashed once per lookup, by the caller, who also
/// needs the hash to pick a shard, and a key type with a precomputed hash
/// (`ShapeCache.Key`) is not hashed again at all.
@usableFromInline
struct ClockMap<Key: Hashable, Value> {
    @usableFromInline
    struct Node {
        @usableFromInline var key: Key
        @usableFromInline var value: Value
        @usableFromInline var cost: Int
        @usableFromInline var hash: Int
        @usableFromInline var referenced: Bool

        @usableFromInline
        init(key: Key, value: Value, cost: Int, hash: Int, referenced: Bool) {
            (self.key, self.value, self.cost, self.hash, self.referenced) = (key, value, cost, hash, referenced)
        }
    }

    /// Node slots by bucket (`-1`: empty); a power of two, at most half full.
    @usableFromInline var table: [Int32] = []
    /// The entries, densely: an evicted entry's slot takes the last entry, so an evicted
    /// value is released at once (a costly insert may evict many).
    @usableFromInline var nodes: [Node] = []
    /// The next node the eviction sweep looks at.
    @usableFromInline var hand = 0
    @usableFromInline let maxCount: Int
    @usableFromInline let maxCost: Int
    @usableFromInline var statistics = CacheStatistics()

    @usableFromInline
    init(maxCount: Int, maxCost: Int) {
        self.maxCount = max(1, maxCount)
        self.maxCost = max(1, maxCost)
    }

    /// The value for `key`, marked as used; counted as a hit or miss when `record`.
    @inlinable
    mutating func value(for key: Key, record: Bool = true) -> Value? {
        value(for: key, hash: key.hashValue, record: record)
    }

    /// The value for `key` whose `hashValue` is `hash`.
    @inlinable
    mutating func value(for key: Key, hash: Int, record: Bool = true) -> Value? {
        value(for: key, hash: hash, record: record) { $0 }
    }

    /// What `extract` finds in the value for `key` (marked as used when there is one);
    /// when `record`, counted as a hit when it finds something and as a miss otherwise.
    @inlinable
    mutating func value<Part>(for key: Key, hash: Int, record: Bool = true, _ extract: (Value) -> Part?) -> Part? {
        guard let slot = find(key, hash: hash).slot else {
            if record { statistics.misses += 1 }
            return nil
        }
        // Written only when clear: a hot entry's node is not dirtied by every hit (two
        // workers drawing the same glyphs would trade its cache line back and forth). Its
        // fields are read through the buffer, in place: reading them through the array
        // copied the whole node (retaining and releasing its value) on every lookup.
        let part = nodes.withUnsafeMutableBufferPointer { nodes in
            if !nodes[Int(slot)].referenced { nodes[Int(slot)].referenced = true }
            return extract(nodes[Int(slot)].value)
        }
        if record {
            if part == nil { statistics.misses += 1 } else { statistics.hits += 1 }
        }
        return part
    }

    /// Inserts or replaces the entry of `key` with what `merge` makes of its value (nil
    /// when there is none), at the cost `merge` gives.
    @inlinable
    mutating func merge(for key: Key, hash: Int, _ merge: (Value?) -> (value: Value, cost: Int)) {
        let (value, cost) = merge(find(key, hash: hash).slot.map { nodes[Int($0)].value })
        insert(value, for: key, hash: hash, cost: cost)
    }

    /// Inserts or replaces an entry, then evicts entries not used lately until both bounds
    /// hold (never the entry just inserted). An entry costlier than `maxCost` is not kept
    /// at all, and evicts nothing else (only the stale value it would have replaced).
    @inlinable
    mutating func insert(_ value: Value, for key: Key, cost: Int) {
        insert(value, for: key, hash: key.hashValue, cost: cost)
    }

    /// Inserts or replaces the entry of `key` whose `hashValue` is `hash`.
    @inlinable
    mutating func insert(_ value: Value, for key: Key, hash: Int, cost: Int) {
        let (bucket, existing) = find(key, hash: hash)
        guard cost <= maxCost else {
            if let slot = existing { evict(slot) }
            return
        }
        let slot: Int32
        if let existing {
            slot = existing
            statistics.cost += cost - nodes[Int(slot)].cost
            nodes[Int(slot)].value = value
            nodes[Int(slot)].cost = cost
            nodes[Int(slot)].referenced = true  // a replacement counts as a use
        } else {
            slot = Int32(nodes.count)
            nodes.append(Node(key: key, value: value, cost: cost, hash: hash, referenced: false))
            statistics.count += 1
            statistics.cost += cost
            if statistics.count * 2 > table.count {
                grow()
            } else {
                table[bucket] = slot
            }
        }
        // Terminates: the bounds hold for `slot` alone (count ≥ 1, cost ≤ maxCost), so
        // while they do not, another entry exists.
        var spared = slot
        while statistics.count > maxCount || statistics.cost > maxCost {
            spared = evictOne(sparing: spared)
        }
    }

    @inlinable
    mutating func removeAll() {
        table.removeAll()
        nodes.removeAll()
        hand = 0
        statistics.count = 0
        statistics.cost = 0
    }

    /// The bucket holding `key`, or the empty bucket where it would go.
    @inlinable
    func find(_ key: Key, hash: Int) -> (bucket: Int, slot: Int32?) {
        guard !table.isEmpty else { return (0, nil) }
        let mask = table.count - 1
        var bucket = Self.home(hash, mask)
        // The nodes' fields read in place (see `value(for:hash:record:_:)`).
        return nodes.withUnsafeBufferPointer { nodes in
            while true {
                let slot = table[bucket]
                if slot < 0 { return (bucket, nil) }
                if nodes[Int(slot)].hash == hash, nodes[Int(slot)].key == key { return (bucket, slot) }
                bucket = (bucket + 1) & mask
            }
        }
    }

    /// The first bucket a hash probes: the top bits of the hash times 2^64/φ (Fibonacci
    /// hashing), which depend on every bit of the hash: the keys of one shard share their
    /// low bits (the shard is picked by the low bits of the hash).
    @inlinable
    static func home(_ hash: Int, _ mask: Int) -> Int {
        let product = UInt64(UInt(bitPattern: hash)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: product >> UInt64(64 - mask.nonzeroBitCount))  // mask ≥ 15
    }

    /// Doubles the table (at least 16 buckets) and places every node again.
    @inlinable
    mutating func grow() {
        let capacity = max(16, table.count * 2)
        table = [Int32](repeating: -1, count: capacity)
        let mask = capacity - 1
        for slot in nodes.indices {
            var bucket = Self.home(nodes[slot].hash, mask)
            while table[bucket] >= 0 { bucket = (bucket + 1) & mask }
            table[bucket] = Int32(slot)
        }
    }

    /// Empties a bucket and shifts back the entries after it that probed past it, so that
    /// every remaining key is still found from its home bucket (no tombstones).
    @inlinable
    mutating func removeBucket(_ bucket: Int) {
        let mask = table.count - 1
        var hole = bucket
        var next = (bucket + 1) & mask
        while table[next] >= 0 {
            let home = Self.home(nodes[Int(table[next])].hash, mask)
            // The entry at `next` may move into the hole when its home is not in (hole, next].
            if (next - home) & mask >= (next - hole) & mask {
                table[hole] = table[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        table[hole] = -1
    }

    /// Advances the hand to the first entry other than `spared` whose reference bit is
    /// clear, clearing the bits it passes, and evicts that entry.
    ///
    /// - Returns: where `spared` is now (eviction may move it).
    @inlinable
    mutating func evictOne(sparing spared: Int32) -> Int32 {
        while true {
            if hand >= nodes.count { hand = 0 }
            let slot = hand
            hand += 1
            guard slot != Int(spared) else { continue }
            if nodes[slot].referenced {
                nodes[slot].referenced = false
                continue
            }
            // The entry that moves into the slot (often the one just inserted) is now
            // behind the hand: the sweep comes back to it last.
            let moved = evict(Int32(slot))
            return moved == spared ? Int32(slot) : spared
        }
    }

    /// Removes an entry: the last entry moves into its slot, and the removed entry is
    /// released.
    ///
    /// - Returns: the former slot of the entry that moved into `slot` (`slot` itself when
    ///   it was the last).
    @inlinable @discardableResult
    mutating func evict(_ slot: Int32) -> Int32 {
        removeBucket(bucket(holding: slot))
        statistics.count -= 1
        statistics.cost -= nodes[Int(slot)].cost
        statistics.evictions += 1
        let last = Int32(nodes.count - 1)
        if slot != last {
            table[bucket(holding: last)] = slot
            nodes.swapAt(Int(slot), Int(last))
        }
        nodes.removeLast()
        return last
    }

    /// The bucket that indexes node `slot` (probing from its home, comparing slots only).
    @inlinable
    func bucket(holding slot: Int32) -> Int {
        let mask = table.count - 1
        var bucket = Self.home(nodes[Int(slot)].hash, mask)
        while table[bucket] != slot { bucket = (bucket + 1) & mask }
        return bucket
    }
}

/// A thread-safe cache bounded by entries and cost (`ClockMap`: entries not used lately go
/// first), split into independently locked shards so that threads seldom wait for each other.
///
/// `@usableFromInline` with its lookups `@inlinable`, so that the package's other modules
/// (the feed layer's caches) get it specialized for their keys: an unspecialized lookup
/// costs thousands of instructions. Swift 6.3 specializes a `package` class's `@inlinable`
/// methods in another module only when the class itself is `@usableFromInline`.
@usableFromInline package final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline let shards: [Locked<ClockMap<Key, Value>>]
    /// The bounds over all shards.
    let maxCount: Int
    let maxCost: Int

    /// - Parameters:
    ///   - maxCount: most entries held at once (over all shards).
    ///   - maxCost: most total cost (bytes) held at once.
    ///   - shards: number of independently locked parts (rounded down to a power of two);
    ///     each gets an equal share of the bounds.
    package init(maxCount: Int, maxCost: Int, shards: Int = 8) {
        // A power of two, so that a hash picks its shard with a mask, not a division.
        var n = 1
        while n * 2 <= max(1, min(shards, maxCount)) { n *= 2 }
        self.maxCount = max(1, maxCount)
        self.maxCost = max(1, maxCost)
        self.shards = (0..<n).map { _ in Locked(ClockMap(maxCount: max(1, maxCount / n), maxCost: max(1, maxCost / n))) }
    }

    /// Runs `body` on the shard of `hash`, under its lock.
    @inlinable
    func withShard<Result: Sendable>(_ hash: Int, _ body: (inout sending ClockMap<Key, Value>) -> Result) -> Result {
        shards[hash & (shards.count &- 1)].withLock { map -> Result in body(&map) }
    }

    /// The cached value; `record: false` looks without counting a hit or miss.
    @inlinable
    package func value(for key: Key, record: Bool = true) -> Value? {
        let hash = key.hashValue  // once, for the shard and its table
        return withShard(hash) { $0.value(for: key, hash: hash, record: record) }
    }

    @inlinable
    package func insert(_ value: Value, for key: Key, cost: Int) {
        let hash = key.hashValue
        withShard(hash) { $0.insert(value, for: key, hash: hash, cost: cost) }
    }

    /// What `extract` finds in the cached value: a hit when it finds something, else a
    /// miss (an entry holding part of what is asked for, such as a post at other widths).
    @inlinable
    package func value<Part: Sendable>(for key: Key, _ extract: @Sendable (Value) -> Part?) -> Part? {
        let hash = key.hashValue
        return withShard(hash) { $0.value(for: key, hash: hash, extract) }
    }

    /// Inserts or replaces the entry of `key` with what `merge` makes of the cached value
    /// (nil when there is none), at the cost `merge` gives, under the shard's lock: merges
    /// of one key from several threads all take effect.
    @inlinable
    package func merge(for key: Key, _ merge: @Sendable (Value?) -> (value: Value, cost: Int)) {
        let hash = key.hashValue
        withShard(hash) { $0.merge(for: key, hash: hash, merge) }
    }

    /// Counters and contents summed over all shards.
    package var statistics: CacheStatistics {
        shards.reduce(CacheStatistics()) { sum, shard in sum + shard.withLock { $0.statistics } }
    }

    package func removeAll() {
        for shard in shards { shard.withLock { $0.removeAll() } }
    }
}
