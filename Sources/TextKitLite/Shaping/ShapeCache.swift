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
            // A feed looks up a few hundred words per post: the packed words are folded with
            // two or three wide multiplications (as wyhash does) under a per-process random
            // seed, instead of SipHash; a language tag or a long word's bytes, both rare, go
            // through `Hasher`.
            let header = UInt64(UInt32(truncatingIfNeeded: font)) << 32 | UInt64(script)
            let shape = UInt64(text.count << 1 | (rightToLeft ? 1 : 0))
            // Every operand is seeded: text cannot be chosen to zero one of them.
            var folded = Self.fold(words.0 ^ Self.seed.0, words.1 ^ header ^ Self.seed.1)
            folded = Self.fold(folded ^ words.2 ^ Self.seed.2, shape ^ Self.seed.3)
            if language != nil || text.count > 12 {
                var hasher = Hasher()
                hasher.combine(folded)
                if let language { hasher.combine(language) }
                if text.count > 12 { hasher.combine(bytes: UnsafeRawBufferPointer(text)) }
                hash = hasher.finalize()
            } else {
                hash = Int(truncatingIfNeeded: folded)
            }
        }

        private static let seed: (UInt64, UInt64, UInt64, UInt64) = {
            var generator = SystemRandomNumberGenerator()
            return (generator.next(), generator.next(), generator.next(), generator.next())
        }()

        /// The two halves of the 128-bit product, xored.
        @inline(__always)
        private static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
            let product = a.multipliedFullWidth(by: b)
            return product.high ^ product.low
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
