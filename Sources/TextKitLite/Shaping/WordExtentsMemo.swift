import Synchronization

/// What measuring a whole shaped word needs, in font units: its advance, that of its
/// trailing hanging spaces, its length and where those spaces begin.
struct WordExtents: Equatable {
    var totalAdvance: Int64
    var hangingAdvance: Int64
    var length: Int32
    var trailingSpaceStart: Int32
}

/// The extents of the words line counting measures, by value, in front of the shaped-word
/// cache: a lookup reads one 64-byte cache line, takes no lock and retains nothing.
///
/// Measuring a warm feed is mostly word-cache hits, and a hit in the cache itself touches
/// a table slot, a node of about 100 bytes over two or three cache lines and the word's
/// object (retained, then released): with a few thousand words, more lines than the core's
/// cache holds. An entry here holds the key (a word of up to 12 UTF-16 units, as
/// `ShapeCache.Key` packs it, its font, script and direction) and the extents in eight
/// words, aligned to a line.
///
/// A memo, not a cache: a fixed number of entries (two candidate entries per key, in one
/// 128-byte pair); a new word replaces one of its pair. A word it forgot is looked up in
/// the cache again (or shaped again, if the cache let it go too) and remembered; a word
/// shapes the same every time (its key names the font object, never reused), so an entry
/// is never stale. Not counted in the cache's bounds: its size is fixed.
final class WordExtentsMemo: @unchecked Sendable {
    // @unchecked: `words` is allocated and initialized in `init`, never reassigned, freed in
    // `deinit`; every word is read and written through `Atomic`. An entry's words are read
    // as one value under its sequence word (a seqlock: odd while a writer holds the entry;
    // a reader keeps what it read only when the word was even and unchanged around its
    // reads), and writers take an entry by compare-exchange. So threads never race.

    private static let wordsPerEntry = 8
    /// Entry layout: sequence, the key's three packed text words, font and script, shape
    /// (valid bit, length, direction, trailing space start), total and hanging advance.
    private let words: UnsafeMutablePointer<Atomic<UInt64>>
    private let entryCount: Int
    /// 64 minus log2(entryCount): a hash's top bits pick its pair.
    private let shift: UInt64

    private static let valid: UInt64 = 1 << 63
    /// The bits of the shape word that belong to the key (valid, length, direction).
    private static let keyShapeBits: UInt64 = valid | 0x1FF

    /// - Parameter entries: entries held, rounded up to a power of two (at least 2).
    init(entries: Int = 16_384) {
        var count = 2
        while count < entries { count *= 2 }
        entryCount = count
        shift = UInt64(64 - count.trailingZeroBitCount)
        let raw = UnsafeMutableRawPointer.allocate(byteCount: count * Self.wordsPerEntry * 8, alignment: 64)
        words = raw.bindMemory(to: Atomic<UInt64>.self, capacity: count * Self.wordsPerEntry)
        for i in 0..<(count * Self.wordsPerEntry) { (words + i).initialize(to: Atomic(0)) }
    }

    deinit {
        words.deinitialize(count: entryCount * Self.wordsPerEntry)
        UnsafeMutableRawPointer(words).deallocate()
    }

    /// The key's words as an entry holds them: nil for a key the memo does not take (a
    /// language tag, a word longer than 12 units, a font ID past 32 bits).
    @inline(__always)
    private static func keyWords(_ key: ShapeCache.Key) -> (UInt64, UInt64, UInt64, UInt64, UInt64)? {
        guard key.isPacked, key.font >= 0, key.font <= Int(UInt32.max) else { return nil }
        return (key.packed.0, key.packed.1, key.packed.2, UInt64(key.font) | UInt64(key.script) << 32,
                valid | UInt64(key.length) | (key.rightToLeft ? 0x100 : 0))
    }

    /// The first entry of the key's pair.
    @inline(__always)
    private func pair(_ key: ShapeCache.Key) -> Int {
        Int(truncatingIfNeeded: (UInt64(UInt(bitPattern: key.hashValue)) &* 0x9E37_79B9_7F4A_7C15) >> shift) & ~1
    }

