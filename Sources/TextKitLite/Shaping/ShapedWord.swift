/// One word (the text between two line-break opportunities, within one run) shaped by
/// HarfBuzz, in font units: independent of point size, so one cached entry serves every
/// size of the same font.
///
/// Glyphs are in HarfBuzz's output order: visual, so reversed for right-to-left words.
/// Clusters are UTF-16 offsets from the word's start.
final class ShapedWord: Sendable {
    let glyphs: [UInt32]
    let advances: [Int32]
    let xOffsets: [Int32]
    let yOffsets: [Int32]
    let clusters: [Int32]
    /// UTF-16 length of the word.
    let length: Int
    let rightToLeft: Bool
    /// Offset where the word's trailing hanging spaces begin (`length` when there are none).
    let trailingSpaceStart: Int32
    /// `prefixAdvances[i]` is the sum of the advances of glyphs `0..<i`: the width of any
    /// glyph range in O(1), so cutting a very long word line by line stays linear.
    let prefixAdvances: [Int64]
    /// Glyph indices of the trailing hanging spaces (a suffix for left-to-right words, a
    /// prefix for right-to-left ones, whose glyphs are in visual order).
    let hangingGlyphs: Range<Int>

    init(glyphs: [UInt32], advances: [Int32], xOffsets: [Int32], yOffsets: [Int32], clusters: [Int32],
         length: Int, rightToLeft: Bool, trailingSpaceStart: Int32? = nil) {
        self.glyphs = glyphs
        self.advances = advances
        self.xOffsets = xOffsets
        self.yOffsets = yOffsets
        self.clusters = clusters
        self.length = length
        self.rightToLeft = rightToLeft
        let spaceStart = trailingSpaceStart ?? Int32(length)
        self.trailingSpaceStart = spaceStart
        var sums = [Int64](repeating: 0, count: advances.count + 1)
        for (i, advance) in advances.enumerated() { sums[i + 1] = sums[i] + Int64(advance) }
        prefixAdvances = sums
        if rightToLeft {
            hangingGlyphs = 0..<(clusters.firstIndex { $0 < spaceStart } ?? clusters.count)
        } else {
            hangingGlyphs = (clusters.lastIndex { $0 < spaceStart }.map { $0 + 1 } ?? 0)..<clusters.count
        }
    }

    /// Sum of the advances of a glyph range, in font units.
    func advance(of range: Range<Int>) -> Int64 { prefixAdvances[range.upperBound] - prefixAdvances[range.lowerBound] }

    /// The same glyphs with the hanging-space start of the text they were shaped from.
    func with(trailingSpaceStart: Int32) -> ShapedWord {
        ShapedWord(glyphs: glyphs, advances: advances, xOffsets: xOffsets, yOffsets: yOffsets,
                   clusters: clusters, length: length, rightToLeft: rightToLeft,
                   trailingSpaceStart: trailingSpaceStart)
    }

    /// Approximate memory held, for the cache's byte bound.
    var byteCount: Int { glyphs.count * 20 + 96 }
}
