/// A paragraph after itemization and shaping, ready to be broken into lines at any width:
/// its pieces, break units and their metrics are ranges of its shaped text's arrays
/// (`ShapedText`), which hold every paragraph's one after another.
struct ShapedParagraph: Sendable {
    var range: ParagraphRange
    /// Resolved paragraph embedding level (0 LTR, 1 RTL).
    var level: UInt8
    /// Grapheme cluster boundaries after the paragraph start (absolute offsets, ascending).
    var graphemes: GraphemeBoundaries
    /// Natural metrics of a line with no pieces (the paragraph's first style's font and size).
    var emptyMetrics: FontMetrics
    /// Its shaped pieces in logical order, covering `range.content`.
    var pieces: Range<Int>
    /// Its pieces gathered into break units, summed up once for breaking at any width.
    var units: Range<Int>
    /// Its units' metrics (`BreakUnit.metrics` indexes the text's whole table).
    var metrics: Range<Int>
}

/// A run of one style, script, bidi level and font, in paragraph offsets.
struct TextItem {
    var start: Int
    var end: Int
    /// Index of the text's run (its style).
    var style: Int32
    var script: Script
    var level: UInt8
    /// Index of the font in the fallback chain, or -1 for the style's preferred font.
    var font: Int
    /// Index of the text's attachment the item stands for (its one cluster), or -1 for text.
    var attachment: Int32 = -1
    /// A full-width punctuation mark of its own that loses its blank half
    /// (`CJKPunctuation.squeezed`): shaped with the font's half-width forms.
    var squeezed = false
    /// In vertical text, characters that stand upright (`UnicodeProperties.isUprightInVertical`):
    /// shaped top to bottom. False for horizontal text and for runs turned sideways.
    var upright = false
}

/// Splits a paragraph into items (runs of one style, script, bidi level, resolved font and,
/// in vertical text, orientation),
/// has a `WordCutter` cut them into words, and gets each word shaped from a `WordSource`
/// (the shaped-word cache, or HarfBuzz).
struct Itemizer {
    let text: AttributedText
    /// Per style: the font asked for by `TextStyle.font` (nil for `.chain`).
    /// Empty when every style uses the chain alone.
    let preferredFonts: [Font?]
    /// Per style: it asks for a weight, slant, features or letter spacing (a font variant).
    /// Empty when no style does (the usual case).
    let styledRuns: [Bool]
    /// Per style: the CJK region its language asks for (regional faces of CJK fonts).
    /// Empty when no style has such a language (the usual case).
    let regions: [CJKRegion?]
    let chain: FontFallbackChain
    let paragraphLevel: UInt8?
    let cache: ShapeCache
    let shaper: HarfBuzzShaper
    /// Runs that continue an item (`continues(_:_:)`) extend it without the general
    /// per-cluster steps (off: every cluster takes them, as the tests compare).
    let extendsRuns: Bool
    /// Lines are vertical: upright characters are shaped top to bottom.
    let vertical: Bool

    /// An itemizer for a text shaped with a paragraph direction, writing mode and fallback chain.
    init(text: AttributedText, direction: ParagraphDirection, writingMode: LayoutOptions.WritingMode = .horizontal,
         fonts: FontFallbackChain, cache: ShapeCache, extendsRuns: Bool = true) {
        self.text = text
        // The runs' styles read in place, by index: iterating the runs copies each (and
        // retains its style's strings and arrays).
        let runs = text.runs
        var chainOnly = true, plain = true, untagged = true
        for index in runs.indices {
            if runs[index].style.font != .chain { chainOnly = false }
            if runs[index].style.changesGlyphs { plain = false }
            if runs[index].style.language != nil { untagged = false }
        }
        // Empty when no style asks for a font of its own (the usual case): nothing to keep.
        preferredFonts = chainOnly ? [] : runs.map { fonts.preferredFont(for: $0.style) }
        styledRuns = plain ? [] : runs.map(\.style.changesGlyphs)
        regions = untagged ? [] : runs.map { $0.style.language.flatMap(CJKRegion.init(language:)) }
        chain = fonts
        paragraphLevel = direction.level
        self.cache = cache
        shaper = HarfBuzzShaper()
        self.extendsRuns = extendsRuns
        vertical = writingMode == .vertical
    }