    /// The extents remembered for `key`, if any.
    @inline(__always)
    func extents(for key: ShapeCache.Key) -> WordExtents? {
        guard let wanted = Self.keyWords(key) else { return nil }
        let first = pair(key)
        return read(first, wanted) ?? read(first + 1, wanted)
    }

    @inline(__always)
    private func read(_ index: Int, _ wanted: (UInt64, UInt64, UInt64, UInt64, UInt64)) -> WordExtents? {
        let entry = words + index * Self.wordsPerEntry
        let sequence = entry[0].load(ordering: .acquiring)
        let w1 = entry[1].load(ordering: .relaxed), w2 = entry[2].load(ordering: .relaxed)
        let w3 = entry[3].load(ordering: .relaxed), w4 = entry[4].load(ordering: .relaxed)
        let w5 = entry[5].load(ordering: .relaxed), w6 = entry[6].load(ordering: .relaxed)
        let w7 = entry[7].load(ordering: .relaxed)
        atomicMemoryFence(ordering: .acquiring)
        guard sequence & 1 == 0, entry[0].load(ordering: .relaxed) == sequence,
              w1 == wanted.0, w2 == wanted.1, w3 == wanted.2, w4 == wanted.3, w5 & Self.keyShapeBits == wanted.4
        else { return nil }
        return WordExtents(totalAdvance: Int64(bitPattern: w6), hangingAdvance: Int64(bitPattern: w7),
                           length: Int32(w5 & 0xFF), trailingSpaceStart: Int32((w5 >> 16) & 0xFF))
    }

    /// Remembers the extents of the word of `key`, in the free entry of its pair, else in
    /// one picked by the hash. Skipped when the key does not fit, or when another thread is
    /// writing that entry.
    func insert(_ extents: WordExtents, for key: ShapeCache.Key) {
        guard let wanted = Self.keyWords(key), extents.length == Int32(key.length),
              (0...0xFF).contains(extents.trailingSpaceStart) else { return }
        let first = pair(key)
        var index = first + Int(UInt(bitPattern: key.hashValue) & 1)
        if (words + first * Self.wordsPerEntry)[5].load(ordering: .relaxed) & Self.valid == 0 {
            index = first
        } else if (words + (first + 1) * Self.wordsPerEntry)[5].load(ordering: .relaxed) & Self.valid == 0 {
            index = first + 1
        }
        write(index) { entry in
            entry[1].store(wanted.0, ordering: .relaxed)
            entry[2].store(wanted.1, ordering: .relaxed)
            entry[3].store(wanted.2, ordering: .relaxed)
            entry[4].store(wanted.3, ordering: .relaxed)
            entry[5].store(wanted.4 | UInt64(extents.trailingSpaceStart) << 16, ordering: .relaxed)
            entry[6].store(UInt64(bitPattern: extents.totalAdvance), ordering: .relaxed)
            entry[7].store(UInt64(bitPattern: extents.hangingAdvance), ordering: .relaxed)
        }
    }

    /// Forgets every entry.
    func removeAll() {
        for index in 0..<entryCount {
            write(index) { entry in entry[5].store(0, ordering: .relaxed) }
        }
    }

    /// Runs `body` on entry `index` as its only writer, readers seeing it as busy; does
    /// nothing when another thread is writing it.
    @inline(__always)
    private func write(_ index: Int, _ body: (UnsafeMutablePointer<Atomic<UInt64>>) -> Void) {
        let entry = words + index * Self.wordsPerEntry
        let sequence = entry[0].load(ordering: .relaxed)
        guard sequence & 1 == 0,
              entry[0].compareExchange(expected: sequence, desired: sequence &+ 1, ordering: .acquiring).exchanged
        else { return }
        atomicMemoryFence(ordering: .releasing)
        body(entry)
        entry[0].store(sequence &+ 2, ordering: .releasing)
    }
}
