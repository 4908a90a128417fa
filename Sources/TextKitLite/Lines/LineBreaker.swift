/// A line before positioning: its pieces in logical order (most lines: a slice of their
/// paragraph's pieces, not a copy).
struct BrokenLine: Sendable {
    var pieces: ArraySlice<ShapedPiece>
    /// UTF-16 range of the text the line holds (with the paragraph terminator on the
    /// paragraph's last line).
    var start: Int32
    var end: Int32
    var paragraph: Int
    var isParagraphEnd: Bool
    /// Width without the trailing hanging spaces, in points.
    var width: Double
    /// Width of the trailing hanging spaces.
    var hang: Double
    /// The line holds a truncation token (its pieces have style indices past the text's).
    var isTruncated = false
}

/// Greedy line filling over break opportunities (UAX #14), with hanging trailing spaces
/// and emergency breaks at grapheme boundaries for words longer than the line.
enum LineBreaker {
    /// Tolerance for width comparisons, so that laying out again at a layout's own
    /// measured width (a sum that may round differently) gives the same lines.
    static let epsilon = 1e-6

    /// Breaks a shaped paragraph into lines no wider than `maxWidth` (points), except
    /// for a single grapheme wider than the line. Stops after `maxCount` lines.
    static func lines(for paragraph: ShapedParagraph, index: Int, maxWidth: Double, maxCount: Int) -> [BrokenLine] {
        let start = Int32(paragraph.range.content.lowerBound)
        guard !paragraph.pieces.isEmpty else {
            return [BrokenLine(pieces: [], start: start, end: Int32(paragraph.range.end), paragraph: index,
                               isParagraphEnd: true, width: 0, hang: 0)]
        }
        let limit = maxWidth + epsilon
        var lines: [BrokenLine] = []
        lines.reserveCapacity(min(maxCount, 8))
        var current: [ShapedPiece] = []
        var currentWidth = 0.0, visible = 0.0
        var carry: [ShapedPiece] = []  // the unbroken rest of a unit cut by an emergency break
        var next = 0
        let pieces = paragraph.pieces
        // The line holds `current`, then the whole pieces `pieces[pendingStart..<next]` that
        // fitted unit by unit (none when `pendingStart` is negative). A line of such pieces
        // alone (most lines) is a slice of the paragraph's pieces; they are copied only when
        // a slower path needs `current` whole.
        var pendingStart = -1

        func settle() {
            guard pendingStart >= 0 else { return }
            current.append(contentsOf: pieces[pendingStart..<next])
            pendingStart = -1
        }

        /// The next unit: pieces up to and including one that allows a break after it,
        /// from the carried rest of a cut unit first.
        func takeUnit() -> [ShapedPiece] {
            var unit: [ShapedPiece] = []
            while !carry.isEmpty {
                let piece = carry.removeFirst()
                unit.append(piece)
                if piece.breakAfter { break }
            }
            if unit.last?.breakAfter != true {
                while next < pieces.count {
                    unit.append(pieces[next])
                    next += 1
                    if unit.last!.breakAfter { break }
                }
            }
            return unit
        }

        /// Takes the units after a line's last one while they start with white space, and
        /// hangs that white space on the line (`linePieces`, ending at `end`): the next line
        /// never starts with white space it could hang (" " + U+2000: a BA space may follow
        /// a break). Returns the rest of the first unit that holds more, for the next line.
        func takeHangingWhiteSpace(onto linePieces: inout [ShapedPiece], end: inout Int32) -> [ShapedPiece] {
            while true {
                let following = takeUnit()
                guard !following.isEmpty else { return [] }
                let (spaces, rest, spaceEnd) = leadingWhiteSpace(following, graphemes: paragraph.graphemes)
                linePieces += spaces
                if !spaces.isEmpty { end = spaceEnd }
                if !rest.isEmpty { return rest }
            }
        }

        func flush(endingAt end: Int32) {
            let linePieces: ArraySlice<ShapedPiece>
            if current.isEmpty, pendingStart >= 0 {
                linePieces = pieces[pendingStart..<next]  // whole pieces only: no copy
                pendingStart = -1
            } else {
                settle()
                linePieces = current[...]
            }
            lines.append(BrokenLine(pieces: linePieces, start: linePieces.first?.start ?? end, end: end, paragraph: index,
                                    isParagraphEnd: false, width: visible, hang: currentWidth - visible))
            current = []  // the line keeps the array; the next one starts its own
            currentWidth = 0
            visible = 0
        }

        while (!carry.isEmpty || next < pieces.count), lines.count < maxCount {
            // The next unit: pieces up to and including one that allows a break after it.
            if carry.isEmpty {
                // Most units fit: measure pieces[next..<end] in place, copy them once.
                var end = next, unitWidth = 0.0
                repeat {
                    unitWidth += pieces[end].width
                    end += 1
                } while end < pieces.count && !pieces[end - 1].breakAfter
                let candidate = currentWidth + unitWidth - trailingHang(pieces[next..<end])
                if candidate <= limit {
                    if pendingStart < 0 { pendingStart = next }
                    currentWidth += unitWidth
                    visible = candidate
                    next = end
                    continue
                }
                // It does not fit after what the line holds: the line ends before it, and it
                // is measured again on the next line. (Unless white space starts it: that
                // hangs at the end of this line, below.)
                if pendingStart >= 0 || !current.isEmpty,
                   endOfWhiteSpace(pieces[next..<end], from: pieces[next].start, graphemes: paragraph.graphemes) == pieces[next].start {
                    flush(endingAt: pieces[next].start)
                    continue
                }
            }
            settle()  // before `takeUnit` moves `next`
            let unit = takeUnit()
            let unitWidth = unit.reduce(0) { $0 + $1.width }
            let unitHang = trailingHang(unit)
            let candidate = currentWidth + unitWidth - unitHang
            if candidate <= limit {
                current += unit
                currentWidth += unitWidth
                visible = candidate
            } else if !current.isEmpty {
                // White space at the start of the unit hangs at the end of this line: a line
                // never starts with white space it could hang ("ok " + tabs + "」"). When the
                // unit is all white space, so does white space that starts the units after it.
                var (spaces, rest, spaceEnd) = leadingWhiteSpace(unit, graphemes: paragraph.graphemes)
                if rest.isEmpty { rest = takeHangingWhiteSpace(onto: &spaces, end: &spaceEnd) }
                current += spaces
                currentWidth += spaces.reduce(0) { $0 + $1.width }
                flush(endingAt: spaceEnd)
                carry = rest + carry
            } else {
                // Emergency break: as many grapheme clusters as fit, at least one.
                var cut = fittingPrefix(unit, graphemes: paragraph.graphemes, width: limit)
                let (fitting, tail) = split(unit, at: cut)
                var head = fitting
                // When the whole unit went on this line, white space that starts the units
                // after it (a BA space such as U+3000 after " ") hangs here too.
                if tail.isEmpty { carry = takeHangingWhiteSpace(onto: &head, end: &cut) + carry }
                current = head
                currentWidth = head.reduce(0) { $0 + $1.width }
                visible = currentWidth - trailingHang(head)
                flush(endingAt: cut)
                carry = tail + carry
            }
        }
        if !current.isEmpty || pendingStart >= 0, lines.count < maxCount { flush(endingAt: Int32(paragraph.range.end)) }
        settle()  // a no-op unless the line limit left a line unflushed
        if current.isEmpty, carry.isEmpty, next == pieces.count, var last = lines.last {
            last.end = Int32(paragraph.range.end)
            last.isParagraphEnd = true
            lines[lines.count - 1] = last
        }
        return lines
    }

