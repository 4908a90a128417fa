/// Measures a text the way `LayoutBuilder` lays it out, through the same line breaker and
/// truncation, without making lines: the breaker's receiver keeps line starts and stacks
/// the lines (`LineMeasurer`). No lines and no glyph positions are made.
enum TextMeasurer {
    /// Measures a text as it is itemized: the itemizer's pieces are summed into break units
    /// and go to the breaker as they come (`LineBreakerFan`); no shaped text is made, and the
    /// text is itemized no further than the cut. Equals `measure(_:options:engine:)` of the
    /// shaped text.
    /// Options that break lines twice (`BreakPlan`) or around exclusion shapes need the units
    /// kept (`LayoutOptions.keepsUnits`): the text is shaped whole, then measured as a shaped text.
    static func measure(_ text: AttributedText, options: LayoutOptions, engine: TextEngine) -> TextMeasurement {
        if options.keepsUnits { return measure(engine.shaped(text, direction: options.direction, writingMode: options.writingMode), options: options, engine: engine) }
        let primary = engine.fonts.primaryMetrics(for: text)
        let paragraphs = Paragraphs.split(text.utf16)
        var fan = LineBreakerFan(breaker(options: options, hyphenator: hyphenator(for: text, paragraphs, options, engine), fonts: engine.fonts,
                                         primary: primary, engine: engine),
                                 others: NoBreakers(), fonts: engine.fonts)
        stream(text, paragraphs, options: options, engine: engine, into: &fan)
        return measurement(&fan.first, text: { text }, paragraphCount: paragraphs.count, fonts: engine.fonts, options: options, engine: engine)
    }

    /// Measures a text at several widths (`options` at each) as it is itemized: each unit
    /// goes to a breaker per width, and the text is itemized no further than the widest cut.
    /// Each result equals `measure(_:options:engine:)` at its width.
    ///
    /// - Precondition: `widths` is not empty.
    static func measure(_ text: AttributedText, options: LayoutOptions, widths: [Double], engine: TextEngine) -> [TextMeasurement] {
        if options.keepsUnits {
            let shaped = engine.shaped(text, direction: options.direction, writingMode: options.writingMode)
            return widths.map { measure(shaped, options: options.at(width: $0), engine: engine) }
        }
        let primary = engine.fonts.primaryMetrics(for: text)
        let paragraphs = Paragraphs.split(text.utf16)
        let hyphenator = hyphenator(for: text, paragraphs, options, engine)
        // The options are read at each width, not copied for it.
        func breaker(at width: Double) -> LineBreaker<LineMeasurer> {
            self.breaker(options: options, width: options.contentWidth(at: width), hyphenator: hyphenator, fonts: engine.fonts,
                         primary: primary, engine: engine)
        }
        var others = widths.dropFirst().map(breaker(at:))
        return others.withUnsafeMutableBufferPointer { others in
            var fan = LineBreakerFan(breaker(at: widths[0]), others: BreakerBuffer(breakers: others), fonts: engine.fonts)
            stream(text, paragraphs, options: options, engine: engine, into: &fan)
            var results: [TextMeasurement] = []
            results.reserveCapacity(widths.count)
            results.append(measurement(&fan.first, text: { text }, paragraphCount: paragraphs.count, fonts: engine.fonts,
                                       options: options, width: widths[0], engine: engine))
            for index in others.indices {
                results.append(measurement(&others[index], text: { text }, paragraphCount: paragraphs.count, fonts: engine.fonts,
                                           options: options, width: widths[index + 1], engine: engine))
            }
            return results
        }
    }

    /// Streams the text's paragraphs, `paragraphs` (`Paragraphs.split`), from the itemizer
    /// into `fan` until its breakers stop.
    @inline(__always)
    private static func stream<Others>(_ text: AttributedText, _ paragraphs: [ParagraphRange], options: LayoutOptions, engine: TextEngine,
                                       into fan: inout LineBreakerFan<LineMeasurer, Others>) {
        let itemizer = Itemizer(text: text, direction: options.direction, writingMode: options.writingMode, fonts: engine.fonts, cache: engine.shapeCache)
        for paragraph in paragraphs {
            if fan.isStopped { break }  // the line limit was reached at every width before this paragraph
            itemizer.stream(paragraph, into: &fan)
            fan.endParagraph()
        }
    }

