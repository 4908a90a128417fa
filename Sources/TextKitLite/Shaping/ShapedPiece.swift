/// A slice of a shaped word placed in the text: the unit line breaking works with.
///
/// A piece lies within one run (one style, font, script and bidi level) and between two
/// line-break opportunities; an emergency break or a truncation can cut it further at a
/// cluster boundary without reshaping.
struct ShapedPiece: Sendable {
    /// Where a piece's glyphs are: private, so that what holds them (a word, a lone glyph by
    /// value, nothing for an attachment) is the piece's own business; the pieces' users read
    /// them through `forEachGlyph`, `forEachCluster`, `word` and `glyphCount`.
    private enum Glyphs: Sendable {
        /// Glyphs `range` of a shaped word (indices into its arrays, HarfBuzz output order).
        case word(ShapedWord, Range<Int32>)
        /// The one plain glyph of a one-unit word, left to right, held by value
        /// (`LoneGlyphTable`: a Chinese character, most often): making, copying and freeing
        /// such a piece touches no shared object. Never cut.
        case lone(UInt32)
        /// An inline attachment (index into its text's `attachments`) and the ascent and
        /// descent it gives its line, in points. No glyphs; never cut.
        case attachment(Int32, ascent: Float, descent: Float)
    }

    /// UTF-16 range of the piece in the text.
    var start: Int32
    var end: Int32
    /// Text offset of the shaped word's cluster 0.
    var wordStart: Int32
    // Declared here and below so that both fill padding: a piece stays 72 bytes.
    /// Letter spacing in points (`TextStyle.letterSpacing`) after each cluster, or, in a
    /// word of a cursive script (`spacesWordEndOnly`), after the word's last cluster only.
    /// Part of `width`, `hang` and every advance the piece reports.
    let letterSpacing: Float
    private var glyphs: Glyphs
    /// Index of the font in the fallback chain the text was shaped with; -1 when the font
    /// is a style's own (only with a word, which holds its font).
    let fontIndex: Int16
    /// Bidi embedding level (odd: right-to-left).
    var level: UInt8
    /// A line may break after this piece (UAX #14 opportunity at `end`).
    var breakAfter: Bool
    let spacesWordEndOnly: Bool
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

    /// A piece holding a whole shaped word, at `size` points, `scale` points per font unit
    /// (`size` over the word's font's units per em: found once per item, not per piece).
    @inline(__always)
    init(word: ShapedWord, start: Int32, fontIndex: Int, size: Double, scale: Double, style: Int32, level: UInt8,
         breakAfter: Bool, letterSpacing: Spacing = .none) {
        glyphs = .word(word, 0..<word.glyphCount)
        self.letterSpacing = letterSpacing.points
        spacesWordEndOnly = letterSpacing.wordEndOnly
        self.start = start
        self.end = start + Int32(word.length)
        self.wordStart = start
        self.fontIndex = fontIndex <= Int(Int16.max) ? Int16(fontIndex) : -1  // past it: known by the word
        self.size = size
        self.style = style
        self.level = level
        self.breakAfter = breakAfter
        // A whole word is measured from the word object's totals, without reaching into its arrays.
        width = Double(word.totalAdvance) * scale
        hangStart = start + word.trailingSpaceStart
        hang = word.trailingSpaceStart == word.length ? 0 : Double(word.hangingAdvance) * scale
        if self.letterSpacing != 0 { addLetterSpacing(word) }
    }

    /// Adds a whole word's letter spacing to its width and hang.
    @inline(never)
    private mutating func addLetterSpacing(_ word: ShapedWord) {
        width += spacing(word, 0..<Int(word.glyphCount))
        if hang != 0 { hang += spacing(word, word.hangingGlyphs) }
    }

    /// Letter spacing of a piece: points after each cluster, or after a cursive word only.
    struct Spacing {
        var points: Float
        var wordEndOnly: Bool
        static let none = Spacing(points: 0, wordEndOnly: false)
    }

