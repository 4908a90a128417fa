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
    /// Sum of all advances.
    let totalAdvance: Int32

    init(glyphs: [UInt32], advances: [Int32], xOffsets: [Int32], yOffsets: [Int32], clusters: [Int32],
         length: Int, rightToLeft: Bool, trailingSpaceStart: Int32? = nil) {
        self.glyphs = glyphs
        self.advances = advances
        self.xOffsets = xOffsets
        self.yOffsets = yOffsets
        self.clusters = clusters
        self.length = length
        self.rightToLeft = rightToLeft
        self.trailingSpaceStart = trailingSpaceStart ?? Int32(length)
        totalAdvance = advances.reduce(0, &+)
    }

    /// The same glyphs with the hanging-space start of the text they were shaped from.
    func with(trailingSpaceStart: Int32) -> ShapedWord {
        ShapedWord(glyphs: glyphs, advances: advances, xOffsets: xOffsets, yOffsets: yOffsets,
                   clusters: clusters, length: length, rightToLeft: rightToLeft,
                   trailingSpaceStart: trailingSpaceStart)
    }

    /// Approximate memory held, for the cache's byte bound.
    var byteCount: Int { glyphs.count * 20 + 96 }
}