    /// Measures a shaped text at the options' width: its units go through the breaker again,
    /// with no itemizing, shaping or ICU ("shape once, break many"), as its `BreakPlan` says.
    /// A plan that leaves the first lines out (start truncation over several lines, whose
    /// token goes on the first line shown) is measured by laying out.
    static func measure(_ shaped: ShapedText, options: LayoutOptions, engine: TextEngine) -> TextMeasurement {
        let plan = BreakPlan(shaped, options: options, engine: engine)
        if plan.skippedLines > 0 { return measureByLayout(shaped, options: options, plan: plan, engine: engine) }
        var breaker = self.breaker(options: options, width: plan.width, hyphenator: shaped.hyphenator(options.hyphenation, cache: engine.shapeCache),
                                   fonts: shaped.fonts,
                                   primary: shaped.primaryMetrics, engine: engine)
        shaped.breakLines(into: &breaker)
        return measurement(&breaker, text: { shaped.text }, paragraphCount: shaped.paragraphs.count, fonts: shaped.fonts,
                           options: options, engine: engine)
    }

    /// The measurement of the layout of `shaped` broken as `plan` says (out of line: the
    /// layout's copies of the options stay out of the measurement's path).
    @inline(never)
    private static func measureByLayout(_ shaped: ShapedText, options: LayoutOptions, plan: BreakPlan, engine: TextEngine) -> TextMeasurement {
        TextMeasurement(LayoutBuilder(shaped: shaped, options: options, engine: engine).build(plan: plan))
    }

    /// A new breaker at `width`, whose receiver measures; `primary`: the primary font's
    /// metrics at the text's base size. The width is the options' content width unless a
    /// plan or another width says otherwise: nothing else the breaker reads of the options
    /// depends on their width, but their exclusion shapes, which a streamed text never has.
    @inline(__always)
    private static func breaker(options: LayoutOptions, width: Double? = nil, hyphenator: Hyphenator?, fonts: FontFallbackChain,
                                primary: FontMetrics, engine: TextEngine) -> LineBreaker<LineMeasurer> {
        // Truncation changes the last line's start (start truncation) or, with natural
        // heights, its metrics (the token's fonts): then the line's pieces are kept.
        var breaker = LineBreaker(maxWidth: width ?? options.contentWidth, linesAtWidth: options.linesAtWidth, fonts: fonts, receiver: LineMeasurer(
            maxLines: options.lineLimit,
            keepsLastLine: options.maxLines > 0 && (options.lineHeightMode == .natural || options.truncation != .end),
            stack: LineStack(options: options, primary: primary)),
            hyphenator: hyphenator)
        breaker.flow(around: options, primary: primary)
        return breaker
    }

    /// The hyphenator of a text measured as it is itemized, whose paragraphs are
    /// `paragraphs`; nil when none of them may be cut with a hyphen (as a shaped text's:
    /// `ShapedText.hyphenator(_:cache:)`).
    private static func hyphenator(for text: AttributedText, _ paragraphs: [ParagraphRange], _ options: LayoutOptions,
                                   _ engine: TextEngine) -> Hyphenator? {
        guard Hyphenator.mayCut(options.hyphenation, softHyphens: paragraphs.contains { $0.scan.hasSoftHyphen }) else { return nil }
        return Hyphenator(text: text, settings: options.hyphenation, cache: engine.shapeCache)
    }

    /// The measurement of a text whose paragraphs went through `breaker`, with `options`
    /// at `width` (nil: theirs): its last line truncated when text was left out (only then
    /// is the text read, and the options copied for the width).
    private static func measurement(_ breaker: inout LineBreaker<LineMeasurer>, text: () -> AttributedText, paragraphCount: Int,
                                    fonts: FontFallbackChain, options: LayoutOptions, width: Double? = nil,
                                    engine: TextEngine) -> TextMeasurement {
        let truncated = breaker.leavesTextOut(paragraphCount: paragraphCount, contentWidth: options.contentWidth(at: width ?? options.width))
        if truncated, breaker.receiver.keepsLastLine {
            truncateLastLine(&breaker, text: text(), fonts: fonts, options: width.map(options.at(width:)) ?? options, engine: engine)
        }
        return TextMeasurement(height: breaker.receiver.height, lineStarts: breaker.receiver.lineStarts, isTruncated: truncated)
    }

    /// Truncates the last line `breaker` measured, of `text` (out of line: most
    /// measurements truncate nothing).
    @inline(never)
    private static func truncateLastLine(_ breaker: inout LineBreaker<LineMeasurer>, text: AttributedText, fonts: FontFallbackChain,
                                         options: LayoutOptions, engine: TextEngine) {
        guard let last = breaker.receiver.lastLine else { return }
        let line = BrokenLine(pieces: breaker.receiver.lastPieces, end: last, paragraph: 0)
        let (cut, _) = engine.truncate(line, of: text, brokenBy: breaker, options: options, fonts: fonts)
        breaker.receiver.replaceLastLine(with: cut)
    }
}
