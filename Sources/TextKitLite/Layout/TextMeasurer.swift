/// Measures a text the way `LayoutBuilder` lays it out, through the same line breaker and
/// truncation, without making lines: the breaker's receiver keeps line starts and metrics
/// (`LineMeasurer`). No lines and no glyph positions are made.
enum TextMeasurer {
    /// Measures a text as it is itemized: each paragraph's pieces stream from the itemizer
    /// into the breaker, no shaped text is made, and a text cut at its line limit is
    /// itemized no further than the cut.
    static func measure(_ text: AttributedText, options: LayoutOptions, engine: TextEngine) -> TextMeasurement {
        let itemizer = Itemizer(text: text, direction: options.direction, fonts: engine.fonts, cache: engine.shapeCache)
        let paragraphs = Paragraphs.split(text.utf16)
        return measure(text, paragraphCount: paragraphs.count, fonts: engine.fonts, options: options, engine: engine) { index, breaker in
            let paragraph = paragraphs[index]
            // A line with no pieces is sized as in a layout (`Itemizer.emptyLineMetrics`).
            if options.lineHeightMode == .natural { breaker.receiver.emptyLineMetrics = itemizer.emptyLineMetrics(paragraph) }
            itemizer.stream(paragraph, into: &breaker)
        }
    }

    /// Measures a shaped text at the options' width: its pieces go through the breaker
    /// again, with no itemizing, shaping or ICU ("shape once, break many").
    static func measure(_ shaped: ShapedText, options: LayoutOptions, engine: TextEngine) -> TextMeasurement {
        measure(shaped.text, paragraphCount: shaped.paragraphs.count, fonts: shaped.fonts, options: options, engine: engine) {
            index, breaker in
            breaker.receiver.emptyLineMetrics = shaped.paragraphs[index].emptyMetrics
            shaped.feed(paragraph: index, into: &breaker)
        }
    }

    private static func measure(
        _ text: AttributedText, paragraphCount: Int, fonts: FontFallbackChain, options: LayoutOptions, engine: TextEngine,
        feed: (_ index: Int, _ breaker: inout LineBreaker<LineMeasurer>) -> Void
    ) -> TextMeasurement {
        let natural = options.lineHeightMode == .natural
        // Truncation changes the last line's start (start truncation) or, with natural
        // heights, its metrics (the token's fonts): then the line's pieces are kept.
        var breaker = LineBreaker(maxWidth: options.breakWidth, receiver: LineMeasurer(
            maxLines: options.lineLimit, naturalFonts: natural ? fonts : nil,
            keepsLastLine: options.maxLines > 0 && (natural || options.truncation != .end),
            stack: LineStack(options: options, primary: fonts.primaryMetrics(for: text))))
        let truncated = TextLines.breakLines(&breaker, paragraphCount: paragraphCount, options: options) { index, breaker in
            feed(index, &breaker)
            breaker.endParagraph()
        }
        if truncated, breaker.receiver.keepsLastLine, let last = breaker.receiver.lastLine {
            let line = BrokenLine(pieces: breaker.receiver.lastPieces, end: last, paragraph: 0)
            let (cut, _) = Truncation.truncate(line, text: text, level: breaker.level, graphemes: breaker.graphemes,
                                               options: options, fonts: fonts, engine: engine)
            breaker.receiver.replaceLastLine(with: cut)
        }
        return TextMeasurement(height: breaker.receiver.height, lineStarts: breaker.receiver.lineStarts, isTruncated: truncated)
    }
}
