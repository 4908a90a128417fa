/// Turns a broken line into positioned glyph runs: trailing spaces reset to the paragraph
/// level (UAX #9 rule L1), pieces reordered visually (rule L2), glyphs placed from the
/// line's left edge, justification space added.
struct LineAssembler {
    /// The text's UTF-16 units (for justification opportunities).
    let units: [UInt16]
    /// Styles of the text's runs, then of the truncation token's runs.
    let styles: [TextStyle]
    /// Number of styles that belong to the text (the rest are the token's).
    let textStyleCount: Int
    /// The fallback chain the text and its token were shaped with.
    let fonts: FontFallbackChain
    /// Attachments of the text and of the truncation token.
    let attachments: [AttributedText.Attachment]
    let tokenAttachments: [AttributedText.Attachment]

    /// Where a line's attachments go vertically: on its baseline by their alignment, or
    /// centred in the line box.
    struct Placement {
        var baseline: Double
        var lineTop: Double
        var lineHeight: Double
        var centred: Bool

        func top(height: Double, ascent: Double) -> Double {
            centred ? lineTop + (lineHeight - height) / 2 : baseline - ascent
        }

        /// From the baseline down to the middle of the line box: where the vertical origins
        /// of upright glyphs go (the central baseline of a vertical line).
        var centralOffset: Double { lineTop + lineHeight / 2 - baseline }
    }

    func assemble(_ line: BrokenLine, paragraphLevel: UInt8, x: Double, justification extra: Double,
                  placement: Placement) -> (runs: [GlyphRun], attachments: [LayoutLine.Attachment]) {
        let linePieces = Array(line.pieces)
        let hangStart = Self.hangingStart(linePieces)
        var pieces = resetTrailingSpaces(linePieces, from: hangStart, paragraphLevel: paragraphLevel)
        guard !pieces.isEmpty else { return ([], []) }
        // Rule L2; a line of one level (most lines) keeps or reverses its order.
        let level = pieces[0].level
        if pieces.contains(where: { $0.level != level }) {
            let order = UnicodeProperties.visualOrder(levels: pieces.map(\.level))
            pieces = order.map { pieces[$0] }
        } else if level & 1 == 1 {
            pieces.reverse()
        }

        // Justification: extra space after each visible space, else between clusters.
        var gaps = 0
        var bySpaces = true
        if extra > 0 {
            gaps = pieces.reduce(0) { $0 + justifiableSpaces($1, hangStart: hangStart) }
            if gaps == 0 {
                bySpaces = false
                gaps = max(0, pieces.reduce(0) { $0 + visibleClusterCount($1, hangStart: hangStart) } - 1)
            }
        }
        let perGap = gaps > 0 ? extra / Double(gaps) : 0
        var gapsLeft = gaps

        var runs: [GlyphRun] = []
        var placed: [LayoutLine.Attachment] = []
        // The glyphs of all the line's runs, in one block (`glyphCount` is what
        // `forEachGlyph` gives: exactly the room needed).
        let storage = GlyphStorage.make(capacity: pieces.reduce(0) { $0 + $1.glyphCount })
        var cursor = x
        var i = 0
        while i < pieces.count {
            if let (index, metrics) = pieces[i].attachment {
                let isToken = Int(pieces[i].style) >= textStyleCount
                let attachment = (isToken ? tokenAttachments : attachments)[index]
                let size = attachment.attachment.size
                placed.append(LayoutLine.Attachment(
                    offset: attachment.offset, isTruncationToken: isToken,
                    rect: Rect(x: cursor, y: placement.top(height: size.height, ascent: metrics.ascent), width: size.width, height: size.height)))
                cursor += pieces[i].width
                // An attachment is a cluster: justification between clusters spaces it too.
                if gapsLeft > 0, !isToken, !bySpaces, pieces[i].start < hangStart {
                    cursor += perGap
                    gapsLeft -= 1
                }
                i += 1
                continue
            }
            // Merge visually adjacent pieces with the same font, size, style and direction.
            var j = i + 1
            let upright = pieces[i].isUpright
            while j < pieces.count, pieces[j].attachment == nil, pieces[j].hasSameFont(as: pieces[i], in: fonts), pieces[j].size == pieces[i].size,
                  pieces[j].style == pieces[i].style, pieces[j].level == pieces[i].level, pieces[j].isUpright == upright {
                j += 1
            }
            let runStart = cursor
            let base = storage.count
            var low = Int32.max, high = Int32.min
            let shift = upright ? placement.centralOffset : 0
            for piece in pieces[i..<j] {
                low = min(low, piece.start)
                high = max(high, piece.end)
                let isToken = Int(piece.style) >= textStyleCount
                let wordStart = piece.wordStart
                // The closure captures a buffer, not `self` or an array: a captured value is
                // copied (retained and released) each time the closure is made, once a piece.
                units.withUnsafeBufferPointer { units in
                    piece.forEachGlyph { glyph, x, y, advance, wordCluster, endsCluster in
                        let cluster = wordStart + wordCluster
                        storage.append(GlyphRun.Glyph(id: glyph, position: GlyphRun.Position(x: Float(cursor + x), y: Float(y + shift)),
                                                      cluster: cluster))
                        cursor += advance
                        guard gapsLeft > 0, !isToken else { return }
                        if endsCluster, cluster < hangStart, !bySpaces || Self.isJustifiableSpace(cluster, in: units) {
                            cursor += perGap
                            gapsLeft -= 1
                        }
                    }
                }
            }
            let first = pieces[i]
            runs.append(GlyphRun(
                font: first.font(in: fonts), fontSize: first.size, style: styles[Int(first.style)],
                isRightToLeft: first.isRightToLeft, isUpright: upright, isTruncationToken: Int(first.style) >= textStyleCount,
                range: Int(low)..<Int(max(low, high)), glyphs: GlyphRun.Glyphs(storage: storage, base: base, count: storage.count - base),
                x: runStart, width: cursor - runStart))
            i = j
        }
        return (runs, placed)
    }

