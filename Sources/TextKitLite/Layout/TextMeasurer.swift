/// Measures a text the way `LayoutBuilder` lays it out, through the same line breaker and
/// truncation, without making lines: the itemizer streams each paragraph's pieces into the
/// breaker, whose receiver keeps line starts and metrics (`LineMeasurer`). No shaped text,
/// no lines, no glyph positions are made, and a text cut at its line limit is itemized no
/// further than the cut.
enum TextMeasurer {
    static func measure(_ text: AttributedText, options: LayoutOptions, engine: TextEngine) -> TextMeasurement {
        let itemizer = Itemizer(text: text, direction: options.direction, fonts: engine.fonts, cache: engine.shapeCache)
        let natural = options.lineHeightMode == .natural
        let paragraphs = Paragraphs.split(text.utf16)
        // Truncation changes the last line's start (start truncation) or, with natural
        // heights, its metrics (the token's fonts): then the line's pieces are kept.
        let measurer = LineMeasurer(maxLines: options.lineLimit, naturalFonts: natural ? engine.fonts : nil,
                                    keepsLastLine: options.maxLines > 0 && (natural || options.truncation != .end))
        let (breaker, truncated) = TextLines.breakLines(paragraphCount: paragraphs.count, options: options, into: measurer) {
            index, breaker in
            let paragraph = paragraphs[index]
            // A line with no pieces is sized as in a layout (`Itemizer.emptyLineMetrics`).
            if natural { breaker.receiver.emptyLineMetrics = itemizer.emptyLineMetrics(paragraph) }
            itemizer.stream(paragraph, into: &breaker)
            breaker.endParagraph()
        }
        var lines = breaker.receiver
        if truncated, lines.keepsLastLine, let last = lines.lastLine {
            let line = BrokenLine(pieces: lines.lastPieces, end: last, paragraph: 0)
            let (cut, _) = Truncation.truncate(line, text: text, level: breaker.level, graphemes: breaker.graphemes,
                                               options: options, fonts: engine.fonts, engine: engine)
            lines.replaceLastLine(with: cut)
        }
        var stack = LineStack(options: options, primary: engine.fonts.primaryMetrics(for: text))
        for k in lines.lineStarts.indices { _ = stack.add(natural: natural ? lines.lineMetrics[k] : .none) }
        return TextMeasurement(height: stack.height, lineStarts: lines.lineStarts, isTruncated: truncated)
    }
}
