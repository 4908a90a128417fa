/// Builds a `TextLayout` from a shaped text: lines, truncation, vertical metrics,
/// alignment and glyph positions.
struct LayoutBuilder {
    let shaped: ShapedText
    let options: LayoutOptions
    let engine: TextEngine

    func build() -> TextLayout {
        build(plan: BreakPlan(shaped, options: options, engine: engine))
    }

    /// Lays out the text broken as `plan` says (`BreakPlan(shaped, options: options, engine: engine)`).
    func build(plan: BreakPlan) -> TextLayout {
        let skipped = plan.skippedLines
        var breaker = LineBreaker(maxWidth: plan.width, linesAtWidth: options.linesAtWidth, fonts: shaped.fonts,
                                  receiver: LineCollector(maxLines: skipped + options.lineLimit),
                                  hyphenator: shaped.hyphenator(options.hyphenation, cache: engine.shapeCache))
        breaker.flow(around: options, primary: shaped.primaryMetrics)
        shaped.breakLines(into: &breaker)
        let truncated = skipped > 0 || breaker.leavesTextOut(paragraphCount: shaped.paragraphs.count, contentWidth: options.contentWidth)
        var lines = breaker.receiver.lines
        if skipped > 0 { lines.removeFirst(skipped) }
        var styles = shaped.styles
        var tokenAttachments: [AttributedText.Attachment] = []
        // The token goes on the last line shown, or the first when the text's last lines are.
        if truncated, let index = skipped > 0 ? lines.indices.first : lines.indices.last {
            let paragraph = shaped.paragraphs[lines[index].paragraph]
            let (line, token) = engine.truncate(lines[index], of: shaped.text, level: paragraph.level, graphemes: paragraph.graphemes,
                                                emptyMetrics: paragraph.emptyMetrics, options: options, fonts: shaped.fonts)
            lines[index] = line
            styles += token.runs.map(\.style)
            tokenAttachments = token.attachments
        }
        return position(lines, styles: styles, tokenAttachments: tokenAttachments, truncated: truncated)
    }

    /// Vertical metrics, alignment and glyph positions of every line.
    private func position(_ lines: [BrokenLine], styles: [TextStyle], tokenAttachments: [AttributedText.Attachment],
                          truncated: Bool) -> TextLayout {
        let insets = options.lineInsets
        let contentWidth = options.contentWidth
        let widest = lines.reduce(0) { max($0, $1.width) }
        let alignWidth = contentWidth.isFinite ? contentWidth : widest
        let fonts = shaped.fonts
        let assembler = LineAssembler(units: shaped.text.utf16, styles: styles, textStyleCount: shaped.styles.count, fonts: fonts,
                                      attachments: shaped.text.attachments, tokenAttachments: tokenAttachments)
        var stack = LineStack(options: options, primary: shaped.primaryMetrics)

        var result: [LayoutLine] = []
        result.reserveCapacity(lines.count)
        for line in lines {
            // The paragraph's fields, not a copy of it (its arrays and font, retained per line).
            let paragraphLevel = shaped.paragraphs[line.paragraph].level
            let natural = line.metrics
            let (y, height) = stack.add(natural: natural, dropped: line.slot?.drop ?? 0)
            let primary = stack.primary
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
            // Aligned in the line's free interval beside exclusion shapes, else the content box.
            let boxWidth = line.slot.map { min($0.width, alignWidth) } ?? alignWidth
            let visibleStart: Double = switch alignment {
            case .right: boxWidth - line.width
            case .center: (boxWidth - line.width) / 2
            default: 0
            }
            let extra = alignment == .justify ? max(0, boxWidth - line.width) : 0
            let left = (line.slot?.x ?? insets.left) + visibleStart
            let placement = LineAssembler.Placement(baseline: baseline, lineTop: y, lineHeight: height,
                                                    centred: options.lineHeightMode != .natural)
            let (runs, attachments) = assembler.assemble(
                line, paragraphLevel: paragraphLevel, x: left - (rightToLeft ? line.hang : 0), justification: extra,
                placement: placement)
            let width = line.width + extra
            result.append(LayoutLine(
                range: Int(line.start)..<Int(line.end),
                frame: Rect(x: left, y: y, width: width, height: height),
                baseline: baseline, ascent: natural.ascent, descent: natural.descent, hangingWidth: line.hang, runs: runs, attachments: attachments,
                isParagraphEnd: line.isParagraphEnd, isTruncated: line.isTruncated))
        }
        let height = stack.height
        // Beside exclusion shapes, a line's right edge is its slot's offset from the content box plus its width.
        let reach = options.exclusions.isEmpty ? widest : lines.reduce(0) { max($0, ($1.slot.map { $0.x - insets.left } ?? 0) + $1.width) }
        let measured = reach + insets.horizontal
        let lineSize = Size(width: options.width.isFinite ? options.width : measured, height: height)
        return TextLayout(
            text: shaped.text, options: options, lines: result,
            size: options.writingMode == .horizontal ? lineSize : Size(width: lineSize.height, height: lineSize.width),
            measuredWidth: measured, isTruncated: truncated)
    }
}
