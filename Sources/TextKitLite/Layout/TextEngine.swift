import Synchronization

/// The entry point of layout: a font fallback chain and a shaped-word cache, shared by
/// every text laid out through it, from any number of threads.
public final class TextEngine: Sendable {
    public let fonts: FontFallbackChain
    public let shapeCache: ShapeCache
    /// Truncation tokens shaped once per direction ("…全文" ends thousands of posts).
    private let tokens = BoundedCache<TokenKey, ShapedText>(maxCount: 256, maxCost: 1 << 20, shards: 4)

    /// What shaping a token depends on: its text, attachments, fallback chain, and per run
    /// the range and the style's shaping attributes (`TextStyle.shapingAttributes`); not ink,
    /// decorations or highlights (the feed's expand highlight names each post).
    private struct TokenKey: Hashable, Sendable {
        struct Run: Hashable, Sendable {
            var range: Range<Int>
            var style: TextStyle
        }

        var units: [UInt16]
        var runs: [Run]
        var attachments: [AttributedText.Attachment]
        var direction: ParagraphDirection
        var writingMode: LayoutOptions.WritingMode
        var fonts: FontFallbackChain

        init(_ token: AttributedText, direction: ParagraphDirection, writingMode: LayoutOptions.WritingMode, fonts: FontFallbackChain) {
            units = token.utf16
            runs = token.runs.map { Run(range: $0.range, style: $0.style.shapingAttributes) }
            attachments = token.attachments
            self.direction = direction
            self.writingMode = writingMode
            self.fonts = fonts
        }
    }

    public init(fonts: FontFallbackChain, shapeCache: ShapeCache = ShapeCache()) {
        self.fonts = fonts
        self.shapeCache = shapeCache
    }

    /// The line of a text whose lines left text out that shows the token, truncated: the
    /// options' token (or "…" styled as the text it follows) shaped for the line's
    /// paragraph, through the token cache, and handed to `Truncation` as data.
    ///
    /// - Parameters:
    ///   - level, graphemes, emptyMetrics: the line's paragraph's embedding level, grapheme
    ///     boundaries and empty-line metrics.
    ///   - fonts: the chain the text was shaped with.
    /// - Returns: the line, whose token pieces have style indices from `text.runs.count` on,
    ///   and the token (those indices are its runs').
    func truncate(_ line: BrokenLine, of text: AttributedText, level: UInt8, graphemes: GraphemeBoundaries, emptyMetrics: FontMetrics,
                  options: LayoutOptions, fonts: FontFallbackChain) -> (line: BrokenLine, token: AttributedText) {
        let tokenText = options.truncationToken ?? AttributedText("\u{2026}", style: Truncation.cutStyle(of: line, in: text))
        let shaped = shapedToken(tokenText, direction: level & 1 == 1 ? .rightToLeft : .leftToRight, writingMode: options.writingMode,
                                 fonts: fonts)
        let token = TruncationToken(shaped: shaped, styleOffset: text.runs.count)
        let cut = Truncation.truncate(line, token: token, graphemes: graphemes, emptyMetrics: emptyMetrics,
                                      options: options, fonts: fonts, units: text.utf16)
        return (cut, tokenText)
    }

    /// `truncate(_:of:level:graphemes:emptyMetrics:options:fonts:)` of the last line `breaker`
    /// broke (it stopped in the line's paragraph).
    func truncate<Receiver>(_ line: BrokenLine, of text: AttributedText, brokenBy breaker: LineBreaker<Receiver>,
                            options: LayoutOptions, fonts: FontFallbackChain) -> (line: BrokenLine, token: AttributedText) {
        truncate(line, of: text, level: breaker.level, graphemes: breaker.graphemes, emptyMetrics: breaker.emptyMetrics,
                 options: options, fonts: fonts)
    }