    /// UAX #9 rule L1: trailing white space takes the paragraph level, so it hangs at the
    /// paragraph's end side instead of sitting inside a run of the other direction.
    private func resetTrailingSpaces(_ pieces: [ShapedPiece], from hangStart: Int32, paragraphLevel: UInt8) -> [ShapedPiece] {
        guard let end = pieces.last?.end, hangStart < end,
              pieces.reversed().prefix(while: { $0.end > hangStart }).contains(where: { $0.level != paragraphLevel })
        else { return pieces }
        var (body, spaces) = LineCuts.split(pieces, at: hangStart)
        for i in spaces.indices { spaces[i].level = paragraphLevel }
        return body + spaces
    }

    private static func isJustifiableSpace(_ offset: Int32, in units: UnsafeBufferPointer<UInt16>) -> Bool {
        let i = Int(offset)
        guard i < units.count else { return false }
        return units[i] == 0x20 || units[i] == 0xA0 || units[i] == 0x3000
    }

    /// Text offset where the line's hanging trailing spaces begin (its end when none).
    static func hangingStart(_ pieces: [ShapedPiece]) -> Int32 {
        var start = pieces.last?.end ?? 0
        for piece in pieces.reversed() {
            guard piece.hangStart < piece.end || piece.isAllSpace else { break }
            start = piece.hangStart
            if !piece.isAllSpace { break }
        }
        return start
    }

    private func justifiableSpaces(_ piece: ShapedPiece, hangStart: Int32) -> Int {
        units.withUnsafeBufferPointer { units in
            visibleClusterEnds(piece, hangStart: hangStart) { Self.isJustifiableSpace($0, in: units) }
        }
    }

    private func visibleClusterCount(_ piece: ShapedPiece, hangStart: Int32) -> Int {
        visibleClusterEnds(piece, hangStart: hangStart) { _ in true }
    }

    /// Counts the piece's clusters before the line's hanging spaces that satisfy `accept`
    /// (given the cluster's text offset). Token pieces count none.
    private func visibleClusterEnds(_ piece: ShapedPiece, hangStart: Int32, where accept: (Int32) -> Bool) -> Int {
        guard Int(piece.style) < textStyleCount else { return 0 }
        if piece.attachment != nil { return piece.start < hangStart && accept(piece.start) ? 1 : 0 }
        var count = 0
        piece.forEachGlyph { _, _, _, _, wordCluster, endsCluster in
            let cluster = piece.wordStart + wordCluster
            if endsCluster, cluster < hangStart, accept(cluster) { count += 1 }
        }
        return count
    }
}