    /// A piece of one unit shaped to a lone glyph of chain font `fontIndex` (0...Int16.max).
    ///
    /// Measured as the same word held by reference would be, to the bit.
    init(lone glyph: LoneGlyphTable.Glyph, unit: UInt16, start: Int32, fontIndex: Int, size: Double, scale: Double,
         style: Int32, level: UInt8, breakAfter: Bool, letterSpacing: Spacing = .none) {
        glyphs = .lone(glyph.id)
        self.letterSpacing = letterSpacing.points
        spacesWordEndOnly = letterSpacing.wordEndOnly
        self.start = start
        end = start + 1
        wordStart = start
        self.fontIndex = Int16(fontIndex)
        self.size = size
        self.style = style
        self.level = level
        self.breakAfter = breakAfter
        let advance = Double(Int64(glyph.advance)) * scale
        width = advance + Self.spacing(Double(self.letterSpacing), after: advance)
        if UnicodeProperties.isHangingSpace(unit) {
            hangStart = start
            hang = width
        } else {
            hangStart = end
        }
    }

    /// A piece standing for attachment `index` of the text (its U+FFFC cluster `start..<end`).
    init(attachment index: Int, _ attachment: TextAttachment, font: FontMetrics, start: Int32, end: Int32, size: Double,
         style: Int32, level: UInt8, breakAfter: Bool) {
        let (ascent, descent) = attachment.lineMetrics(font: font)
        glyphs = .attachment(Int32(index), ascent: Float(ascent), descent: Float(descent))
        letterSpacing = 0
        spacesWordEndOnly = false
        self.start = start
        self.end = end
        wordStart = start
        fontIndex = -1
        self.size = size
        self.style = style
        self.level = level
        self.breakAfter = breakAfter
        width = attachment.size.width
        hangStart = end
    }

    /// The attachment the piece stands for, with its line metrics; nil for text.
    var attachment: (index: Int, metrics: FontMetrics)? {
        guard case .attachment(let index, let ascent, let descent) = glyphs else { return nil }
        return (Int(index), FontMetrics(ascent: Double(ascent), descent: Double(descent), lineGap: 0))
    }

    /// The shaped word the piece is a slice of; nil for a lone glyph or an attachment.
    var word: ShapedWord? {
        guard case .word(let word, _) = glyphs else { return nil }
        return word
    }

    /// Number of glyphs the piece draws.
    var glyphCount: Int {
        switch glyphs {
        case .word(_, let range): range.count
        case .lone: 1
        case .attachment: 0
        }
    }

    /// The font the piece was shaped with, `chain` being the text's fallback chain.
    ///
    /// - Precondition: the piece is text, not an attachment.
    func font(in chain: FontFallbackChain) -> Font {
        word?.font ?? chain.font(at: Int(fontIndex))
    }

    /// True when both pieces were shaped with the same font (of `chain`).
    func hasSameFont(as other: ShapedPiece, in chain: FontFallbackChain) -> Bool {
        if fontIndex >= 0, other.fontIndex >= 0 { return fontIndex == other.fontIndex }
        if attachment != nil || other.attachment != nil { return false }
        return font(in: chain) === other.font(in: chain)
    }

    var isRightToLeft: Bool { level & 1 == 1 }

    /// Shaped top to bottom: upright in a vertical line (`ShapedWord.upright`).
    var isUpright: Bool { word?.upright ?? false }

    /// True when the piece holds nothing but hanging spaces.
    var isAllSpace: Bool { hangStart <= start }

    /// Measures the piece as glyphs `range` of `word`.
    ///
    /// - Complexity: O(1) from the word's prefix sums (O(log n) for inner white space), O(n)
    ///   in the range's glyphs when letter-spaced.
    private mutating func measure(_ word: ShapedWord, _ range: Range<Int32>) {
        let scale = size / Double(word.font.unitsPerEm)
        let glyphs = Int(range.lowerBound)..<Int(range.upperBound)
        width = Double(word.advance(of: glyphs)) * scale
        let hanging = word.hangingStart(from: start - wordStart, to: end - wordStart)
        hangStart = wordStart + hanging
        hang = hanging == end - wordStart ? 0 : Double(word.advance(of: word.glyphs(from: hanging, in: glyphs))) * scale
        if letterSpacing != 0 {
            width += spacing(word, glyphs)
            if hang != 0 { hang += spacing(word, word.glyphs(from: hanging, in: glyphs)) }
        }
    }