    /// A truncation token shaped for a paragraph direction and writing mode with a fallback
    /// chain (the text's, usually the engine's own), from the token cache: its pieces are
    /// `token`'s, its text and styles may be those of a token that differs only in what
    /// shaping ignores.
    private func shapedToken(_ token: AttributedText, direction: ParagraphDirection, writingMode: LayoutOptions.WritingMode,
                             fonts: FontFallbackChain) -> ShapedText {
        let key = TokenKey(token, direction: direction, writingMode: writingMode, fonts: fonts)
        if let shaped = tokens.value(for: key) { return shaped }
        let shaped = ShapedText(text: token, direction: direction, writingMode: writingMode, fonts: fonts, cache: shapeCache)
        tokens.insert(shaped, for: key, cost: 256 + shaped.glyphCount * 24)
        return shaped
    }

    /// An engine over the bundled fonts (sans with Arabic and Hebrew, CJK, emoji) and, for
    /// characters none of them has (Korean, Thai, Devanagari, ...), the installed fonts
    /// fontconfig finds: the fonts `textrender` uses by default.
    ///
    /// - Parameter systemFallback: false keeps to the bundled fonts (a character they lack
    ///   is their .notdef box): what depends on no installed font.
    /// - Throws: `FontError` naming a missing or broken bundled font.
    public static func bundled(systemFallback: Bool = true) throws(FontError) -> TextEngine {
        let chain = try BundledFonts.chain()
        return TextEngine(fonts: systemFallback ? chain.withSystemFallback() : chain)
    }

    /// Itemizes and shapes a text (bidi, script, font fallback, HarfBuzz), once, for lines
    /// of a writing mode (vertical lines shape upright characters top to bottom).
    ///
    /// - Throws: `LayoutError` for a style with an invalid point size.
    public func shape(_ text: AttributedText, direction: ParagraphDirection = .auto,
                      writingMode: LayoutOptions.WritingMode = .horizontal) throws(LayoutError) -> ShapedText {
        try validateStyles(of: text)
        return shaped(text, direction: direction, writingMode: writingMode)
    }

    /// Shapes and lays out a text.
    ///
    /// - Throws: `LayoutError` naming the first invalid option or style value (anywhere in
    ///   the text, also past the lines a line limit shows, as `measure` and `shape` do).
    public func layout(_ text: AttributedText, options: LayoutOptions = LayoutOptions()) throws(LayoutError) -> TextLayout {
        try validate(options)
        try validateStyles(of: text)
        if let prefix = Self.linePrefix(text, options: options) {
            let partial = layoutValid(prefix, options: options)
            if partial.isTruncated { return partial.replacingText(with: text) }
        }
        return layoutValid(text, options: options)
    }

    /// Shapes and lays out a text whose options and styles were checked.
    private func layoutValid(_ text: AttributedText, options: LayoutOptions) -> TextLayout {
        LayoutBuilder(shaped: shaped(text, direction: options.direction, writingMode: options.writingMode), options: options,
                      engine: self).build()
    }

    /// A text whose styles were checked, itemized and shaped.
    func shaped(_ text: AttributedText, direction: ParagraphDirection, writingMode: LayoutOptions.WritingMode) -> ShapedText {
        ShapedText(text: text, direction: direction, writingMode: writingMode, fonts: fonts, cache: shapeCache)
    }

    /// Measures a text as `layout(_:options:)` would lay it out: the same height, line
    /// starts and truncation, through the same line breaker, without making lines or glyph
    /// positions: the words go from the itemizer (through the shaped-word cache) into the
    /// breaker as they are shaped, and the text is never held whole (see `TextMeasurer`).
    ///
    /// - Throws: `LayoutError` naming the first invalid option or style value.
    public func measure(_ text: AttributedText, options: LayoutOptions) throws(LayoutError) -> TextMeasurement {
        try validate(options)
        try validateStyles(of: text)
        return measureValid(text, options: options)
    }

    /// `measure` of a text whose options and styles are known to be valid: the feed
    /// precomputer checks its cell style once (every text block's styles and options come
    /// from it) and each post's width, so its blocks are not checked again per post.
    package func measureValid(_ text: AttributedText, options: LayoutOptions) -> TextMeasurement {
        if let prefix = Self.linePrefix(text, options: options) {
            let partial = measureWhole(prefix, options: options)
            if partial.isTruncated { return partial }
        }
        return measureWhole(text, options: options)
    }

    private func measureWhole(_ text: AttributedText, options: LayoutOptions) -> TextMeasurement {
        TextMeasurer.measure(text, options: options, engine: self)
    }

