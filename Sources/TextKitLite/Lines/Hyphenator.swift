/// Where the line breaker may cut a break unit that does not fit inside a word, and the
/// pieces of the cut: the part before the point reshaped with a hyphen, the part after it
/// reshaped alone (minikin's hyphenated pieces; Pango shapes an item with its hyphen too).
///
/// The points are a word's soft hyphens (U+00AD) when it holds any, else, with
/// `Hyphenation.Mode.auto`, the points of its language's patterns (`HyphenationPatterns`)
/// that leave the minimum letters on each side. A word here is a run of letters, marks and
/// digits (and soft hyphens); patterns see only runs of letters and marks, lowercased scalar
/// by scalar, so that each scalar maps back to its UTF-16 offset.
///
/// Both parts are shaped again (through the shaped-word cache): a cut glyph run keeps the
/// shapes HarfBuzz chose for the whole word, which are wrong where a ligature or a
/// contextual form spans the point ("ffi" in "dif-ficult") and miss the kerning before the
/// hyphen; `HB_GLYPH_FLAG_UNSAFE_TO_BREAK` would say where a cut is safe, but not give the
/// shapes where it is not. The cost is a few words shaped per hyphenated line.
///
/// The hyphen is a piece of its own that covers no text (`ShapedPiece.isInsertedHyphen`):
/// its glyph's cluster is the offset of the break, which hit testing gives for a point on
/// it; it is the last cluster of the part before, shaped together with it.
struct Hyphenator: Sendable {
    let text: AttributedText
    let settings: Hyphenation
    let cache: ShapeCache

    /// The pieces a unit is cut into at a hyphenation point.
    struct Cut {
        /// The line's part: the unit's pieces before the point, the piece holding it cut
        /// and shaped again with the hyphen, and the hyphen.
        var head: [ShapedPiece]
        /// The text offset of the break.
        var offset: Int32
        /// Index (in the unit's collection) of the piece the point is in or at the end of.
        var index: Int
        /// That piece's part after the point, shaped alone (nil when the point is its end).
        var rest: ShapedPiece?
    }

    /// A hyphenator for `text` hyphenated as `settings` say, shaping through `cache` (one
    /// per line breaker: `LineBreaker.init`).
    init(text: AttributedText, settings: Hyphenation, cache: ShapeCache) {
        self.text = text
        self.settings = settings
        self.cache = cache
    }

    /// Whether the paragraph's units may be cut at hyphenation points.
    func applies(to paragraph: ParagraphRange) -> Bool {
        Self.mayCut(settings, softHyphens: paragraph.scan.hasSoftHyphen)
    }

    /// Whether units of a text with soft hyphens or none (`softHyphens`) may be cut at
    /// hyphenation points with `settings`: automatic hyphenation is on, or there are.
    static func mayCut(_ settings: Hyphenation, softHyphens: Bool) -> Bool {
        settings.mode == .auto || softHyphens
    }

    /// Cuts `unit` (the pieces of a break unit, in logical order) at its last hyphenation
    /// point at which the part before, with the hyphen, fits on a line already `lineWidth`
    /// wide: `lineWidth` + the part's width ≤ `limit`. Nil when no point fits. The pieces
    /// were shaped with `fonts`.
    ///
    /// `overflow` is lowered to the narrowest line width, or a bound below it, of the points
    /// found too wide: a narrower limit would cut there (`LineBalance` searches widths by
    /// the widths the breaker compares).
    func cut<Pieces: BidirectionalCollection<ShapedPiece>>(
        _ unit: Pieces, fonts: FontFallbackChain, lineWidth: Double, limit: Double, graphemes: GraphemeBoundaries,
        overflow: inout Double
    ) -> Cut? where Pieces.Index == Int {
        guard let first = unit.first, let last = unit.last, first.start < last.end else { return nil }
        // The widths of the unit's cluster boundaries, up to the first past the room: a
        // point past them, or whose part without the hyphen is too wide, is not shaped, and
        // words past them are not looked at (a long unit costs a line's worth per line).
        let room = limit - lineWidth
        let widths = LineCuts.cutPoints(unit, graphemes: graphemes, limit: room)
        let farthest = widths[widths.count - 1]
        let points = hyphenationPoints(in: first.start..<min(last.end, farthest.offset + 1), unit: unit,
                                       end: last.end, graphemes: graphemes)
        // A point past the farthest boundary, if any, is at least as wide as it.
        if farthest.width > room { overflow = min(overflow, lineWidth + farthest.width) }
        guard !points.isEmpty else { return nil }
        var w = widths.count - 1
        for point in points.reversed() {
            while w > 0, widths[w].offset > point { w -= 1 }
            if point > farthest.offset { continue }
            // The part without the hyphen, a bound below the part with it.
            if widths[w].width > room {
                overflow = min(overflow, lineWidth + widths[w].width)
                continue
            }
            guard let cut = cut(unit, at: point, fonts: fonts) else { continue }
            let width = lineWidth + BreakUnit(cut.head, cut.head.indices).width
            guard width <= limit else {
                overflow = min(overflow, width)
                continue
            }
            return cut
        }
        return nil
    }

