/// A slice of a shaped word placed in the text: the unit line breaking works with.
///
/// A piece lies within one run (one style, font, script and bidi level) and between two
/// line-break opportunities; an emergency break or a truncation can cut it further at a
/// cluster boundary without reshaping.
struct ShapedPiece: Sendable {
    /// UTF-16 range of the piece in the text.
    var start: Int32
    var end: Int32
    /// Text offset of the shaped word's cluster 0.
    var wordStart: Int32
    /// Glyph index range into `word`'s arrays (HarfBuzz output order).
    var glyphStart: Int32
    var glyphEnd: Int32
    let word: ShapedWord
    /// Point size.
    let size: Double
    /// Index into the style table of the shaped text.
    let style: Int32
    /// Bidi embedding level (odd: right-to-left).
    var level: UInt8
    /// A line may break after this piece (UAX #14 opportunity at `end`).
    var breakAfter: Bool
    /// Width of all glyphs, in points.
    private(set) var width: Double = 0
    /// Width of the trailing hanging spaces, in points (≤ `width`).
    private(set) var hang: Double = 0
    /// Text offset where the trailing hanging spaces begin (`end` when there are none).
    private(set) var hangStart: Int32 = 0

    init(word: ShapedWord, start: Int32, size: Double, style: Int32, level: UInt8, breakAfter: Bool) {
        self.word = word
        self.start = start
        self.end = start + Int32(word.length)
        self.wordStart = start
        self.glyphStart = 0
        self.glyphEnd = word.glyphCount
        self.size = size
        self.style = style
        self.level = level
        self.breakAfter = breakAfter
        measure()
    }

    /// The font the piece's word was shaped with.
    var font: Font { word.font }

    /// Points per font unit.
    var scale: Double { size / Double(font.unitsPerEm) }

    var isRightToLeft: Bool { level & 1 == 1 }

    /// True when the piece holds nothing but hanging spaces.
    var isAllSpace: Bool { hangStart <= start }

    /// - Complexity: O(1) from the word's prefix sums (O(log n) for inner white space).
    private mutating func measure() {
        if start == wordStart, glyphStart == 0, glyphEnd == word.glyphCount, end == wordStart + Int32(word.length) {
            // The whole word: its hanging spaces are its trailing ones.
            width = Double(word.totalAdvance) * scale
            hangStart = wordStart + word.trailingSpaceStart
            hang = word.trailingSpaceStart == Int32(word.length) ? 0 : Double(word.hangingAdvance) * scale
            return
        }
        let glyphs = Int(glyphStart)..<Int(glyphEnd)
        width = Double(word.advance(of: glyphs)) * scale
        let hanging = word.hangingStart(from: start - wordStart, to: end - wordStart)
        hangStart = wordStart + hanging
        hang = hanging == end - wordStart ? 0 : Double(word.advance(of: word.glyphs(from: hanging, in: glyphs))) * scale
    }

    /// Visits each HarfBuzz cluster of the piece in logical order with its text offset and
    /// advance in points, until `body` returns false. A cluster is the smallest unit a line
    /// can be cut at.
    ///
    /// - Returns: false when `body` stopped the walk.
    @discardableResult
    func forEachCluster(_ body: (_ offset: Int32, _ advance: Double) -> Bool) -> Bool {
        let scale = self.scale
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
        let range = word.glyphs(from: offset - wordStart, in: Int(glyphStart)..<Int(glyphEnd))
        guard !range.isEmpty else { return false }
        return word.clusters[word.rightToLeft ? range.upperBound - 1 : range.lowerBound] == offset - wordStart
    }

    /// Cuts the piece at a text offset that starts one of its clusters.
    ///
    /// - Returns: the logical first and second parts, or nil when `offset` is not strictly
    ///   inside the piece.
    func split(at offset: Int32) -> (ShapedPiece, ShapedPiece)? {
        guard offset > start, offset < end else { return nil }
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