    /// Itemizes and shapes every paragraph of the text: the paragraphs, and the sink that
    /// holds their pieces, units and metrics one paragraph after another.
    func shapeParagraphs() -> (paragraphs: [ShapedParagraph], sink: PieceArray) {
        var sink = PieceArray(fonts: chain)
        let paragraphs = Paragraphs.split(text.utf16).map { shape($0, into: &sink) }
        return (paragraphs, sink)
    }

    /// Itemizes and shapes a paragraph, its pieces, units and metrics added to `sink`'s.
    private func shape(_ paragraph: ParagraphRange, into sink: inout PieceArray) -> ShapedParagraph {
        let start = sink.counts
        stream(paragraph, into: &sink)
        sink.endUnits()
        let end = sink.counts
        return ShapedParagraph(range: paragraph, level: sink.level, graphemes: sink.graphemes, emptyMetrics: sink.emptyMetrics,
                               pieces: start.pieces..<end.pieces, units: start.units..<end.units, metrics: start.metrics..<end.metrics)
    }

    /// The natural metrics of a line of `paragraph` with no pieces (an empty paragraph's, or
    /// a truncated line left with an empty token): its first style's font at its size.
    private func emptyLineMetrics(_ paragraph: ParagraphRange) -> FontMetrics {
        let style = text.runIndex(at: paragraph.content.lowerBound) ?? 0
        let font = preferredFonts.isEmpty ? chain.primary : (preferredFonts[style] ?? chain.primary)
        return font.metrics(size: text.runs[style].style.size)
    }

    /// Itemizes and shapes a paragraph: tells `sink` its level, grapheme boundaries and
    /// empty-line metrics, then hands it its pieces in logical order until it asks to stop.
    func stream<Sink: PieceSink>(_ paragraph: ParagraphRange, into sink: inout Sink) {
        guard !paragraph.content.isEmpty else {
            sink.beginParagraph(paragraph, level: paragraphLevel ?? 0, graphemes: GraphemeBoundaries(everyUnitOf: 0),
                                emptyMetrics: emptyLineMetrics(paragraph))
            return
        }
        text.utf16.withUnsafeBufferPointer { all in
            let original = UnsafeBufferPointer(rebasing: all[paragraph.content])
            // The shaper sees tab as a space and other controls as ZWSP (hidden, zero width),
            // so no control character draws a .notdef box; lengths stay the same. Most
            // paragraphs have none, and are shaped from the text itself.
            let scan = paragraph.scan
            guard scan.hasControl else {
                return stream(paragraph, original: original, shaping: original, scan: scan, into: &sink)
            }
            let shapingUnits = original.map { unit -> UInt16 in
                guard UnicodeProperties.isControl(unit) else { return unit }
                return unit == 0x09 ? 0x20 : 0x200B
            }
            return shapingUnits.withUnsafeBufferPointer { shaping in
                stream(paragraph, original: original, shaping: shaping, scan: scan, into: &sink)
            }
        }
    }

    private func stream<Sink: PieceSink>(
        _ paragraph: ParagraphRange, original: UnsafeBufferPointer<UInt16>, shaping: UnsafeBufferPointer<UInt16>,
        scan: UnicodeProperties.UnitScan, into sink: inout Sink
    ) {
        let firstStyle = Int32(text.runIndex(at: paragraph.content.lowerBound) ?? 0)
        let base = paragraph.content.lowerBound
        let length = original.count

        // UAX #9: levels, only when the text may need them.
        var levels: [UInt8]
        var resolvedLevel = paragraphLevel ?? 0
        if paragraphLevel == 1 || scan.mayNeedBidi {
            (levels, resolvedLevel) = UnicodeProperties.bidiLevels(original, paragraphLevel: paragraphLevel)
        } else {
            levels = []
        }

        let graphemes = UnicodeProperties.graphemeBoundaries(original, everyUnitOwnGrapheme: scan.everyUnitOwnGrapheme)
        // The first run's language, read in place (a copy of its style retains its arrays).
        let language = text.runs.isEmpty ? nil : text.runs[Int(firstStyle)].style.language
        let locale = breakLocale(hasHanOrKana: scan.hasHanOrKana, language: language)
        var breaks = UnicodeProperties.lineBreaks(original, locale: locale)
        // A soft hyphen is a hyphenation point, not a break opportunity: the line breaker
        // cuts there with a hyphen (`Hyphenator`), counting the hyphen's width.
        if scan.hasSoftHyphen { breaks.removeAll { Int($0) < length && original[Int($0) - 1] == 0xAD } }
        var cutter = WordCutter(breaks: breaks, length: length)
        sink.beginParagraph(paragraph, level: resolvedLevel, graphemes: graphemes.offset(by: Int32(base)),
                            emptyMetrics: emptyLineMetrics(paragraph))
        let items = itemize(original, base: base, levels: levels, resolvedLevel: resolvedLevel, graphemes: graphemes,
                            chineseOrJapanese: locale == "zh" || locale == "ja", cutter: &cutter)
        shape(items, shaping: shaping, base: base, cutter: &cutter, into: &sink)
    }