    /// The unit cut at text offset `point`, both sides shaped again.
    private func cut<Pieces: BidirectionalCollection<ShapedPiece>>(_ unit: Pieces, at point: Int32, fonts: FontFallbackChain) -> Cut?
    where Pieces.Index == Int {
        guard let index = unit.indices.first(where: { unit[$0].start < point && point <= unit[$0].end }) else { return nil }
        let piece = unit[index]
        guard piece.attachment == nil else { return nil }
        let font = piece.font(in: fonts)
        let hyphen: UInt16 = font.covers("\u{2010}") ? 0x2010 : 0x2D
        guard let withHyphen = shape(piece, Int(piece.start)..<Int(point), appending: hyphen, font: font),
              let (part, hyphenPiece) = withHyphen.splittingHyphen(at: point) else { return nil }
        var rest: ShapedPiece?
        if point < piece.end {
            guard let shaped = shape(piece, Int(point)..<Int(piece.end), appending: nil, font: font) else { return nil }
            rest = shaped
        }
        var head = Array(unit[unit.startIndex..<index])
        head.append(part)
        head.append(hyphenPiece)
        return Cut(head: head, offset: point, index: index, rest: rest)
    }

    /// Text `range` of `piece` (and a hyphen after it) shaped as a word of the piece's
    /// font, style, level and letter spacing, from the shaped-word cache or HarfBuzz: a
    /// piece starting at `range.lowerBound` (its end counts the hyphen).
    private func shape(_ piece: ShapedPiece, _ range: Range<Int>, appending hyphen: UInt16?, font: Font) -> ShapedPiece? {
        let all = text.utf16
        guard range.lowerBound >= 0, range.upperBound <= all.count, !range.isEmpty else { return nil }
        // As the itemizer shows the shaper: tab as a space, other controls as ZWSP.
        var units = all[range].map { UnicodeProperties.isControl($0) ? ($0 == 0x09 ? 0x20 : 0x200B) : $0 }
        if let hyphen { units.append(hyphen) }
        var script = Script.common
        var i = 0
        units.withUnsafeBufferPointer { buffer in
            while i < buffer.count, script.isNeutral {
                let scalar: UInt32
                (scalar, i) = buffer.scalar(at: i, end: buffer.count)
                script = Script(of: scalar)
            }
        }
        let style = text.runs[Int(piece.style)].style
        let item = TextItem(start: 0, end: units.count, style: piece.style, script: script, level: piece.level,
                            font: Int(piece.fontIndex), upright: piece.isUpright)
        var words = WordSource(cache: cache, shaper: HarfBuzzShaper())
        defer { words.finish() }
        words.begin(item, font: font, language: style.language)
        return units.withUnsafeBufferPointer { buffer in
            words.piece(buffer, start: Int32(range.lowerBound), item: item, font: font, size: piece.size,
                        scale: piece.size / Double(font.unitsPerEm), language: style.language, breakAfter: false,
                        letterSpacing: ShapedPiece.Spacing(points: piece.letterSpacing, wordEndOnly: piece.spacesWordEndOnly))
        }
    }