    /// With a line limit (end truncation, a finite width), a prefix of a long text that holds
    /// one line more than shown, so truncation is still detected: a 10 MB text cut at 3 lines
    /// costs 3 lines. Nil when the whole text is short, or when its shown lines could depend
    /// on what follows the prefix. The caller uses the prefix only when it came out truncated.
    private static func linePrefix(_ text: AttributedText, options: LayoutOptions) -> AttributedText? {
        guard options.maxLines > 0, options.maxLines < Int.max, options.width.isFinite, options.truncation == .end, options.exclusions.isEmpty,
              options.direction != .rightToLeft, let prefix = text.prefixForLines(options.maxLines + 1, width: options.width),
              prefixLaysOutAlike(prefix.utf16, direction: options.direction) else { return nil }
        return prefix
    }

    /// True when the lines shown from a prefix of a text cannot depend on what follows it:
    /// - left-to-right text only (no right-to-left characters or bidi controls), and the
    ///   direction of the prefix's last paragraph is decided inside it (rules P2–P3), so a
    ///   neutral before the cut cannot resolve against later strong characters;
    /// - the last paragraph holds a character of a real script, so its leading neutral
    ///   characters (Common, Inherited: "\u{FFFD}", flags, marks) take the same script as
    ///   in the whole text.
    /// Only the end of the prefix (its last word or cluster, past the shown lines) differs.
    /// The caller uses the prefix only when it gives more lines than shown; start and middle
    /// truncation need the end of the text and never use it.
    private static func prefixLaysOutAlike(_ units: [UInt16], direction: ParagraphDirection) -> Bool {
        let lastParagraph = Paragraphs.split(units).last?.content ?? 0..<0
        return units.withUnsafeBufferPointer { !UnicodeProperties.mayNeedBidi($0) }
            && (direction == .leftToRight || UnicodeProperties.lastParagraphHasStrongCharacter(units))
            && String(decoding: units[lastParagraph], as: UTF16.self).unicodeScalars
                .contains { !Script(of: $0.value).isNeutral }
    }

    /// Lays out an already shaped text: breaks lines at the options' width, truncates,
    /// aligns. Never shapes the text again (only a truncation token, through the cache).
    /// `options.direction` is ignored: the shaped text keeps its own.
    ///
    /// - Throws: `LayoutError` naming the first invalid option, or a writing mode other than
    ///   the one the text was shaped for.
    /// - Complexity: O(n) in the shaped pieces, plus the token.
    public func layout(_ shaped: ShapedText, options: LayoutOptions) throws(LayoutError) -> TextLayout {
        try validate(options, for: shaped)
        return LayoutBuilder(shaped: shaped, options: options, engine: self).build()
    }

    /// Measures an already shaped text as `layout(_:options:)` of it would lay it out: the
    /// same height, line starts and truncation, by breaking its pieces again at the options'
    /// width. Never shapes the text again (only a truncation token, through the cache), and
    /// makes no lines or glyph positions: measuring one shaped text at many widths costs the
    /// line breaking alone. `options.direction` is ignored: the shaped text keeps its own.
    ///
    /// - Throws: `LayoutError` naming the first invalid option.
    /// - Complexity: O(n) in the shaped pieces, plus the token.
    public func measure(_ shaped: ShapedText, options: LayoutOptions) throws(LayoutError) -> TextMeasurement {
        try validate(options, for: shaped)
        return measureValid(shaped, options: options)
    }

    /// Measures a text at several widths, each result equal to `measure(_:options:)` with
    /// `options` at that width: the text is itemized and shaped once, its pieces broken into
    /// lines at every width as they come (a service measuring for several device widths).
    ///
    /// - Throws: `LayoutError` naming the first invalid option (at any width) or style value.
    public func measure(_ text: AttributedText, options: LayoutOptions, widths: [Double]) throws(LayoutError) -> [TextMeasurement] {
        for width in widths { try validate(options.at(width: width)) }
        try validateStyles(of: text)
        return measureValid(text, options: options, widths: widths)
    }