    /// The piece ends where its word ends (a cursive word's spacing is there).
    private var endsWord: Bool { word.map { end == wordStart + $0.length } ?? true }

    /// The letter spacing of glyphs `range` of the piece's `word` (whole clusters), in points.
    ///
    /// - Complexity: O(n) in the range's glyphs (only for letter-spaced text).
    private func spacing(_ word: ShapedWord, _ range: Range<Int>) -> Double {
        let scale = size / Double(word.font.unitsPerEm)
        var total = 0.0, clusterAdvance: Int32 = 0
        for g in range {
            clusterAdvance &+= word.advances[g]
            guard g + 1 == range.upperBound || word.clusters[g + 1] != word.clusters[g] else { continue }
            total += spacing(afterClusterOf: g, of: word, advance: Double(clusterAdvance) * scale)
            clusterAdvance = 0
        }
        return total
    }

    /// The spacing after the cluster of glyph `g` of the piece's word, whose glyphs advance
    /// `advance` points. Negative spacing never takes a cluster below zero advance: lines
    /// stay as wide as their widest prefix, which breaking and relayout rely on.
    @inline(__always)
    private func spacing(afterClusterOf g: Int, of word: ShapedWord, advance: Double) -> Double {
        guard letterSpacing != 0 else { return 0 }
        if spacesWordEndOnly {
            let last = word.clusters[word.rightToLeft ? 0 : Int(word.glyphCount) - 1]
            guard endsWord, word.clusters[g] == last else { return 0 }
        }
        return Self.spacing(Double(letterSpacing), after: advance)
    }

    /// Letter spacing after a cluster of `advance` points: negative spacing stops at zero advance.
    private static func spacing(_ spacing: Double, after advance: Double) -> Double {
        spacing < 0 ? max(spacing, -max(0, advance)) : spacing
    }

    /// Visits the piece's glyphs in HarfBuzz order (visual): ID, offsets and advance in
    /// points, and word offset of the glyph's cluster.
    func forEachGlyph(_ body: (_ glyph: UInt32, _ x: Double, _ y: Double, _ advance: Double, _ cluster: Int32, _ endsCluster: Bool) -> Void) {
        switch glyphs {
        case .lone(let glyph):
            // Computed as for a word (an offset of 0 scaled), so both kinds place alike.
            body(glyph, 0, -0.0, width, 0, true)
        case .attachment:
            return
        case .word(let word, let range):
            let scale = size / Double(word.font.unitsPerEm)
            var clusterAdvance: Int32 = 0  // of the cluster's glyphs so far (they are adjacent)
            for g in Int(range.lowerBound)..<Int(range.upperBound) {
                let endsCluster = g + 1 == Int(range.upperBound) || word.clusters[g + 1] != word.clusters[g]
                clusterAdvance &+= word.advances[g]
                var spacing = 0.0
                if endsCluster {
                    if letterSpacing != 0 { spacing = self.spacing(afterClusterOf: g, of: word, advance: Double(clusterAdvance) * scale) }
                    clusterAdvance = 0
                }
                body(word.glyphs[g], Double(word.xOffsets[g]) * scale, -Double(word.yOffsets[g]) * scale,
                     Double(word.advances[g]) * scale + spacing, word.clusters[g], endsCluster)
            }
        }
    }

    /// Hanging white space starts the piece (`whiteSpaceRun(containing: start)` is not nil):
    /// when it starts a unit that comes after a full line, that white space hangs there.
    @inline(__always)
    var startsWithHangingSpace: Bool {
        if hangStart <= start { return true }  // all of it hangs
        guard case .word(let word, _) = glyphs, !word.innerSpaceRuns.isEmpty else { return false }
        return word.whiteSpaceRun(containing: start - wordStart) != nil
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
        guard case .word(let word, let range) = glyphs else { return body(wordStart, width) }
        let scale = size / Double(word.font.unitsPerEm)
        let count = range.count
        var k = 0
        while k < count {
            let i = word.rightToLeft ? Int(range.upperBound) - 1 - k : Int(range.lowerBound) + k
            let cluster = word.clusters[i]
            var units = word.advances[i]
            k += 1
            // Glyphs of one cluster are adjacent in either direction.
            while k < count {
                let j = word.rightToLeft ? Int(range.upperBound) - 1 - k : Int(range.lowerBound) + k
                guard word.clusters[j] == cluster else { break }
                units &+= word.advances[j]
                k += 1
            }
            if !body(wordStart + cluster, Double(units) * scale + spacing(afterClusterOf: i, of: word, advance: Double(units) * scale)) {
                return false
            }
        }
        return true
    }

