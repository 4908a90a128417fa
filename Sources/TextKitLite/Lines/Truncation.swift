/// A truncation token shaped for the paragraph it ends: its pieces, whose style indices come
/// after the truncated text's (`Truncation.truncate`), and their width.
struct TruncationToken {
    var pieces: [ShapedPiece]
    var width: Double

    /// The token shaped as `shaped` (its first paragraph), its style indices moved past the
    /// `styleOffset` styles of the text it truncates.
    init(shaped: ShapedText, styleOffset: Int) {
        pieces = shaped.paragraphs.isEmpty ? [] : shaped.pieces(ofParagraph: 0).map { piece -> ShapedPiece in
            var piece = piece
            piece.style += Int32(styleOffset)
            piece.breakAfter = false
            return piece
        }
        width = pieces.reduce(0) { $0 + $1.width }
    }
}

/// Cutting text that does not fit in `maxLines` and placing the truncation token
/// (as YYText's truncation token and Pango's ellipsization do).
///
/// The token comes shaped at the truncated paragraph's level, so it runs in the
/// paragraph's direction; the layout stage shapes it (`TextEngine.truncate`).
enum Truncation {
    /// The style of the default token ("…"), which looks like the text it follows (without
    /// its highlights): the style of the line's last piece.
    static func cutStyle(of line: BrokenLine, in text: AttributedText) -> TextStyle {
        line.pieces.last.map { text.runs[Int($0.style)].style } ?? text.style(at: Int(line.start))
    }

    /// The line that shows the token, cut to make room for it as the options' truncation
    /// mode says: at the end of the last line shown; at the start of the first line shown
    /// (the text's last lines are shown, or a single line holds its paragraph); in the middle
    /// of the last line shown, which holds the rest of its paragraph.
    ///
    /// - Parameters:
    ///   - graphemes, emptyMetrics: of the line's paragraph.
    ///   - fonts: the chain the text and token were shaped with (a piece's font may be an
    ///     index into it).
    ///   - units: the text's UTF-16 units.
    static func truncate(_ line: BrokenLine, token: TruncationToken, graphemes: GraphemeBoundaries, emptyMetrics: FontMetrics,
                         options: LayoutOptions, fonts: FontFallbackChain, units: [UInt16]) -> BrokenLine {
        let width = line.slot?.width ?? options.contentWidth
        var line = line
        // End truncation: the token takes the place of a hyphen that ended the line.
        if options.truncation == .end, line.pieces.last?.isInsertedHyphen == true { line.pieces.removeLast() }
        var truncated = switch options.truncation {
        case .start: start(line, token: token, maxWidth: width, graphemes: graphemes, units: units)
        case .middle: middle(line, token: token, maxWidth: width, graphemes: graphemes, units: units)
        case .end: end(line, token: token, maxWidth: width, graphemes: graphemes, units: units)
        }
        truncated.metrics = BreakUnit.metrics(of: truncated.pieces[...], fonts: fonts, empty: emptyMetrics)
        return truncated
    }

    /// End truncation: keeps as much of `line` as fits before the token, never leaving a
    /// trailing space or punctuation (",", "、", an opening bracket) right before it.
    static func end(_ line: BrokenLine, token: TruncationToken, maxWidth: Double, graphemes: GraphemeBoundaries,
                    units: [UInt16]) -> BrokenLine {
        let available = maxWidth - token.width + LineCuts.epsilon
        let points = LineCuts.cutPoints(line.pieces, graphemes: graphemes, limit: available, start: line.start)
        var chosen = 0
        for (i, point) in points.enumerated() where point.width <= available { chosen = i }
        while chosen > 0, isTrimmed(before: points[chosen].offset, units: units) { chosen -= 1 }
        var kept = LineCuts.split(line.pieces, at: points[chosen].offset, tail: false).head
        kept += token.pieces
        return finish(line, pieces: kept, range: line.start..<points[chosen].offset)
    }

    /// Start truncation of a line: the token, then as much of the line's end as fits
    /// (without leading spaces).
    static func start(_ line: BrokenLine, token: TruncationToken, maxWidth: Double, graphemes: GraphemeBoundaries,
                      units: [UInt16]) -> BrokenLine {
        let points = LineCuts.cutPoints(line.pieces, graphemes: graphemes, start: line.start)
        let total = points.last!.width - LineCuts.trailingHang(line.pieces)
        var chosen = points.count - 1
        for i in stride(from: points.count - 1, through: 0, by: -1) where total - points[i].width + token.width <= maxWidth + LineCuts.epsilon {
            chosen = i
        }
        while chosen < points.count - 1, isSpace(at: points[chosen].offset, units: units) { chosen += 1 }
        let kept = LineCuts.split(line.pieces, at: points[chosen].offset, head: false).tail
        return finish(line, pieces: token.pieces + kept, range: points[chosen].offset..<line.end)
    }

    /// Middle truncation of a line holding the rest of its paragraph: the line's start, the
    /// token, the paragraph's end.
    static func middle(_ line: BrokenLine, token: TruncationToken, maxWidth: Double, graphemes: GraphemeBoundaries,
                       units: [UInt16]) -> BrokenLine {
        let points = LineCuts.cutPoints(line.pieces, graphemes: graphemes, start: line.start)
        let total = points.last!.width - LineCuts.trailingHang(line.pieces)
        let available = maxWidth - token.width + LineCuts.epsilon
        var head = 0
        for (i, point) in points.enumerated() where point.width <= available / 2 { head = i }
        var tail = points.count - 1
        for i in stride(from: points.count - 1, through: head, by: -1) where points[head].width + total - points[i].width <= available {
            tail = i
        }
        while head > 0, isTrimmed(before: points[head].offset, units: units) { head -= 1 }
        while tail < points.count - 1, isSpace(at: points[tail].offset, units: units) { tail += 1 }
        let first = LineCuts.split(line.pieces, at: points[head].offset, tail: false).head
        let last = LineCuts.split(line.pieces, at: points[tail].offset, head: false).tail
        return finish(line, pieces: first + token.pieces + last, range: line.start..<line.end)
    }

    private static func finish(_ line: BrokenLine, pieces: [ShapedPiece], range: Range<Int32>) -> BrokenLine {
        var result = line
        result.pieces = pieces
        result.start = range.lowerBound
        result.end = range.upperBound
        let hang = LineCuts.trailingHang(pieces)
        result.hang = hang
        result.width = pieces.reduce(0) { $0 + $1.width } - hang
        result.isTruncated = true
        return result
    }

    /// The scalar ending at `offset`.
    private static func scalar(before offset: Int32, units: [UInt16]) -> UInt32? {
        let i = Int(offset) - 1
        guard i >= 0, i < units.count else { return nil }
        if UTF16.isTrailSurrogate(units[i]), i > 0, UTF16.isLeadSurrogate(units[i - 1]) {
            return 0x10000 + ((UInt32(units[i - 1]) - 0xD800) << 10) + (UInt32(units[i]) - 0xDC00)
        }
        return UInt32(units[i])
    }

    private static func isTrimmed(before offset: Int32, units: [UInt16]) -> Bool {
        guard let scalar = scalar(before: offset, units: units) else { return false }
        return scalar < 0x10000 && UnicodeProperties.isHangingSpace(UInt16(scalar))
            || scalar == 0xA0 || UnicodeProperties.isTrimmedBeforeToken(scalar)
    }

    private static func isSpace(at offset: Int32, units: [UInt16]) -> Bool {
        Int(offset) < units.count && UnicodeProperties.isHangingSpace(units[Int(offset)])
    }
}