    /// Width of the hanging spaces at the end of a sequence of pieces.
    static func trailingHang<Pieces: BidirectionalCollection<ShapedPiece>>(_ pieces: Pieces) -> Double {
        var hang = 0.0
        for piece in pieces.reversed() {
            hang += piece.hang
            if !piece.isAllSpace { break }
        }
        return hang
    }

    /// Offsets where `pieces` may be cut (grapheme boundaries that start a cluster), each
    /// with the width of the pieces before it, in logical order, ending with the end.
    /// Stops after the first point wider than `limit`, so cutting a very long word costs
    /// only what one line holds.
    static func cutPoints<Pieces: BidirectionalCollection<ShapedPiece>>(
        _ pieces: Pieces, graphemes: GraphemeBoundaries, limit: Double = .infinity
    ) -> [(offset: Int32, width: Double)] {
        var result: [(offset: Int32, width: Double)] = []
        guard let first = pieces.first else { return result }
        var total = 0.0
        var g = graphemes.firstIndex(atOrAfter: first.start)
        for piece in pieces {
            let finished = piece.forEachCluster { offset, advance in
                while g < graphemes.count, graphemes[g] <= offset { g += 1 }
                if offset > first.start, g > 0, graphemes[g - 1] == offset, result.last?.offset != offset {
                    result.append((offset, total))
                    if total > limit { return false }
                }
                total += advance
                return true
            }
            if !finished { return result }
        }
        result.append((pieces.last!.end, total))
        return result
    }

