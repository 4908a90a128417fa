import Synchronization

/// What shaping a word of one UTF-16 unit gave, by code unit, for one font and script,
/// left to right, without a language: the word cache's answer for the commonest words of
/// all (every Chinese character is a word of its own), one load away instead of a hashed,
/// locked lookup, and held by value, so a piece made from it retains nothing.
///
/// An entry is filled once from the word the cache holds (or HarfBuzz just shaped) for that
/// unit: a "lone glyph" (one glyph, cluster 0, no offset) is kept with its advance; any other
/// result is marked so that the unit goes to the word cache directly. Shaping one unit is a
/// function of the font, script, direction and language, so racing writers store the same
/// value, and an entry never needs to be evicted.
///
/// Memory: pages of 256 entries (2 KB) are allocated when a unit in them is first seen; at
/// most 256 pages (512 KB) per table. Chinese text touches about 80.
final class LoneGlyphTable: @unchecked Sendable {
    // @unchecked: `pages` is allocated and initialized in `init`, never reassigned, freed in
    // `deinit`. A page pointer is published with a compare-exchange and never replaced or
    // freed before `deinit`; every entry of a page is read and written through `Atomic`.
    // So threads sharing a table never race.

    /// A lone glyph: its glyph ID and advance in font units.
    struct Glyph {
        var id: UInt32
        var advance: Int32
    }

    /// The entry of one code unit.
    enum Entry {
        case unknown
        /// Shaping gave something else than one plain glyph: use the word cache.
        case notLone
        case lone(Glyph)
    }

    let fontID: Int
    let script: UInt32
    private static let pageCount = 256
    private static let pageSize = 256
    private let pages: UnsafeMutablePointer<Atomic<UnsafeMutablePointer<Atomic<UInt64>>?>>

    // Entry encoding: bit 63 known, bit 62 lone, bits 32–47 glyph ID, bits 0–31 advance.
    private static let known: UInt64 = 1 << 63
    private static let lone: UInt64 = 1 << 62

    init(fontID: Int, script: UInt32) {
        self.fontID = fontID
        self.script = script
        pages = .allocate(capacity: Self.pageCount)
        for i in 0..<Self.pageCount { (pages + i).initialize(to: Atomic(nil)) }
    }

    deinit {
        for i in 0..<Self.pageCount {
            if let page = pages[i].load(ordering: .acquiring) {
                page.deinitialize(count: Self.pageSize)
                page.deallocate()
            }
        }
        pages.deinitialize(count: Self.pageCount)
        pages.deallocate()
    }

    /// What is known of `unit`.
    @inline(__always)
    func entry(_ unit: UInt16) -> Entry {
        guard let page = pages[Int(unit >> 8)].load(ordering: .acquiring) else { return .unknown }
        let bits = page[Int(unit & 0xFF)].load(ordering: .relaxed)
        if bits & Self.lone != 0 {
            return .lone(Glyph(id: UInt32(truncatingIfNeeded: bits >> 32) & 0xFFFF,
                               advance: Int32(truncatingIfNeeded: bits)))
        }
        return bits & Self.known != 0 ? .notLone : .unknown
    }

    /// Records what shaping `unit` alone gave and returns it as an entry.
    @discardableResult
    func remember(_ word: ShapedWord, for unit: UInt16) -> Entry {
        var bits = Self.known
        var entry = Entry.notLone
        if word.glyphCount == 1, word.length == 1, word.clusters[0] == 0, word.xOffsets[0] == 0,
           word.yOffsets[0] == 0, word.glyphs[0] <= 0xFFFF {
            let glyph = Glyph(id: word.glyphs[0], advance: word.advances[0])
            bits |= Self.lone | UInt64(glyph.id) << 32 | UInt64(UInt32(bitPattern: glyph.advance))
            entry = .lone(glyph)
        }
        page(for: unit)[Int(unit & 0xFF)].store(bits, ordering: .relaxed)
        return entry
    }

    /// The page holding `unit`, allocated (zeroed: every entry unknown) when first needed.
    private func page(for unit: UInt16) -> UnsafeMutablePointer<Atomic<UInt64>> {
        let slot = Int(unit >> 8)
        if let page = pages[slot].load(ordering: .acquiring) { return page }
        let fresh = UnsafeMutablePointer<Atomic<UInt64>>.allocate(capacity: Self.pageSize)
        for i in 0..<Self.pageSize { (fresh + i).initialize(to: Atomic(0)) }
        let (exchanged, current) = pages[slot].compareExchange(
            expected: nil, desired: fresh, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
        if exchanged { return fresh }
        fresh.deinitialize(count: Self.pageSize)
        fresh.deallocate()
        return current!
    }
}