    /// Resolves script and font per grapheme cluster, and cuts items where anything changes
    /// (and around each attachment); tells `cutter` every cluster. In Chinese or Japanese
    /// text (as ICU breaks it), marks shared with Latin take the CJK font and adjacent
    /// full-width marks are squeezed (`CJKPunctuation`).
    private func itemize(_ original: UnsafeBufferPointer<UInt16>, base: Int, levels: [UInt8], resolvedLevel: UInt8,
                         graphemes: GraphemeBoundaries, chineseOrJapanese: Bool, cutter: inout WordCutter) -> [TextItem] {
        var items: [TextItem] = []
        items.reserveCapacity(8)  // most paragraphs have a few items: no regrowth
        var runIndex = text.runIndex(at: base) ?? 0
        var scalars: [UInt32] = []
        var clusterStart = 0
        var lastScript = Script.common
        var pendingNeutralItems = 0  // items at the start whose script is still unknown
        // The current run's end and preferred font, read when the run changes: reading a run
        // copies its style (and retains the style's strings), too much for every cluster.
        let runCount = text.runs.count
        let hasAttachments = !text.attachments.isEmpty
        var runEnd = runCount == 0 ? Int.max : text.runs[runIndex].range.upperBound
        var preferred = preferredFonts.isEmpty ? nil : preferredFonts[runIndex]
        // The last full-width mark met, and the marks to squeeze.
        var previousMark: (kind: CJKPunctuation.Kind, start: Int, font: Int, style: Int)?
        var squeezedMarks: [Int] = []
        // With a boundary after every unit and no bidi levels, a run that continues the last
        // item (`continues`) in its font extends it below, unit by unit, without the general
        // steps: most clusters of a feed.
        let unitClusters = extendsRuns && graphemes.isEveryUnit && levels.isEmpty
        var g = 0
        while g < graphemes.count {
            let clusterEnd = Int(graphemes[g])
            g += 1
            while runIndex + 1 < runCount, runEnd <= base + clusterStart {
                runIndex += 1
                runEnd = text.runs[runIndex].range.upperBound
                preferred = preferredFonts.isEmpty ? nil : preferredFonts[runIndex]
            }
            // Decode the cluster's scalars: most clusters are one scalar, resolved without
            // the scratch array.
            var i = clusterStart
            var script = Script.common
            @inline(__always)  // once or more per cluster, in the itemizer's hottest loop
            func nextScalar() -> UInt32 {
                let scalar: UInt32
                (scalar, i) = original.scalar(at: i, end: clusterEnd)
                if script.isNeutral {
                    let s = Script(of: scalar)
                    if !s.isNeutral { script = s }
                }
                return scalar
            }
            let first = nextScalar()
            let resolved: Int?
            let mayBeMark = chineseOrJapanese && CJKPunctuation.mayBeMark(first)
            if i == clusterEnd {
                if mayBeMark, let mark = CJKPunctuation.SharedMark(first) {
                    resolved = chain.resolve(mark, preferred: preferred)
                } else {
                    resolved = chain.resolve(scalar: first, preferred: preferred)
                }
            } else {
                scalars.removeAll(keepingCapacity: true)
                scalars.append(first)
                while i < clusterEnd { scalars.append(nextScalar()) }
                resolved = scalars.withUnsafeBufferPointer { chain.resolve(cluster: $0, preferred: preferred) }
            }
            let font = resolved ?? -1
            // A mark of one unit next to the last one (a stale `previousMark` is not adjacent).
            // (Vertical text keeps its marks' full-width vertical forms.)
            if mayBeMark, !vertical, i == clusterStart + 1, let kind = CJKPunctuation.kind(first) {
                if let previous = previousMark, previous.start + 1 == clusterStart, previous.font == font, previous.style == runIndex {
                    switch CJKPunctuation.squeezed(previous.kind, kind) {
                    case .first: squeezedMarks.append(previous.start)
                    case .second: squeezedMarks.append(clusterStart)
                    case nil: break
                    }
                }
                previousMark = (kind, clusterStart, font, runIndex)
            }
            if script.isNeutral {
                script = lastScript
            } else if lastScript.isNeutral {
                // Leading neutral text takes the first real script.
                for k in (items.count - pendingNeutralItems)..<items.count { items[k].script = script }
                pendingNeutralItems = 0
            }
            lastScript = script
            let style = Int32(runIndex)
            let level = levels.isEmpty ? resolvedLevel : levels[clusterStart]
            let upright = vertical && UnicodeProperties.isUprightInVertical(first)
            let lastIndex = items.count - 1  // items are compared and extended in place
            if hasAttachments, original[clusterStart] == TextAttachment.unit, let attachment = text.attachmentIndex(at: base + clusterStart) {
                // An attachment is an item of its own, whatever its neighbours.
                items.append(TextItem(start: clusterStart, end: clusterEnd, style: style, script: script, level: level, font: font,
                                      attachment: Int32(attachment)))
            } else if lastIndex >= 0, !hasAttachments || items[lastIndex].attachment < 0, items[lastIndex].style == style, items[lastIndex].font == font,
               items[lastIndex].level == level, items[lastIndex].upright == upright, items[lastIndex].script == script || script.isNeutral {
                items[lastIndex].end = clusterEnd
            } else {
                if lastIndex >= 0, !hasAttachments || items[lastIndex].attachment < 0, items[lastIndex].script.isNeutral, !script.isNeutral,
                   items[lastIndex].style == style, items[lastIndex].font == font, items[lastIndex].level == level,
                   items[lastIndex].upright == upright {
                    // A neutral item followed by the same everything: give it this script and merge.
                    items[items.count - 1].script = script
                    items[items.count - 1].end = clusterEnd
                } else {
                    items.append(TextItem(start: clusterStart, end: clusterEnd, style: style, script: script, level: level, font: font,
                                          upright: upright))
                    if script.isNeutral { pendingNeutralItems += 1 }
                }
            }
            cutter.noteCluster(clusterStart..<clusterEnd, of: original)
            clusterStart = clusterEnd
            // (Ideographs stand upright in vertical text, printable ASCII turns sideways: an
            // item of the other orientation, a neutral's, is not extended.)
            if unitClusters, preferred == nil, let last = items.last, last.attachment < 0,
               last.script == .han || last.script == .latin, last.upright == (vertical && last.script == .han) {
                let end = runIndex + 1 < runCount ? min(original.count, runEnd - base) : original.count
                var k = clusterStart
                while k < end, Self.continues(last.script, original[k]), chain.memoizedFont(for: UInt32(original[k])) == last.font {
                    k += 1
                }
                if k > clusterStart {
                    items[items.count - 1].end = k
                    (clusterStart, g) = (k, k)
                }
            }
        }

        return squeezedMarks.isEmpty ? items : Self.splitting(items, squeezing: squeezedMarks)
    }