    /// The last cut point whose prefix fits `width`, or the first one when none fits.
    private static func fittingPrefix(_ unit: [ShapedPiece], graphemes: GraphemeBoundaries, width: Double) -> Int32 {
        let points = cutPoints(unit, graphemes: graphemes, limit: width)
        var best = points[0].offset
        for point in points where point.width <= width { best = point.offset }
        // White space after the cut hangs at the end of this line rather than start the next.
        return endOfWhiteSpace(unit, from: best, graphemes: graphemes)
    }

    /// The end of the hanging white space that starts at cut point `offset` of `unit`, at a
    /// cut point (`offset` itself when no white space starts there). White space glued to
    /// what follows it (no break opportunity before "」") hangs at the end of the line
    /// rather than start the next one or fill lines of its own.
    ///
    /// - Complexity: O(p log n) for the p pieces the white space spans.
    static func endOfWhiteSpace<Unit: Collection<ShapedPiece>>(_ unit: Unit, from offset: Int32, graphemes: GraphemeBoundaries) -> Int32 {
        var cut = offset
        for piece in unit where piece.end > cut {
            guard piece.start <= cut, piece.start < piece.end,
                  let run = piece.whiteSpaceRun(containing: cut) else { break }
            let runEnd = min(piece.end, piece.wordStart + run.upperBound)
            if runEnd == piece.end {
                cut = runEnd  // pieces end at cluster and grapheme boundaries
                continue
            }
            // The last cut point inside the run: a mark after the run joins its last space.
            var g = graphemes.firstIndex(atOrAfter: runEnd + 1) - 1
            while g >= 0, graphemes[g] > cut, !piece.startsCluster(at: graphemes[g]) { g -= 1 }
            if g >= 0, graphemes[g] > cut { cut = graphemes[g] }
            break
        }
        return cut
    }

    /// A unit's leading white space, which hangs at the end of the line before it, the rest
    /// of the unit, and the offset where the white space ends (the unit's start when none).
    static func leadingWhiteSpace(_ unit: [ShapedPiece], graphemes: GraphemeBoundaries) -> (spaces: [ShapedPiece], rest: [ShapedPiece], end: Int32) {
        let end = endOfWhiteSpace(unit, from: unit[0].start, graphemes: graphemes)
        let (spaces, rest) = split(unit, at: end)
        return (spaces, rest, end)
    }

    /// Splits a logical sequence of pieces at a text offset (a cut point).
    static func split<Pieces: Sequence<ShapedPiece>>(_ pieces: Pieces, at offset: Int32) -> ([ShapedPiece], [ShapedPiece]) {
        var head: [ShapedPiece] = [], tail: [ShapedPiece] = []
        for piece in pieces {
            if piece.end <= offset {
                head.append(piece)
            } else if piece.start >= offset {
                tail.append(piece)
            } else if let (a, b) = piece.split(at: offset) {
                head.append(a)
                tail.append(b)
            }
        }
        return (head, tail)
    }
}
