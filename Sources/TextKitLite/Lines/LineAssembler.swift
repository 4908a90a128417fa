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

    func runs(for line: BrokenLine, paragraphLevel: UInt8, x: Double, justification extra: Double) -> [GlyphRun] {
        var pieces = resetTrailingSpaces(line.pieces, paragraphLevel: paragraphLevel)
        guard !pieces.isEmpty else { return [] }
        let order = UnicodeProperties.visualOrder(levels: pieces.map(\.level))
        pieces = order.map { pieces[$0] }

        // Justification: extra space after each visible space, else between clusters.
        var gaps = 0
        var bySpaces = true
        if extra > 0 {
            gaps = pieces.reduce(0) { $0 + justifiableSpaces($1) }
            if gaps == 0 {
                bySpaces = false
                gaps = max(0, pieces.reduce(0) { $0 + visibleClusterCount($1) } - 1)
            }
        }
        let perGap = gaps > 0 ? extra / Double(gaps) : 0
        var gapsLeft = gaps

        var runs: [GlyphRun] = []
        var cursor = x
        var i = 0
        while i < pieces.count {
            // Merge visually adjacent pieces with the same font, size, style and direction.
            var j = i + 1
            while j < pieces.count, pieces[j].font == pieces[i].font, pieces[j].size == pieces[i].size,
                  pieces[j].style == pieces[i].style, pieces[j].level == pieces[i].level {
                j += 1
            }
            let runStart = cursor
            var glyphs: [UInt32] = [], positions: [GlyphPosition] = [], clusters: [Int32] = []
            var low = Int32.max, high = Int32.min
            for piece in pieces[i..<j] {
                low = min(low, piece.start)
                high = max(high, piece.end)
                let word = piece.word, scale = piece.scale
                let isToken = Int(piece.style) >= textStyleCount
                for g in Int(piece.glyphStart)..<Int(piece.glyphEnd) {
                    glyphs.append(word.glyphs[g])
                    positions.append(GlyphPosition(x: Float(cursor + Double(word.xOffsets[g]) * scale),
                                                   y: Float(-Double(word.yOffsets[g]) * scale)))
                    let cluster = piece.wordStart + word.clusters[g]
                    clusters.append(cluster)
                    cursor += Double(word.advances[g]) * scale
                    guard gapsLeft > 0, !isToken else { continue }
                    let endsCluster = g + 1 == Int(piece.glyphEnd) || word.clusters[g + 1] != word.clusters[g]
                    if bySpaces {
                        if endsCluster, word.clusters[g] < word.trailingSpaceStart, isJustifiableSpace(cluster) {
                            cursor += perGap
                            gapsLeft -= 1
                        }
                    } else if endsCluster, word.clusters[g] < word.trailingSpaceStart {
                        cursor += perGap
                        gapsLeft -= 1
                    }
                }
            }
            let first = pieces[i]
            runs.append(GlyphRun(
                font: first.font, fontSize: first.size, style: styles[Int(first.style)],
                isRightToLeft: first.isRightToLeft, isTruncationToken: Int(first.style) >= textStyleCount,
                range: Int(low)..<Int(max(low, high)), glyphs: glyphs, positions: positions, clusters: clusters,
                x: runStart, width: cursor - runStart))
            i = j
        }
        return runs
    }

    /// UAX #9 rule L1: trailing white space takes the paragraph level, so it hangs at the
    /// paragraph's end side instead of sitting inside a run of the other direction.
    private func resetTrailingSpaces(_ pieces: [ShapedPiece], paragraphLevel: UInt8) -> [ShapedPiece] {
        var pieces = pieces
        var k = pieces.count - 1
        while k >= 0, pieces[k].hang > 0 || pieces[k].isAllSpace {
            if pieces[k].level != paragraphLevel {
                if pieces[k].isAllSpace {
                    pieces[k].level = paragraphLevel
                } else if let (body, space) = pieces[k].split(at: pieces[k].wordStart + pieces[k].word.trailingSpaceStart) {
                    var space = space
                    space.level = paragraphLevel
                    pieces[k] = body
                    pieces.insert(space, at: k + 1)
                }
            }
            if !pieces[k].isAllSpace { break }
            k -= 1
        }
        return pieces
    }

    private func isJustifiableSpace(_ offset: Int32) -> Bool {
        let i = Int(offset)
        guard i < units.count else { return false }
        return units[i] == 0x20 || units[i] == 0xA0 || units[i] == 0x3000
    }

    private func justifiableSpaces(_ piece: ShapedPiece) -> Int {
        visibleClusterEnds(piece) { isJustifiableSpace(piece.wordStart + $0) }
    }

    private func visibleClusterCount(_ piece: ShapedPiece) -> Int { visibleClusterEnds(piece) { _ in true } }

    /// Counts the piece's clusters before its hanging spaces that satisfy `accept`
    /// (given the cluster's offset within the word). Token pieces count none.
    private func visibleClusterEnds(_ piece: ShapedPiece, where accept: (Int32) -> Bool) -> Int {
        guard Int(piece.style) < textStyleCount else { return 0 }
        var count = 0
        for g in Int(piece.glyphStart)..<Int(piece.glyphEnd) {
            let cluster = piece.word.clusters[g]
            let endsCluster = g + 1 == Int(piece.glyphEnd) || piece.word.clusters[g + 1] != cluster
            if endsCluster, cluster < piece.word.trailingSpaceStart, accept(cluster) { count += 1 }
        }
        return count
    }
}