    /// A unit that continues an item of `script`, Latin or Han, as the general steps would
    /// find (`Script(of:)` without a call): after Latin, printable ASCII (letters, and
    /// Common characters, which take the script before them); after Han, a CJK unified
    /// ideograph (CJK punctuation goes through the general steps: marks may be squeezed).
    @inline(__always)
    private static func continues(_ script: Script, _ unit: UInt16) -> Bool {
        script == .han ? unit &- 0x4E00 < 0x5200 : unit &- 0x20 < 0x5F
    }

    /// `items` with each mark at `marks` (ascending cluster starts, one unit each) an item
    /// of its own, `squeezed`.
    private static func splitting(_ items: [TextItem], squeezing marks: [Int]) -> [TextItem] {
        var result: [TextItem] = []
        result.reserveCapacity(items.count + 2 * marks.count)
        var next = 0
        for item in items {
            var rest = item
            while next < marks.count, marks[next] < item.end {
                let mark = marks[next]
                next += 1
                guard mark >= rest.start else { continue }
                if mark > rest.start {
                    var before = rest
                    before.end = mark
                    result.append(before)
                }
                var squeezed = rest
                (squeezed.start, squeezed.end, squeezed.squeezed) = (mark, mark + 1, true)
                result.append(squeezed)
                rest.start = mark + 1
            }
            if rest.start < rest.end { result.append(rest) }
        }
        return result
    }

