/// Measures a text the way `LayoutBuilder` lays it out, through the same line breaker and
/// truncation, without making lines: the breaker's receiver keeps line starts and metrics
/// (`LineMeasurer`). No lines and no glyph positions are made.
enum TextMeasurer {
    /// Measures a text as it is itemized: each paragraph's pieces stream from the itemizer
    /// into the breaker, no shaped text is made, and a text cut at its line limit is
    /// itemized no further than the cut.
    static func measure(_ text: AttributedText, options: LayoutOptions, engine: TextEngine) -> TextMeasurement {
        var breaker = self.breaker(text, options: options, fonts: engine.fonts)
        let paragraphCount = stream(text, options: options, engine: engine, into: &breaker) { $0.receiver.emptyLineMetrics = $1 }
        return measurement(&breaker, text: text, paragraphCount: paragraphCount, fonts: engine.fonts, options: options, engine: engine)
    }

    /// Measures a text at several widths (`options` at each) as it is itemized: one stream
    /// of pieces goes to a breaker per width (`LineBreakerFan`), no shaped text is made, and
    /// the text is itemized no further than the widest cut. Each result equals
    /// `measure(_:options:engine:)` at its width.
    static func measure(_ text: AttributedText, options: LayoutOptions, widths: [Double], engine: TextEngine) -> [TextMeasurement] {
        var fan = LineBreakerFan(widths.map { breaker(text, options: options.at(width: $0), fonts: engine.fonts) }, fonts: engine.fonts)
        let paragraphCount = stream(text, options: options, engine: engine, into: &fan) { fan, empty in
            fan.forEachActiveReceiver { $0.emptyLineMetrics = empty }
        }
        return fan.map { index, breaker in
            measurement(&breaker, text: text, paragraphCount: paragraphCount, fonts: engine.fonts,
                        options: options.at(width: widths[index]), engine: engine)
        }
    }

    /// Streams each paragraph's pieces from the itemizer into `breaker` until it stops;
    /// `setEmptyLineMetrics` gives its receivers the paragraph's metrics for a line with no
    /// pieces (natural heights), sized as in a layout (`Itemizer.emptyLineMetrics`).
    ///
    /// - Returns: the text's number of paragraphs.
    @inline(__always)
    private static func stream<Breaker: ParagraphBreaking>(
        _ text: AttributedText, options: LayoutOptions, engine: TextEngine, into breaker: inout Breaker,
        setEmptyLineMetrics: (inout Breaker, FontMetrics) -> Void
    ) -> Int {
        let itemizer = Itemizer(text: text, direction: options.direction, fonts: engine.fonts, cache: engine.shapeCache)
        let paragraphs = Paragraphs.split(text.utf16)
        TextLines.breakLines(&breaker, paragraphCount: paragraphs.count) { index, breaker in
            let paragraph = paragraphs[index]
            if options.lineHeightMode == .natural { setEmptyLineMetrics(&breaker, itemizer.emptyLineMetrics(paragraph)) }
            itemizer.stream(paragraph, into: &breaker)
        }
        return paragraphs.count
    }

    /// Measures a shaped text at the options' width: its pieces go through the breaker
    /// again, with no itemizing, shaping or ICU ("shape once, break many").
    static func measure(_ shaped: ShapedText, options: LayoutOptions, engine: TextEngine) -> TextMeasurement {
        var breaker = self.breaker(shaped.text, options: options, fonts: shaped.fonts)
        let paragraphs = shaped.paragraphs.count
        TextLines.breakLines(&breaker, paragraphCount: paragraphs) { index, breaker in
            breaker.receiver.emptyLineMetrics = shaped.paragraphs[index].emptyMetrics
            shaped.feed(paragraph: index, into: &breaker)
        }
        return measurement(&breaker, text: shaped.text, paragraphCount: paragraphs, fonts: shaped.fonts, options: options, engine: engine)
    }

    /// A new breaker at the options' width whose receiver measures.
    @inline(__always)
    private static func breaker(_ text: AttributedText, options: LayoutOptions, fonts: FontFallbackChain) -> LineBreaker<LineMeasurer> {
        let natural = options.lineHeightMode == .natural
        // Truncation changes the last line's start (start truncation) or, with natural
        // heights, its metrics (the token's fonts): then the line's pieces are kept.
        return LineBreaker(maxWidth: options.breakWidth, receiver: LineMeasurer(
            maxLines: options.lineLimit, naturalFonts: natural ? fonts : nil,
            keepsLastLine: options.maxLines > 0 && (natural || options.truncation != .end),
            stack: LineStack(options: options, primary: fonts.primaryMetrics(for: text))))
    }

    /// The measurement of a text whose paragraphs went through `breaker`: its last line
    /// truncated when text was left out.
    private static func measurement(_ breaker: inout LineBreaker<LineMeasurer>, text: AttributedText, paragraphCount: Int,
                                    fonts: FontFallbackChain, options: LayoutOptions, engine: TextEngine) -> TextMeasurement {
        let truncated = breaker.leavesTextOut(paragraphCount: paragraphCount, options: options)
        if truncated, breaker.receiver.keepsLastLine, let last = breaker.receiver.lastLine {
            let line = BrokenLine(pieces: breaker.receiver.lastPieces, end: last, paragraph: 0)
            let (cut, _) = Truncation.truncate(line, text: text, level: breaker.level, graphemes: breaker.graphemes,
                                               options: options, fonts: fonts, engine: engine)
            breaker.receiver.replaceLastLine(with: cut)
        }
        return TextMeasurement(height: breaker.receiver.height, lineStarts: breaker.receiver.lineStarts, isTruncated: truncated)
    }
}