    /// True when a cluster of the piece starts at text offset `offset`.
    ///
    /// - Complexity: O(log n) in the piece's glyphs.
    func startsCluster(at offset: Int32) -> Bool {
        guard case .word(let word, let glyphRange) = glyphs else { return offset == wordStart }
        let range = word.glyphs(from: offset - wordStart, in: Int(glyphRange.lowerBound)..<Int(glyphRange.upperBound))
        guard !range.isEmpty else { return false }
        return word.clusters[word.rightToLeft ? range.upperBound - 1 : range.lowerBound] == offset - wordStart
    }

    /// Cuts the piece at a text offset that starts one of its clusters.
    ///
    /// - Returns: the logical first and second parts, or nil when `offset` is not strictly
    ///   inside the piece.
    /// - Complexity: O(log n) in the piece's glyphs, plus O(n) in the first part's when the
    ///   piece is letter-spaced: cutting a long word line by line stays linear.
    func split(at offset: Int32) -> (ShapedPiece, ShapedPiece)? {
        guard offset > start, offset < end, case .word(let word, let range) = glyphs else { return nil }
        // Glyphs are in visual order: a right-to-left word's logical first part is on its right.
        let found = word.glyphs(from: offset - wordStart, in: Int(range.lowerBound)..<Int(range.upperBound))
        let secondGlyphs = Int32(found.lowerBound)..<Int32(found.upperBound)
        let firstGlyphs = word.rightToLeft
            ? secondGlyphs.upperBound..<range.upperBound : range.lowerBound..<secondGlyphs.lowerBound
        var first = self, second = self
        first.end = offset
        first.breakAfter = false
        first.glyphs = .word(word, firstGlyphs)
        first.measure(word, firstGlyphs)
        second.start = offset
        second.glyphs = .word(word, secondGlyphs)
        if letterSpacing != 0, hangStart >= offset {
            // Letter spacing is summed cluster by cluster: the second part, the rest of a long
            // word cut line by line, is what the first leaves, and its trailing white space
            // is the piece's own.
            second.width = width - first.width
        } else {
            second.measure(word, secondGlyphs)
        }
        return (first, second)
    }

    /// Cuts a word shaped with a hyphen after its text (`Hyphenator`) at text offset
    /// `offset`, where its text ends: the part before, and the hyphen, a piece that covers
    /// no text (`offset..<offset`) whose glyph's cluster is `offset`. Nothing of the hyphen
    /// hangs.
    func splittingHyphen(at offset: Int32) -> (ShapedPiece, ShapedPiece)? {
        guard end == offset + 1, let (part, piece) = split(at: offset) else { return nil }
        var hyphen = piece
        hyphen.end = offset
        hyphen.hangStart = offset + 1  // past its (empty) text: it is not white space
        hyphen.hang = 0
        return (part, hyphen)
    }

    /// The piece is a hyphen the line breaker put at a line's end (`splittingHyphen`).
    var isInsertedHyphen: Bool { start == end }
}

extension ShapedPiece: CustomDebugStringConvertible {
    /// Its range, font, level, style, break, width and glyphs (a word by identity), for
    /// comparing pieces made two ways.
    var debugDescription: String {
        let glyphs = switch glyphs {
        case .word(let word, let range): "word \(ObjectIdentifier(word).hashValue) \(range)"
        case .lone(let glyph): "lone \(glyph)"
        case .attachment(let index, _, _): "attachment \(index)"
        }
        return "\(start)..<\(end) font \(fontIndex) level \(level) style \(style) break \(breakAfter) "
            + "width \(width) hang \(hang) \(glyphs)"
    }
}