    /// The hyphenation points in `range` (the start of a unit's text up to the farthest
    /// point that may fit), ascending, before the unit's `end`: offsets at grapheme
    /// boundaries after which the line may break with a hyphen.
    private func hyphenationPoints<Pieces: BidirectionalCollection<ShapedPiece>>(
        in range: Range<Int32>, unit: Pieces, end: Int32, graphemes: GraphemeBoundaries
    ) -> [Int32] where Pieces.Index == Int {
        let units = text.utf16
        var points: [Int32] = []
        units.withUnsafeBufferPointer { units in
            // Start at the word the unit's text starts in (a unit's rest after a hyphen
            // starts inside one), at most a word's length back.
            var start = Int(range.lowerBound)
            let earliest = max(0, start - HyphenationPatterns.maximumWordBytes)
            while start > earliest, Self.kind(of: units[start - 1]) != .other { start -= 1 }
            if UTF16.isTrailSurrogate(units[start]) { start += 1 }
            var i = start
            while i < Int(range.upperBound) {
                var word: [(scalar: Unicode.Scalar, end: Int)] = []
                var j = i
                var hasSoftHyphen = false, hasDigit = false, letters = 0
                // A word is at most `maximumWordBytes` units: a longer run is not one, and is
                // cut at grapheme boundaries only.
                let wordLimit = min(units.count, i + HyphenationPatterns.maximumWordBytes)
                while j < units.count {
                    guard j < wordLimit else { return }
                    let (value, next) = units.scalar(at: j, end: units.count)
                    guard let scalar = Unicode.Scalar(value) else { break }
                    let kind = Self.kind(of: scalar)
                    if kind == .other { break }
                    switch kind {
                    case .softHyphen: hasSoftHyphen = true
                    case .digit: hasDigit = true
                    case .letter: letters += 1
                    default: break
                    }
                    word.append((scalar, next))
                    j = next
                }
                if word.isEmpty {
                    i = units.scalar(at: i, end: units.count).1
                    continue
                }
                let wordStart = i
                i = j
                var breaks: [Int]  // indices of the scalars a break may follow
                if hasSoftHyphen {
                    breaks = word.indices.filter { word[$0].scalar.value == 0xAD }
                } else if settings.mode == .auto, !hasDigit, letters >= settings.minimumWordLength,
                          let patterns = patterns(for: word.map(\.scalar), at: wordStart, unit: unit) {
                    breaks = patterns.breaks(in: word.map { Self.lowercased($0.scalar) }, before: settings.minimumBefore,
                                             after: settings.minimumAfter)
                } else {
                    continue
                }
                for b in breaks where b + 1 < word.count {
                    let offset = Int32(word[b].end)
                    guard offset > range.lowerBound, offset < range.upperBound, offset < end, Self.isBoundary(offset, graphemes),
                          Self.kind(of: word[b + 1].scalar) != .softHyphen else { continue }
                    points.append(offset)
                }
            }
        }
        return points
    }

    /// The patterns of a word's language: its run's style's, else the likely one of its
    /// letters.
    private func patterns<Pieces: BidirectionalCollection<ShapedPiece>>(
        for word: [Unicode.Scalar], at offset: Int, unit: Pieces
    ) -> HyphenationPatterns? where Pieces.Index == Int {
        let piece = unit.first { Int($0.end) > offset } ?? unit[unit.startIndex]
        let language = text.runs.isEmpty ? nil : text.runs[Int(piece.style)].style.language
        // A word's first letter says what its letters most likely are (a Han word, which the
        // rest could make Japanese, has no patterns either way).
        guard let tag = language ?? word.first(where: { Self.kind(of: $0) == .letter }).flatMap({ TextStyle.likelyLanguage(of: String($0)) })
        else { return nil }
        return HyphenationPatterns.forLanguage(tag)
    }

    private enum Kind { case letter, mark, digit, softHyphen, other }

    /// What a scalar is to a word.
    private static func kind(of scalar: Unicode.Scalar) -> Kind {
        if scalar.isASCII {  // most letters, without a property lookup
            let value = scalar.value | 0x20
            return value >= 0x61 && value <= 0x7A ? .letter : (0x30...0x39).contains(scalar.value) ? .digit : .other
        }
        if scalar.value == 0xAD { return .softHyphen }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return .letter
        case .nonspacingMark, .spacingMark, .enclosingMark: return .mark
        case .decimalNumber: return .digit
        default: return .other
        }
    }

    /// What a UTF-16 unit is to a word (a surrogate: part of one).
    private static func kind(of unit: UInt16) -> Kind {
        if UTF16.isLeadSurrogate(unit) || UTF16.isTrailSurrogate(unit) { return .letter }
        return Unicode.Scalar(unit).map { kind(of: $0) } ?? .other
    }

    /// A scalar's lowercase form when it is one scalar (else the scalar): one scalar in,
    /// one out, so libhyphen's indices stay the word's.
    private static func lowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII {
            return (0x41...0x5A).contains(scalar.value) ? Unicode.Scalar(UInt8(scalar.value + 0x20)) : scalar
        }
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? lower.first! : scalar
    }

    private static func isBoundary(_ offset: Int32, _ graphemes: GraphemeBoundaries) -> Bool {
        let index = graphemes.firstIndex(atOrAfter: offset)
        return index < graphemes.endIndex && graphemes[index] == offset
    }
}
