/// A slice of a shaped word placed in the text: the unit line breaking works with.
///
/// A piece lies within one run (one style, font, script and bidi level) and between two
/// line-break opportunities; an emergency break or a truncation can cut it further at a
/// cluster boundary without reshaping.
///
/// A word of one unit that shaped to one plain glyph (a Chinese character, most often) is
/// held by value, as a lone glyph from `LoneGlyphTable`, not by a reference to a cached
/// `ShapedWord`: making, copying and freeing such a piece touches no shared object. So is,
/// for a line counter alone, a whole word known by its extents (`WordExtentsMemo`): such a
/// piece has a width but no glyphs, and is never drawn or cut.
struct ShapedPiece: Sendable {
    /// UTF-16 range of the piece in the text.
    var start: Int32
    var end: Int32
    /// Text offset of the shaped word's cluster 0.
    var wordStart: Int32
    /// Glyph index range into `word`'s arrays (HarfBuzz output order); 0..<1 for a lone
    /// glyph, 0..<0 for a word known by its extents.
    var glyphStart: Int32
    var glyphEnd: Int32
    /// The shaped word; nil for a lone glyph.
    let word: ShapedWord?
    /// The lone glyph's ID (unused with a word).
    private let loneGlyph: UInt32
    /// Index of the font in the fallback chain the text was shaped with; -1 when the font
    /// is a style's own (only with a word, which holds its font).
    let fontIndex: Int16
    /// Bidi embedding level (odd: right-to-left).
    var level: UInt8
    /// A line may break after this piece (UAX #14 opportunity at `end`).
    var breakAfter: Bool
    /// Point size.
    let size: Double
    /// Index into the style table of the shaped text.
    var style: Int32
    /// Text offset where the trailing hanging spaces begin (`end` when there are none).
    private(set) var hangStart: Int32 = 0
    /// Width of all glyphs, in points.
    private(set) var width: Double = 0
    /// Width of the trailing hanging spaces, in points (≤ `width`).
    private(set) var hang: Double = 0

    /// A piece holding a whole shaped word.
    init(word: ShapedWord, start: Int32, fontIndex: Int, size: Double, style: Int32, level: UInt8, breakAfter: Bool) {
        self.word = word
        self.start = start
        self.end = start + Int32(word.length)
        self.wordStart = start
        self.glyphStart = 0
        self.glyphEnd = word.glyphCount
        self.loneGlyph = 0
        self.fontIndex = fontIndex <= Int(Int16.max) ? Int16(fontIndex) : -1  // past it: known by the word
        self.size = size
        self.style = style
        self.level = level
        self.breakAfter = breakAfter
        measure()
    }

    /// A piece of one unit shaped to a lone glyph of chain font `fontIndex` (0...Int16.max),
    /// left to right.
    ///
    /// Measured as the same word held by reference would be, to the bit.
    init(lone glyph: LoneGlyphTable.Glyph, unit: UInt16, start: Int32, fontIndex: Int, unitsPerEm: Int,
         size: Double, style: Int32, level: UInt8, breakAfter: Bool) {
        word = nil
        self.start = start
        end = start + 1
        wordStart = start
        glyphStart = 0
        glyphEnd = 1
        loneGlyph = glyph.id
        self.fontIndex = Int16(fontIndex)
        self.size = size
        self.style = style
        self.level = level
        self.breakAfter = breakAfter
        width = Double(Int64(glyph.advance)) * (size / Double(unitsPerEm))
        if UnicodeProperties.isHangingSpace(unit) {
            hangStart = start
            hang = width
        } else {
            hangStart = end
        }
    }

    /// A whole word of chain font `fontIndex` (0...Int16.max) known by its extents alone,
    /// for a line counter.
    ///
    /// Measured as the word held by reference is, to the bit.
    init(extents: WordExtents, start: Int32, fontIndex: Int, unitsPerEm: Int, size: Double, style: Int32, level: UInt8,
         breakAfter: Bool) {
        word = nil
        self.start = start
        end = start + extents.length
        wordStart = start
        glyphStart = 0
        glyphEnd = 0
        loneGlyph = 0
        self.fontIndex = Int16(fontIndex)
        self.size = size
        self.style = style
        self.level = level
        self.breakAfter = breakAfter
        measureWhole(extents, scale: size / Double(unitsPerEm))
    }

    /// The font the piece was shaped with, `chain` being the text's fallback chain.
    func font(in chain: FontFallbackChain) -> Font {
        word?.font ?? chain.fonts[Int(fontIndex)]
    }

    /// True when both pieces were shaped with the same font (of `chain`).
    func hasSameFont(as other: ShapedPiece, in chain: FontFallbackChain) -> Bool {
        if fontIndex >= 0, other.fontIndex >= 0 { return fontIndex == other.fontIndex }
        return font(in: chain) === other.font(in: chain)
    }

    /// Points per font unit of a piece holding a word.
    private func scale(_ word: ShapedWord) -> Double { size / Double(word.font.unitsPerEm) }

    var isRightToLeft: Bool { level & 1 == 1 }

    /// True when the piece holds nothing but hanging spaces.
    var isAllSpace: Bool { hangStart <= start }

