/// Builds a `TextLayout` from a shaped text: lines, truncation, vertical metrics,
/// alignment and glyph positions.
struct LayoutBuilder {
    let shaped: ShapedText
    let options: LayoutOptions
    let engine: TextEngine

    private var contentWidth: Double {
        options.width.isFinite ? options.width - options.insets.horizontal : .infinity
    }

    func build() -> TextLayout {
        let maxLines = options.maxLines > 0 ? options.maxLines : Int.max
        var lines: [BrokenLine] = []
        var truncated = false
        for (index, paragraph) in shaped.paragraphs.enumerated() {
            let room = maxLines - lines.count
            if room <= 0 {
                truncated = true
                break
            }
            let width = options.maxLines == 1 && options.truncation != .end ? Double.infinity : contentWidth
            let broken = LineBreaker.lines(for: paragraph, index: index, maxWidth: width, maxCount: room == Int.max ? room : room + 1)
            if lines.isEmpty { lines = broken } else { lines += broken }  // one paragraph: no copy
        }
        if lines.count > maxLines {
            truncated = true
            lines.removeSubrange(maxLines...)
        }
        if options.maxLines == 1, options.truncation != .end, let line = lines.first,
           line.width > contentWidth + LineBreaker.epsilon {
            truncated = true
        }

        var styles = shaped.styles
        if truncated, let last = lines.last {
            lines[lines.count - 1] = truncate(last, styles: &styles)
        }
        return position(lines, styles: styles, truncated: truncated)
    }

    /// Shapes the token at the paragraph's level and cuts the line to make room for it.
    private func truncate(_ line: BrokenLine, styles: inout [TextStyle]) -> BrokenLine {
        let paragraph = shaped.paragraphs[line.paragraph]
        // The default token looks like the text it follows but is not part of a link (and
        // so one cached token serves every link's text).
        var cutStyle = line.pieces.last.map { shaped.styles[Int($0.style)] }
            ?? shaped.text.style(at: Int(line.start))
        cutStyle.link = nil
        let tokenText = options.truncationToken ?? AttributedText("\u{2026}", style: cutStyle)
        // Shaped with the text's chain: a piece's font may be an index into it.
        let tokenShaped = engine.shapedToken(tokenText, direction: paragraph.level & 1 == 1 ? .rightToLeft : .leftToRight,
                                             fonts: shaped.fonts)
        let offset = Int32(styles.count)
        styles += tokenShaped.styles
        let token = tokenShaped.paragraphs.first?.pieces.map { piece -> ShapedPiece in
            var piece = piece
            piece.style += offset
            piece.breakAfter = false
            return piece
        } ?? []
        let units = shaped.text.utf16
        switch (options.truncation, options.maxLines) {
        case (.start, 1):
            return Truncation.start(line, token: token, maxWidth: contentWidth, graphemes: paragraph.graphemes, units: units)
        case (.middle, 1):
            return Truncation.middle(line, token: token, maxWidth: contentWidth, graphemes: paragraph.graphemes, units: units)
        default:
            return Truncation.end(line, token: token, maxWidth: contentWidth, graphemes: paragraph.graphemes, units: units)
        }
    }

    /// Vertical metrics, alignment and glyph positions of every line.
    private func position(_ lines: [BrokenLine], styles: [TextStyle], truncated: Bool) -> TextLayout {
        let insets = options.insets
        let widest = lines.reduce(0) { max($0, $1.width) }
        let alignWidth = contentWidth.isFinite ? contentWidth : widest
        let fonts = shaped.fonts
        let assembler = LineAssembler(units: shaped.text.utf16, styles: styles, textStyleCount: shaped.styles.count, fonts: fonts)
        let primary = fonts.primaryMetrics(for: shaped.text)

        var result: [LayoutLine] = []
        result.reserveCapacity(lines.count)
        var y = insets.top
        for (k, line) in lines.enumerated() {
            // The paragraph's fields, not a copy of it (its arrays and font, retained per line).
            let paragraphLevel = shaped.paragraphs[line.paragraph].level
            // Natural metrics: the tallest font on the line.
            var natural = FontMetrics.none
            if line.pieces.isEmpty {
                let paragraph = shaped.paragraphs[line.paragraph]
                natural = paragraph.emptyFont.metrics(size: styles[Int(paragraph.emptyStyle)].size)
            }
            // A piece in the chain font and size of the one before has its metrics.
            var previousFont = Int16(-1), previousSize = 0.0
            for piece in line.pieces {
                if piece.fontIndex >= 0, piece.fontIndex == previousFont, piece.size == previousSize { continue }
                (previousFont, previousSize) = (piece.fontIndex, piece.size)
                natural.include(piece.font(in: fonts).metrics(size: piece.size))
            }
            let height = options.lineBoxHeight(natural: natural, primary: primary)
            let baseline = options.lineHeightMode == .natural
                ? y + (height - natural.ascent - natural.descent) / 2 + natural.ascent
                : y + (height - primary.ascent - primary.descent) / 2 + primary.ascent

            // Alignment.
            let rightToLeft = paragraphLevel & 1 == 1
            var alignment = options.alignment
            if alignment == .justify, line.isParagraphEnd || line.isTruncated || !contentWidth.isFinite {
                alignment = .natural
            }
            if alignment == .natural { alignment = rightToLeft ? .right : .left }
            let visibleStart: Double = switch alignment {
            case .right: alignWidth - line.width
            case .center: (alignWidth - line.width) / 2
            default: 0
            }
            let extra = alignment == .justify ? max(0, alignWidth - line.width) : 0
            let left = insets.left + visibleStart
            let runs = options.measureOnly ? [] : assembler.runs(for: line, paragraphLevel: paragraphLevel,
                                                                 x: left - (rightToLeft ? line.hang : 0), justification: extra)
            let width = line.width + extra
            result.append(LayoutLine(
                range: Int(line.start)..<Int(line.end),
                frame: Rect(x: left, y: y, width: width, height: height),
                baseline: baseline, ascent: natural.ascent, descent: natural.descent, hangingWidth: line.hang, runs: runs,
                isParagraphEnd: line.isParagraphEnd, isTruncated: line.isTruncated))
            y += height
            if k + 1 < lines.count { y += options.lineSpacing }
        }
        let height = max(insets.vertical, y + insets.bottom)
        let measured = widest + insets.horizontal
        return TextLayout(
            text: shaped.text, options: options, lines: result,
            size: Size(width: options.width.isFinite ? options.width : measured, height: height),
            measuredWidth: measured, isTruncated: truncated)
    }
}
