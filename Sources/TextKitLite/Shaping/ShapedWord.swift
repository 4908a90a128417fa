/// One word (the text between two line-break opportunities, within one run) shaped by
/// HarfBuzz, in font units: independent of point size, so one cached entry serves every
/// size of the same font.
///
/// Glyphs are in HarfBuzz's output order: visual, so reversed for right-to-left words.
/// Clusters are UTF-16 offsets from the word's start.
final class ShapedWord: Sendable {
    // Stored properties in the order line breaking reads them: a piece made from a cached
    // word reads only the first 64 bytes of the object (its header, then these), one cache
    // line; the arrays are reached only to cut a word or to draw it.
    /// Number of glyphs, their total advance and that of `hangingGlyphs` (font units): a
    /// whole word, almost every piece, is measured from the word object alone, without
    /// reaching into (and retaining) its arrays, which every thread laying out shares.
    let totalAdvance: Int64
    let hangingAdvance: Int64
    /// The font it was shaped with. Held here, once per word, rather than by every piece
    /// of text that uses the word: a piece retains one object, not two, and the few fonts
    /// every thread uses are not retained and released for each piece.
    let font: Font
    /// UTF-16 length of the word.
    let length: Int32
    let glyphCount: Int32
    /// Offset where the word's trailing hanging spaces begin (`length` when there are none).
    let trailingSpaceStart: Int32
    let rightToLeft: Bool
    /// Shaped top to bottom, upright in vertical text: advances are vertical, and each glyph's
    /// offsets place its vertical origin (see `HarfBuzzShaper.shape`).
    let upright: Bool
    let glyphs: [UInt32]
    let advances: [Int32]
    let xOffsets: [Int32]
    let yOffsets: [Int32]
    let clusters: [Int32]
    /// Other runs of hanging white space, ascending: white space glued to what follows it
    /// (UAX #14 allows no break in "x   」"), which hangs when a line is cut right after it.
    /// Empty for almost every word.
    let innerSpaceRuns: [Range<Int32>]
    /// `prefixAdvances[i]` is the sum of the advances of glyphs `0..<i`: the width of any
    /// glyph range in O(1), so cutting a very long word line by line stays linear.
    let prefixAdvances: [Int64]
    /// Glyph indices of the trailing hanging spaces (a suffix for left-to-right words, a
    /// prefix for right-to-left ones, whose glyphs are in visual order).
    let hangingGlyphs: Range<Int>

    /// - Parameters:
    ///   - shaped: HarfBuzz's output for `units` (empty when it could not shape them).
    ///   - units: the text the word was shaped from, for its hanging white space.
    init(font: Font, shaped: ShapedGlyphs, units: UnsafeBufferPointer<UInt16>, rightToLeft: Bool, upright: Bool = false) {
        self.font = font
        glyphs = shaped.glyphs
        advances = shaped.advances
        xOffsets = shaped.xOffsets
        yOffsets = shaped.yOffsets
        clusters = shaped.clusters
        length = Int32(units.count)
        self.rightToLeft = rightToLeft
        self.upright = upright
        var runs: [Range<Int32>] = []
        var i = 0
        while i < units.count {
            guard UnicodeProperties.isHangingSpace(units[i]) else { i += 1; continue }
            let start = i
            while i < units.count, UnicodeProperties.isHangingSpace(units[i]) { i += 1 }
            runs.append(Int32(start)..<Int32(i))
        }
        var spaceStart = Int32(units.count)
        if let last = runs.last, last.upperBound == Int32(units.count) {
            spaceStart = last.lowerBound
            runs.removeLast()
        }
        trailingSpaceStart = spaceStart
        innerSpaceRuns = runs
        var sums = [Int64](filled: 0, count: advances.count + 1)
        for (i, advance) in advances.enumerated() { sums[i + 1] = sums[i] + Int64(advance) }
        prefixAdvances = sums
        let clusters = shaped.clusters
        let hanging = rightToLeft
            ? 0..<(clusters.firstIndex { $0 < spaceStart } ?? clusters.count)
            : (clusters.lastIndex { $0 < spaceStart }.map { $0 + 1 } ?? 0)..<clusters.count
        hangingGlyphs = hanging
        glyphCount = Int32(glyphs.count)
        totalAdvance = sums[advances.count]
        hangingAdvance = sums[hanging.upperBound] - sums[hanging.lowerBound]
    }

    /// Sum of the advances of a glyph range, in font units.
    func advance(of range: Range<Int>) -> Int64 { prefixAdvances[range.upperBound] - prefixAdvances[range.lowerBound] }

    /// The run of hanging white space holding word offset `offset`, if any.
    func whiteSpaceRun(containing offset: Int32) -> Range<Int32>? {
        if offset >= trailingSpaceStart { return offset < Int32(length) ? trailingSpaceStart..<Int32(length) : nil }
        let index = innerRunIndex(endingAtOrAfter: offset + 1)
        guard index < innerSpaceRuns.count, innerSpaceRuns[index].contains(offset) else { return nil }
        return innerSpaceRuns[index]
    }

    /// Where the hanging white space at the end of the word's text `start..<end` begins
    /// (not before `start`); `end` when that text does not end with white space.
    func hangingStart(from start: Int32, to end: Int32) -> Int32 {
        guard end > start else { return end }
        if end > trailingSpaceStart { return max(trailingSpaceStart, start) }
        let index = innerRunIndex(endingAtOrAfter: end)
        guard index < innerSpaceRuns.count, innerSpaceRuns[index].lowerBound < end else { return end }
        return max(innerSpaceRuns[index].lowerBound, start)
    }

    /// The glyphs of `range` whose cluster starts at or after word offset `offset` (a
    /// suffix for left-to-right words, a prefix for right-to-left ones).
    ///
    /// - Complexity: O(1) for the trailing spaces, O(log n) otherwise.
    func glyphs(from offset: Int32, in range: Range<Int>) -> Range<Int> {
        if offset == trailingSpaceStart { return hangingGlyphs.clamped(to: range) }
        var low = range.lowerBound, high = range.upperBound
        while low < high {  // first glyph past the boundary, in glyph order
            let mid = (low + high) / 2
            if (clusters[mid] >= offset) != rightToLeft { high = mid } else { low = mid + 1 }
        }
        return rightToLeft ? range.lowerBound..<low : low..<range.upperBound
    }

    /// Index of the first inner run whose end is at or after `offset`.
    private func innerRunIndex(endingAtOrAfter offset: Int32) -> Int {
        var low = 0, high = innerSpaceRuns.count
        while low < high {
            let mid = (low + high) / 2
            if innerSpaceRuns[mid].upperBound < offset { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Approximate memory held, for the cache's byte bound.
    ///
    /// Per glyph: glyph, advance, two offsets and cluster (4 bytes each) and a prefix sum (8).
    /// Fixed: the object itself (128 bytes) and the headers of its seven
    /// arrays (32 bytes each; empty arrays share one static buffer, counted anyway).
    var byteCount: Int { glyphs.count * 28 + innerSpaceRuns.count * 8 + 128 + 7 * 32 }
}