    /// Cuts items into words and hands `sink` each word's piece (from the word source),
    /// until it asks to stop.
    private func shape<Sink: PieceSink>(_ items: [TextItem], shaping: UnsafeBufferPointer<UInt16>, base: Int,
                                        cutter: inout WordCutter, into sink: inout Sink) {
        sink.reserve(cutter.estimatedWordCount(items: items.count))
        var words = WordSource(cache: cache, shaper: shaper)
        defer { words.finish() }
        for var item in items {
            if item.attachment >= 0 {
                guard sink.take(attachmentPiece(item, base: base, cutter: &cutter)) else { return }
                continue
            }
            var font = item.font >= 0 ? chain.font(at: item.font) : preferredFonts[Int(item.style)]!
            // Read once per item: each read of a style copies it (and retains its strings).
            let size = text.runs[Int(item.style)].style.size, language = text.runs[Int(item.style)].style.language
            if !regions.isEmpty, let region = regions[Int(item.style)] {
                let face = chain.font(font, for: region, covering: UnsafeBufferPointer(rebasing: shaping[item.start..<item.end]))
                if face !== font { (font, item.font) = (face, -1) }  // not a chain font: the pieces' words hold it
            }
            var spacing = ShapedPiece.Spacing.none
            if item.squeezed || (!styledRuns.isEmpty && styledRuns[Int(item.style)]) {
                (font, spacing) = styled(&item, font: font, units: UnsafeBufferPointer(rebasing: shaping[item.start..<item.end]))
            }
            words.begin(item, font: font, language: language)
            let scale = size / Double(font.unitsPerEm)
            var pieceStart = item.start
            while pieceStart < item.end {
                let (pieceEnd, breakAfter) = cutter.word(from: pieceStart, itemEnd: item.end)
                let next = words.piece(UnsafeBufferPointer(rebasing: shaping[pieceStart..<pieceEnd]), start: Int32(base + pieceStart),
                                       item: item, font: font, size: size, scale: scale, language: language, breakAfter: breakAfter,
                                       letterSpacing: spacing)
                guard sink.take(next) else { return }
                pieceStart = pieceEnd
            }
        }
    }

    /// The font and letter spacing of an item whose style asks for a weight, slant, features
    /// or letter spacing, or of a squeezed mark (half-width forms); the item's font index
    /// becomes -1 when the font is not the chain's.
    @inline(never)
    private func styled(_ item: inout TextItem, font: Font, units: UnsafeBufferPointer<UInt16>) -> (Font, ShapedPiece.Spacing) {
        var style = text.runs[Int(item.style)].style
        var spacing = ShapedPiece.Spacing.none
        if style.letterSpacing != 0 {
            spacing = ShapedPiece.Spacing(points: Float(style.letterSpacing), wordEndOnly: item.script.isCursive)
            // Optional ligatures would hide the spacing inside them (CSS Text 3, § 8.2).
            if !item.script.isCursive { style.features += Self.noOptionalLigatures }
        }
        if item.squeezed { style.features.append(CJKPunctuation.halfWidth) }
        let styled = chain.font(font, for: style, covering: units)
        if styled !== font { item.font = -1 }  // not a chain font: the pieces' words hold it
        return (styled, spacing)
    }

