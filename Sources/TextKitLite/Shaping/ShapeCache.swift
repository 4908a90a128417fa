import Synchronization

/// The shaped-word cache shared by every text an engine lays out (as Android's minikin
/// LayoutCache): a word shaped once is reused wherever it appears again with the same
/// font, script, direction and language, at any point size.
///
/// Thread-safe and bounded by entries and bytes (least recently used entries go first).
public final class ShapeCache: Sendable {
    struct Key: Hashable, Sendable {
        var font: Int
        var script: UInt32
        var rightToLeft: Bool
        var language: String?
        var text: [UInt16]
    }

    private let cache: BoundedCache<Key, ShapedWord>
    private let shapings = Atomic<Int>(0)

    /// - Parameters:
    ///   - maxEntries: most words held at once.
    ///   - maxBytes: most memory held by the shaped glyphs.
    public init(maxEntries: Int = 200_000, maxBytes: Int = 64 << 20) {
        cache = BoundedCache(maxCount: maxEntries, maxCost: maxBytes, shards: 16)
    }

    func word(for key: Key) -> ShapedWord? { cache.value(for: key) }

    func insert(_ word: ShapedWord, for key: Key) { cache.insert(word, for: key, cost: word.byteCount + key.text.count * 2) }

    func recordShaping() { shapings.add(1, ordering: .relaxed) }

    /// Hits, misses, evictions and size.
    public var statistics: CacheStatistics { cache.statistics }

    /// Number of HarfBuzz shaping calls made through this cache (each miss is one).
    public var shapingCount: Int { shapings.load(ordering: .relaxed) }

    /// Drops every entry (counters stay).
    public func removeAll() { cache.removeAll() }
}