    /// - Complexity: O(1) from the word's prefix sums (O(log n) for inner white space).
    private mutating func measure() {
        guard let word else { return }  // a lone glyph is measured when made, and never cut
        let scale = scale(word)
        if start == wordStart, glyphStart == 0, glyphEnd == word.glyphCount, end == wordStart + Int32(word.length) {
            measureWhole(word.extents, scale: scale)
            return
        }
        let glyphs = Int(glyphStart)..<Int(glyphEnd)
        width = Double(word.advance(of: glyphs)) * scale
        let hanging = word.hangingStart(from: start - wordStart, to: end - wordStart)
        hangStart = wordStart + hanging
        hang = hanging == end - wordStart ? 0 : Double(word.advance(of: word.glyphs(from: hanging, in: glyphs))) * scale
    }

    /// Measures the whole word: its hanging spaces are its trailing ones.
    @inline(__always)
    private mutating func measureWhole(_ extents: WordExtents, scale: Double) {
        width = Double(extents.totalAdvance) * scale
        hangStart = wordStart + extents.trailingSpaceStart
        hang = extents.trailingSpaceStart == extents.length ? 0 : Double(extents.hangingAdvance) * scale
    }

    /// Visits the piece's glyphs in HarfBuzz order (visual): ID, offsets and advance in
    /// points, and word offset of the glyph's cluster.
    func forEachGlyph(_ body: (_ glyph: UInt32, _ x: Double, _ y: Double, _ advance: Double, _ cluster: Int32, _ endsCluster: Bool) -> Void) {
        guard let word else {
            assert(glyphEnd == 1, "a word known by its extents is never drawn")
            // Computed as for a word (an offset of 0 scaled), so both kinds place alike.
            body(loneGlyph, 0, -0.0, width, 0, true)
            return
        }
        let scale = scale(word)
        for g in Int(glyphStart)..<Int(glyphEnd) {
            let endsCluster = g + 1 == Int(glyphEnd) || word.clusters[g + 1] != word.clusters[g]
            body(word.glyphs[g], Double(word.xOffsets[g]) * scale, -Double(word.yOffsets[g]) * scale,
                 Double(word.advances[g]) * scale, word.clusters[g], endsCluster)
        }
    }

    /// The run of hanging white space of the piece's word holding text offset `offset`,
    /// as word offsets (from `wordStart`), if any.
    func whiteSpaceRun(containing offset: Int32) -> Range<Int32>? {
        guard let word else { return isAllSpace && offset == wordStart ? 0..<1 : nil }
        return word.whiteSpaceRun(containing: offset - wordStart)
    }

    /// Visits each HarfBuzz cluster of the piece in logical order with its text offset and
    /// advance in points, until `body` returns false. A cluster is the smallest unit a line
    /// can be cut at.
    ///
    /// - Returns: false when `body` stopped the walk.
    @discardableResult
    func forEachCluster(_ body: (_ offset: Int32, _ advance: Double) -> Bool) -> Bool {
        guard let word else { return body(wordStart, width) }
        let scale = scale(word)
        let count = Int(glyphEnd - glyphStart)
        var k = 0
        while k < count {
            let i = word.rightToLeft ? Int(glyphEnd) - 1 - k : Int(glyphStart) + k
            let cluster = word.clusters[i]
            var units = word.advances[i]
            k += 1
            // Glyphs of one cluster are adjacent in either direction.
            while k < count {
                let j = word.rightToLeft ? Int(glyphEnd) - 1 - k : Int(glyphStart) + k
                guard word.clusters[j] == cluster else { break }
                units &+= word.advances[j]
                k += 1
            }
            if !body(wordStart + cluster, Double(units) * scale) { return false }
        }
        return true
    }

    /// True when a cluster of the piece starts at text offset `offset`.
    ///
    /// - Complexity: O(log n) in the piece's glyphs.
    func startsCluster(at offset: Int32) -> Bool {
        guard let word else { return offset == wordStart }
        let range = word.glyphs(from: offset - wordStart, in: Int(glyphStart)..<Int(glyphEnd))
        guard !range.isEmpty else { return false }
        return word.clusters[word.rightToLeft ? range.upperBound - 1 : range.lowerBound] == offset - wordStart
    }

    /// Cuts the piece at a text offset that starts one of its clusters.
    ///
    /// - Returns: the logical first and second parts, or nil when `offset` is not strictly
    ///   inside the piece.
    func split(at offset: Int32) -> (ShapedPiece, ShapedPiece)? {
        guard offset > start, offset < end, let word else { return nil }
        let relative = offset - wordStart
        var k = glyphStart
        if word.rightToLeft {
            while k < glyphEnd, word.clusters[Int(k)] >= relative { k += 1 }
        } else {
            while k < glyphEnd, word.clusters[Int(k)] < relative { k += 1 }
        }
        var first = self, second = self
        first.end = offset
        first.breakAfter = false
        second.start = offset
        if word.rightToLeft {
            second.glyphEnd = k
            first.glyphStart = k
        } else {
            first.glyphEnd = k
            second.glyphStart = k
        }
        first.measure()
        second.measure()
        return (first, second)
    }
}
