/// Cutting text that does not fit in `maxLines` and placing the truncation token
/// (as YYText's truncation token and Pango's ellipsization do).
///
/// Token pieces come shaped at the truncated paragraph's level, so the token runs in the
/// paragraph's direction.
enum Truncation {
    /// The last line shown, cut to make room for the options' truncation token (or "…"
    /// styled as the text it follows), at its end, or for a single line at its start or middle.
    ///
    /// - Parameters:
    ///   - level, graphemes: of the line's paragraph.
    ///   - fonts: the chain the text was shaped with (a piece's font may be an index into it).
    /// - Returns: the line, whose token pieces have style indices from `text.runs.count` on,
    ///   and the token (those indices are its runs').
    static func truncate(_ line: BrokenLine, text: AttributedText, level: UInt8, graphemes: GraphemeBoundaries,
                         options: LayoutOptions, fonts: FontFallbackChain, engine: TextEngine) -> (line: BrokenLine, token: AttributedText) {
        // The default token looks like the text it follows (without its highlights).
        let cutStyle = line.pieces.last.map { text.runs[Int($0.style)].style } ?? text.style(at: Int(line.start))
        let tokenText = options.truncationToken ?? AttributedText("\u{2026}", style: cutStyle)
        let tokenShaped = engine.shapedToken(tokenText, direction: level & 1 == 1 ? .rightToLeft : .leftToRight, fonts: fonts)
        let offset = Int32(text.runs.count)
        let token = tokenShaped.paragraphs.first?.pieces.map { piece -> ShapedPiece in
            var piece = piece
            piece.style += offset
            piece.breakAfter = false
            return piece
        } ?? []
        let width = options.contentWidth
        let truncated = switch placement(options) {
        case .start: start(line, token: token, maxWidth: width, graphemes: graphemes, units: text.utf16)
        case .middle: middle(line, token: token, maxWidth: width, graphemes: graphemes, units: text.utf16)
        case .end: end(line, token: token, maxWidth: width, graphemes: graphemes, units: text.utf16)
        }
        return (truncated, tokenText)
    }

    /// Where the token goes: start and middle truncation apply to a single line only.
    static func placement(_ options: LayoutOptions) -> TruncationMode {
        options.maxLines == 1 ? options.truncation : .end
    }

    /// End truncation: keeps as much of `line` as fits before the token, never leaving a
    /// trailing space or punctuation (",", "、", an opening bracket) right before it.
    static func end(_ line: BrokenLine, token: [ShapedPiece], maxWidth: Double, graphemes: GraphemeBoundaries,
                    units: [UInt16]) -> BrokenLine {
        let tokenWidth = token.reduce(0) { $0 + $1.width }
        let available = maxWidth - tokenWidth + LineCuts.epsilon
        let points = LineCuts.cutPoints(line.pieces, graphemes: graphemes, limit: available, start: line.start)
        var chosen = 0
        for (i, point) in points.enumerated() where point.width <= available { chosen = i }
        while chosen > 0, isTrimmed(before: points[chosen].offset, units: units) { chosen -= 1 }
        var kept = LineCuts.split(line.pieces, at: points[chosen].offset, tail: false).head
        kept += token
        return finish(line, pieces: kept, range: line.start..<points[chosen].offset)
    }

    /// Start truncation of a single line: the token, then as much of the paragraph's end
    /// as fits (without leading spaces).
    static func start(_ line: BrokenLine, token: [ShapedPiece], maxWidth: Double, graphemes: GraphemeBoundaries,
                      units: [UInt16]) -> BrokenLine {
        let tokenWidth = token.reduce(0) { $0 + $1.width }
        let points = LineCuts.cutPoints(line.pieces, graphemes: graphemes, start: line.start)
        let total = points.last!.width - LineCuts.trailingHang(line.pieces)
        var chosen = points.count - 1
        for i in stride(from: points.count - 1, through: 0, by: -1) where total - points[i].width + tokenWidth <= maxWidth + LineCuts.epsilon {
            chosen = i
        }
        while chosen < points.count - 1, isSpace(at: points[chosen].offset, units: units) { chosen += 1 }
        let kept = LineCuts.split(line.pieces, at: points[chosen].offset, head: false).tail
        return finish(line, pieces: token + kept, range: points[chosen].offset..<line.end)
    }

    /// Middle truncation of a single line: the paragraph's start, the token, its end.
    static func middle(_ line: BrokenLine, token: [ShapedPiece], maxWidth: Double, graphemes: GraphemeBoundaries,
                       units: [UInt16]) -> BrokenLine {
        let tokenWidth = token.reduce(0) { $0 + $1.width }
        let points = LineCuts.cutPoints(line.pieces, graphemes: graphemes, start: line.start)
        let total = points.last!.width - LineCuts.trailingHang(line.pieces)
        let available = maxWidth - tokenWidth + LineCuts.epsilon
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
        return finish(line, pieces: first + token + last, range: line.start..<line.end)
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