    /// The piece of an attachment item: placed on the metrics of its style's font (the
    /// style's own, else the chain's primary), breakable after as the text there allows.
    private func attachmentPiece(_ item: TextItem, base: Int, cutter: inout WordCutter) -> ShapedPiece {
        var end = item.start, breakAfter = false
        while end < item.end { (end, breakAfter) = cutter.word(from: end, itemEnd: item.end) }
        let index = Int(item.attachment)
        let size = text.runs[Int(item.style)].style.size
        let font = preferredFonts.isEmpty ? chain.primary : (preferredFonts[Int(item.style)] ?? chain.primary)
        return ShapedPiece(attachment: index, text.attachments[index].attachment, font: font.metrics(size: size),
                           start: Int32(base + item.start), end: Int32(base + item.end), size: size, style: item.style,
                           level: item.level, breakAfter: breakAfter)
    }

    private static let noOptionalLigatures = ["-liga", "-clig", "-dlig"].map { FontFeature($0)! }

    /// ICU line-break locale: `language` (the paragraph's first style's) when it is Chinese,
    /// Japanese or Korean; "zh" for untagged text holding Han or kana (CJK punctuation rules);
    /// root otherwise.
    private func breakLocale(hasHanOrKana: Bool, language: String?) -> String {
        if let language = language?.lowercased(),
           language.hasPrefix("zh") || language.hasPrefix("ja") || language.hasPrefix("ko") {
            return String(language.prefix(2))
        }
        return hasHanOrKana ? "zh" : ""
    }
}

/// Where the itemizer hands a paragraph's pieces, one by one in logical order: an array for
/// a shaped paragraph (`PieceArray`), the line breakers for a measurement
/// (`LineBreakerFan`, which stops the stream once its receivers have the lines they show).
protocol PieceSink {
    /// The paragraph starts: its resolved level, grapheme boundaries (text offsets), and
    /// the natural metrics of a line of it with no pieces.
    mutating func beginParagraph(_ paragraph: ParagraphRange, level: UInt8, graphemes: GraphemeBoundaries, emptyMetrics: FontMetrics)
    /// A capacity hint: about this many pieces follow.
    mutating func reserve(_ count: Int)
    /// Takes the next piece. Returns false to stop the stream.
    mutating func take(_ piece: consuming ShapedPiece) -> Bool
}

/// Keeps every piece of a text's paragraphs, one paragraph after another, and their break
/// units (whose piece indices and metrics indices count from the text's first).
struct PieceArray: PieceSink {
    private(set) var level: UInt8 = 0
    private(set) var graphemes = GraphemeBoundaries(everyUnitOf: 0)
    private(set) var emptyMetrics = FontMetrics.none
    private var gatherer: UnitGatherer
    /// The pieces gathered into break units, summed up: a paragraph's last one, which ends
    /// with it rather than at a break opportunity, once `endUnits()` is called.
    private(set) var units: [BreakUnit] = []
    /// The units' metrics, one entry per run of a paragraph's units with the same metrics.
    private(set) var metrics: [FontMetrics] = []
    /// Where the paragraph's metrics start in `metrics` (none is shared with the one before).
    private var paragraphMetrics = 0

    init(fonts: FontFallbackChain) {
        gatherer = UnitGatherer(fonts: fonts)
    }

    var pieces: [ShapedPiece] { gatherer.pieces }

    /// How many pieces, units and metrics it holds.
    var counts: (pieces: Int, units: Int, metrics: Int) { (gatherer.pieces.count, units.count, metrics.count) }

    mutating func beginParagraph(_ paragraph: ParagraphRange, level: UInt8, graphemes: GraphemeBoundaries, emptyMetrics: FontMetrics) {
        self.level = level
        self.graphemes = graphemes
        self.emptyMetrics = emptyMetrics
        paragraphMetrics = metrics.count
    }

    mutating func reserve(_ count: Int) {
        gatherer.reserve(count)
        units.reserveCapacity(adding: count)
    }

    mutating func take(_ piece: consuming ShapedPiece) -> Bool {
        if gatherer.add(piece) { keepUnit() }
        return true
    }

    /// Sums up the paragraph's last unit.
    mutating func endUnits() {
        if gatherer.hasOpenUnit { keepUnit() }
    }

    private mutating func keepUnit() {
        var (unit, unitMetrics) = gatherer.unit()
        if metrics.count == paragraphMetrics || metrics.last != unitMetrics { metrics.append(unitMetrics) }
        unit.metrics = metrics.count - 1
        unit.checkLeadingSpace(gatherer.pieces)  // once, not at each relayout
        units.append(unit)
    }
}
