/// Measures a text the way `LayoutBuilder` lays it out, without making lines: the
/// itemizer streams each paragraph's pieces into a `LineCounter`, and line heights are
/// summed as `LayoutBuilder` sums them. No shaped text, no lines, no glyph positions are
/// made, and a text cut at its line limit is itemized no further than the cut.
///
/// Texts the counter cannot follow (the line breaker's slow paths: emergency breaks, white
/// space hanging before a unit), start or middle truncation, unbounded widths, and natural
/// line heights on a truncated text give nil: the caller lays those out.
enum TextMeasurer {
    static func measure(_ text: AttributedText, options: LayoutOptions, engine: TextEngine) -> TextMeasurement? {
        guard options.width.isFinite, options.maxLines != 1 || options.truncation == .end else { return nil }
        let itemizer = Itemizer(text: text, direction: options.direction, fonts: engine.fonts, cache: engine.shapeCache)
        let natural = options.lineHeightMode == .natural
        var counter = LineCounter(maxWidth: options.width - options.insets.horizontal,
                                  maxLines: options.maxLines > 0 ? options.maxLines : Int.max,
                                  naturalFonts: natural ? engine.fonts : nil)
        for paragraph in Paragraphs.split(text.utf16) {
            if paragraph.content.isEmpty {
                var metrics = FontMetrics.none
                if natural {
                    let (style, font) = itemizer.emptyLine(paragraph)
                    metrics = font.metrics(size: text.runs[Int(style)].style.size)
                }
                counter.addEmptyParagraph(at: paragraph.content.lowerBound, metrics: metrics)
            } else {
                counter.beginParagraph(at: paragraph.content.lowerBound)
                if counter.isDone { break }
                _ = itemizer.stream(paragraph, into: &counter)
                counter.endParagraph()
            }
            if counter.isDone { break }
        }
        // A truncated line holds the token's pieces: with natural heights, they size it.
        if counter.needsLines || natural && counter.isTruncated { return nil }

        let lineCount = counter.lineStarts.count
        let primary = engine.fonts.primaryMetrics(for: text)
        var y = options.insets.top
        for k in 0..<lineCount {
            y += options.lineBoxHeight(natural: natural ? counter.lineMetrics[k] : .none, primary: primary)
            if k + 1 < lineCount { y += options.lineSpacing }
        }
        return TextMeasurement(height: max(options.insets.vertical, y + options.insets.bottom),
                               lineStarts: counter.lineStarts, isTruncated: counter.isTruncated)
    }
}