    /// `measure(_:options:widths:)` of a text whose options and styles are known to be valid.
    package func measureValid(_ text: AttributedText, options: LayoutOptions, widths: [Double]) -> [TextMeasurement] {
        guard widths.count > 1 else { return widths.map { measureValid(text, options: options.at(width: $0)) } }
        guard let widest = widths.max(), let prefix = Self.linePrefix(text, options: options.at(width: widest)) else {
            return TextMeasurer.measure(text, options: options, widths: widths, engine: self)
        }
        // The prefix for the widest width holds one line more than shown at every width
        // (`linePrefix`); the widths it leaves untruncated are measured on the whole text.
        var results: [TextMeasurement?] = TextMeasurer.measure(prefix, options: options, widths: widths, engine: self)
            .map { $0.isTruncated ? $0 : nil }
        let rest = widths.indices.filter { results[$0] == nil }
        if !rest.isEmpty {
            let whole = TextMeasurer.measure(text, options: options, widths: rest.map { widths[$0] }, engine: self)
            for (index, measurement) in zip(rest, whole) { results[index] = measurement }
        }
        return results.map { $0! }
    }

    /// `measure(_:options:)` of a shaped text with options known to be valid.
    package func measureValid(_ shaped: ShapedText, options: LayoutOptions) -> TextMeasurement {
        TextMeasurer.measure(shaped, options: options, engine: self)
    }

    /// Checks the options and the styles of their truncation token's runs.
    private func validate(_ options: LayoutOptions) throws(LayoutError) {
        try options.validate()
        if let token = options.truncationToken { try validateStyles(of: token) }
    }

    /// Checks options for breaking a shaped text: valid, and of the writing mode it was shaped for.
    private func validate(_ options: LayoutOptions, for shaped: ShapedText) throws(LayoutError) {
        try validate(options)
        guard options.writingMode == shaped.writingMode else {
            throw .invalidOption(name: "writingMode", value: options.writingMode.rawValue,
                                 reason: "the text was shaped for \(shaped.writingMode.rawValue) lines; shape it with this writing mode")
        }
    }

    /// Checks every style of a text (point sizes, letter spacing, font families) and its
    /// attachments' sizes.
    private func validateStyles(of text: AttributedText) throws(LayoutError) {
        for run in text.runs { try run.style.validate(fonts: fonts) }
        try text.baseStyle.validate(fonts: fonts)
        for attachment in text.attachments { try attachment.attachment.validate() }
    }
}

extension TextEngine {
    /// The narrowest layout width at which a shaped text takes at most `lines` lines: the
    /// width a chat bubble or a title needs (pretext's `walkLineRanges` use). Found by
    /// breaking the text's units again at a few widths the units' sums give, never shaping
    /// again; exact: the text's widest line at that width plus the insets, and one point
    /// less needs more lines. With `lines: 1` and no width limit it is the text's natural
    /// width (of its widest paragraph). `layout(_:options:)` at it gives those lines, as
    /// balanced lines do (`LayoutOptions.lineBalance`).
    ///
    /// - Parameters:
    ///   - shaped: the text, shaped once (`shape(_:direction:)`).
    ///   - lines: the most lines, 1 or more.
    ///   - options: the widest width allowed (`width`; infinity for none) and the insets,
    ///     added to the width found; line limits, truncation and balance do not apply.
    /// - Returns: the width in points, or nil when the text needs more than `lines` lines
    ///   even at `options.width` (it has more paragraphs than `lines`, say). A text with
    ///   nothing visible (empty, or only white space) gives the insets' width.
    /// - Throws: `LayoutError` naming an invalid option or a `lines` below 1.
    /// - Complexity: O(n) in the text's break units per width tried, for a few widths (about
    ///   the log of the number of distinct line widths).
    public func narrowestWidth(of shaped: ShapedText, lines: Int, options: LayoutOptions = LayoutOptions()) throws(LayoutError) -> Double? {
        try validate(options, for: shaped)
        guard lines >= 1 else { throw .invalidOption(name: "lines", value: "\(lines)", reason: "must be 1 or more") }
        return LineBalance.narrowestWidth(shaped, lines: lines, maxWidth: options.contentWidth, hyphenation: options.hyphenation,
                                          cache: shapeCache)
            .map { $0 + options.lineInsets.horizontal }
    }
}
