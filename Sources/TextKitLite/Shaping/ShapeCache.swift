import Synchronization

/// The shaped-word cache shared by every text an engine lays out (as Android's minikin
/// LayoutCache): a word shaped once is reused wherever it appears again with the same
/// font, script, direction and language, at any point size.
///
/// Thread-safe and bounded by entries and bytes (least recently used entries go first).
public final class ShapeCache: Sendable {
    /// What a shaped word depends on. The text of a word of up to 12 UTF-16 units (every
    /// CJK character, most words of alphabetic scripts) is packed into the key itself, so a
    /// lookup allocates nothing; the hash is computed once, when the key is made, and serves
    /// both the shard choice and the shard's table.
    struct Key: Hashable, Sendable {
        private let font: Int
        private let script: UInt32
        private let rightToLeft: Bool
        private let language: String?
        private let length: Int
        private let packed: (UInt64, UInt64, UInt64)
        private let long: [UInt16]  // the text when longer than 12 units, else empty
        private let hash: Int

        init(font: Int, script: UInt32, rightToLeft: Bool, language: String?, text: UnsafeBufferPointer<UInt16>) {
            self.font = font
            self.script = script
            self.rightToLeft = rightToLeft
            self.language = language
            length = text.count
            var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
            if text.count <= 12 {
                withUnsafeMutableBytes(of: &words) { raw in
                    raw.copyMemory(from: UnsafeRawBufferPointer(text))
                }
                long = []
            } else {
                long = Array(text)
            }
            packed = words
            // As few combines as the key needs (a feed looks up a few hundred words per
            // post): font and script in one word, length and direction in another, then
            // only the packed words the text reaches (the length tells how many), or the
            // bytes of a long word.
            var hasher = Hasher()
            hasher.combine(UInt64(UInt32(truncatingIfNeeded: font)) << 32 | UInt64(script))
            hasher.combine(text.count << 1 | (rightToLeft ? 1 : 0))
            if let language { hasher.combine(language) }
            if text.count > 12 {
                hasher.combine(bytes: UnsafeRawBufferPointer(text))
            } else {
                hasher.combine(words.0)
                if text.count > 4 { hasher.combine(words.1) }
                if text.count > 8 { hasher.combine(words.2) }
            }
            hash = hasher.finalize()
        }

        /// Bytes the key holds beyond its own size.
        var heapBytes: Int { long.count * 2 }

        static func == (a: Key, b: Key) -> Bool {
            a.hash == b.hash && a.length == b.length && a.font == b.font && a.script == b.script
                && a.rightToLeft == b.rightToLeft && a.packed == b.packed && a.language == b.language && a.long == b.long
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
        var hashValue: Int { hash }
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

    func insert(_ word: ShapedWord, for key: Key) { cache.insert(word, for: key, cost: word.byteCount + key.heapBytes) }

    func recordShaping() { shapings.add(1, ordering: .relaxed) }

    /// Hits, misses, evictions and size.
    public var statistics: CacheStatistics { cache.statistics }

    /// Number of HarfBuzz shaping calls made through this cache (each miss is one).
    public var shapingCount: Int { shapings.load(ordering: .relaxed) }

    /// Drops every entry (counters stay).
    public func removeAll() { cache.removeAll() }
}
