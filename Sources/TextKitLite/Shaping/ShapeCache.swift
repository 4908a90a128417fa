import Synchronization

/// The shaped-word cache shared by every text an engine lays out (as Android's minikin
/// LayoutCache): a word shaped once is reused wherever it appears again with the same
/// font, script, direction and language, at any point size.
///
/// Thread-safe and bounded by entries and bytes (words not used lately go first). Words of
/// one UTF-16 unit that shape to one plain glyph are also kept, by value, in lone-glyph
/// tables per font and script (`LoneGlyphTable`: at most 16 tables of at most 512 KB).
public final class ShapeCache: Sendable {
    /// What a shaped word depends on. The text of a word of up to 12 UTF-16 units (every
    /// CJK character, most words of alphabetic scripts) is packed into the key itself, and
    /// a language tag or a longer text, both rare, sit in one optional object: making,
    /// hashing and comparing the common key allocates nothing and retains nothing. The hash
    /// is computed once, when the key is made, and serves both the shard choice and the
    /// shard's table.
    struct Key: Hashable, Sendable {
        let font: Int
        let script: UInt32
        /// Bit 0: right to left; bit 1: top to bottom (upright in vertical text). One byte,
        /// so the key stays as small, and compares as fast, as with the direction alone.
        let direction: UInt8
        let length: Int
        /// The text's units, four to a word, when it is 12 units or fewer.
        let packed: (UInt64, UInt64, UInt64)
        private let extra: Extra?
        private let hash: Int

        /// The language and the text of a longer word.
        private final class Extra: Sendable {
            let language: String?
            let long: [UInt16]  // the text when longer than 12 units, else empty
            init(language: String?, long: [UInt16]) {
                self.language = language
                self.long = long
            }
        }

        @inline(__always)
        init(font: Int, script: UInt32, rightToLeft: Bool, upright: Bool = false, language: String?, text: UnsafeBufferPointer<UInt16>,
             seed: (UInt64, UInt64, UInt64, UInt64)) {
            self.font = font
            self.script = script
            direction = (upright ? 2 : 0) | (rightToLeft ? 1 : 0)
            length = text.count
            var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
            if text.count <= 12 {
                for (i, unit) in text.enumerated() {
                    let bits = UInt64(unit) << UInt64((i & 3) * 16)
                    switch i >> 2 {
                    case 0: words.0 |= bits
                    case 1: words.1 |= bits
                    default: words.2 |= bits
                    }
                }
            }
            packed = words
            // The packed words are folded (`WideFold`) under the cache's random seed; a
            // language tag or a long word's bytes go through `Hasher`.
            let header = UInt64(UInt32(truncatingIfNeeded: font)) << 32 | UInt64(script)
            let shape = UInt64(text.count << 2 | Int(direction))
            var folded = WideFold.fold(words.0 ^ seed.0, words.1 ^ header ^ seed.1)
            folded = WideFold.fold(folded ^ words.2 ^ seed.2, shape ^ seed.3)
            if language != nil || text.count > 12 {
                (extra, hash) = Self.extra(language: language, text: text, folded: folded)
            } else {
                extra = nil
                hash = Int(truncatingIfNeeded: folded)
            }
        }

        /// The rare part of a key (a language tag or a long word) and its hash: out of line,
        /// so that the common key is made inline in the itemizer's loop.
        @inline(never)
        private static func extra(language: String?, text: UnsafeBufferPointer<UInt16>, folded: UInt64) -> (Extra, Int) {
            var hasher = Hasher()
            hasher.combine(folded)
            if let language { hasher.combine(language) }
            if text.count > 12 { hasher.combine(bytes: UnsafeRawBufferPointer(text)) }
            return (Extra(language: language, long: text.count > 12 ? Array(text) : []), hasher.finalize())
        }

        /// True when the key is its fields alone: no language, text packed.
        var isPacked: Bool { extra == nil }

        /// Bytes the key holds beyond its own size.
        var heapBytes: Int { extra.map { 48 + $0.long.count * 2 } ?? 0 }

        static func == (a: Key, b: Key) -> Bool {
            guard a.hash == b.hash, a.length == b.length, a.font == b.font, a.script == b.script,
                  a.direction == b.direction, a.packed == b.packed else { return false }
            switch (a.extra, b.extra) {
            case (nil, nil): return true
            case let (x?, y?): return x.language == y.language && x.long == y.long
            default: return false
            }
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
        var hashValue: Int { hash }
    }

    /// The seed of the keys' hash, random per cache.
    let seed: (UInt64, UInt64, UInt64, UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next(), generator.next(), generator.next())
    }()

    private let cache: BoundedCache<Key, ShapedWord>
    private let shapings = Atomic<Int>(0)
    /// Lone-glyph tables by font and script (a handful: one per font and script a text
    /// uses), at most `maxLoneTables`; and the words they answered, counted as hits.
    private let loneTables = Locked<[LoneGlyphTable]>([])
    private let maxLoneTables: Int
    /// Words answered by value (a lone-glyph table), counted as hits.
    private let valueHits = Atomic<Int>(0)

    /// - Parameters:
    ///   - maxEntries: most words held at once.
    ///   - maxBytes: most memory held by the shaped glyphs.
    public convenience init(maxEntries: Int = 200_000, maxBytes: Int = 64 << 20) {
        self.init(maxEntries: maxEntries, maxBytes: maxBytes, loneTables: 16)
    }

    /// A cache with at most `loneTables` lone-glyph tables (0: every word through the cache).
    init(maxEntries: Int = 200_000, maxBytes: Int = 64 << 20, loneTables: Int) {
        cache = BoundedCache(maxCount: maxEntries, maxCost: maxBytes, shards: 16)
        maxLoneTables = loneTables
    }

    @inline(__always)
    func word(for key: Key) -> ShapedWord? { cache.value(for: key) }

    func insert(_ word: ShapedWord, for key: Key) { cache.insert(word, for: key, cost: word.byteCount + key.heapBytes) }

    func recordShaping() { shapings.add(1, ordering: .relaxed) }

    /// The lone-glyph table of a font and script, made on first use; nil once
    /// `maxLoneTables` exist (words of further fonts and scripts use the cache alone).
    func loneGlyphs(font: Int, script: UInt32) -> LoneGlyphTable? {
        loneTables.withLock { tables in
            if let table = tables.first(where: { $0.fontID == font && $0.script == script }) { return table }
            guard tables.count < maxLoneTables else { return nil }
            let table = LoneGlyphTable(fontID: font, script: script)
            tables.append(table)
            return table
        }
    }

    /// Counts words answered by value (a lone-glyph table) as cache hits.
    func recordValueHits(_ count: Int) {
        if count > 0 { valueHits.add(count, ordering: .relaxed) }
    }

    /// Hits (answers by value included), misses, evictions and size.
    public var statistics: CacheStatistics {
        var statistics = cache.statistics
        statistics.hits += valueHits.load(ordering: .relaxed)
        return statistics
    }

    /// Number of HarfBuzz shaping calls made through this cache (each miss is one).
    public var shapingCount: Int { shapings.load(ordering: .relaxed) }

    /// Drops every entry (counters stay).
    public func removeAll() {
        cache.removeAll()
        loneTables.withLock { $0.removeAll() }
    }
}
