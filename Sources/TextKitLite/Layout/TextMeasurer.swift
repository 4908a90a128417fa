/// Measures a text the way `LayoutBuilder` lays it out, through the same line breaker and
/// truncation, without making lines: the breaker's receiver keeps line starts and stacks
/// the lines (`LineMeasurer`). No lines and no glyph positions are made.
enum TextMeasurer {
    /// Measures a text at one or more widths (`options` at each) as it is itemized: the
    /// itemizer's pieces are summed into break units once and each unit goes to a breaker
    /// per width (`LineBreakerFan`); no shaped text is made, and the text is itemized no
    /// further than the widest cut. Each result equals `measure(_:options:engine:)` of the
    /// shaped text at its width.
    static func measure(_ text: AttributedText, options: LayoutOptions, widths: [Double], engine: TextEngine) -> [TextMeasurement] {
        var fan = LineBreakerFan(widths.map { breaker(text, options: options.at(width: $0), fonts: engine.fonts) }, fonts: engine.fonts)
        let itemizer = Itemizer(text: text, direction: options.direction, fonts: engine.fonts, cache: engine.shapeCache)
        let paragraphs = Paragraphs.split(text.utf16)
        for paragraph in paragraphs {
            if fan.isStopped { break }  // the line limit was reached at every width before this paragraph
            itemizer.stream(paragraph, into: &fan)
            fan.endParagraph()
        }
        return fan.map { index, breaker in
            measurement(&breaker, text: text, paragraphCount: paragraphs.count, fonts: engine.fonts,
                        options: options.at(width: widths[index]), engine: engine)
        }
    }

    /// Measures a shaped text at the options' width: its units go through the breaker again,
    /// with no itemizing, shaping or ICU ("shape once, break many").
    static func measure(_ shaped: ShapedText, options: LayoutOptions, engine: TextEngine) -> TextMeasurement {
        var breaker = self.breaker(shaped.text, options: options, fonts: shaped.fonts)
        shaped.breakLines(into: &breaker)
        return measurement(&breaker, text: shaped.text, paragraphCount: shaped.paragraphs.count, fonts: shaped.fonts,
                           options: options, engine: engine)
    }

    /// A new breaker at the options' width whose receiver measures.
    @inline(__always)
    private static func breaker(_ text: AttributedText, options: LayoutOptions, fonts: FontFallbackChain) -> LineBreaker<LineMeasurer> {
        // Truncation changes the last line's start (start truncation) or, with natural
        // heights, its metrics (the token's fonts): then the line's pieces are kept.
        LineBreaker(maxWidth: options.breakWidth, fonts: fonts, receiver: LineMeasurer(
            maxLines: options.lineLimit,
            keepsLastLine: options.maxLines > 0 && (options.lineHeightMode == .natural || options.truncation != .end),
            stack: LineStack(options: options, primary: fonts.primaryMetrics(for: text))))
    }

    /// The measurement of a text whose paragraphs went through `breaker`: its last line
    /// truncated when text was left out.
    private static func measurement(_ breaker: inout LineBreaker<LineMeasurer>, text: AttributedText, paragraphCount: Int,
                                    fonts: FontFallbackChain, options: LayoutOptions, engine: TextEngine) -> TextMeasurement {
        let truncated = breaker.leavesTextOut(paragraphCount: paragraphCount, options: options)
        if truncated, breaker.receiver.keepsLastLine, let last = breaker.receiver.lastLine {
            let line = BrokenLine(pieces: breaker.receiver.lastPieces, end: last, paragraph: 0)
            let (cut, _) = engine.truncate(line, of: text, brokenBy: breaker, options: options, fonts: fonts)
            breaker.receiver.replaceLastLine(with: cut)
        }
        return TextMeasurement(height: breaker.receiver.height, lineStarts: breaker.receiver.lineStarts, isTruncated: truncated)
    }
}
