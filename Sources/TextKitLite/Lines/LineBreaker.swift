/// How a line ends, as the breaker hands it to its receiver (its pieces came before
/// through `LineReceiver.place`).
struct LineEnd: Sendable {
    /// UTF-16 range of the text the line holds (with the paragraph terminator on the
    /// paragraph's last line).
    var start: Int32
    var end: Int32
    /// Width without the trailing hanging white space, in points.
    var width: Double
    /// Width of the trailing hanging white space.
    var hang: Double
    /// Its natural metrics: the maxima over its units' (its paragraph's empty-line metrics
    /// for a line with none).
    var metrics: FontMetrics
    var isParagraphEnd: Bool
    /// Its place beside the layout's exclusion shapes (nil without any: `ExclusionFlow`).
    var slot: LineSlot? = nil
}

/// What the line breaker hands its lines to. The layout's receiver keeps every line's
/// pieces (`LineCollector`); the measuring one keeps line starts and stacks the lines
/// (`LineMeasurer`). Both stop the breaker once they have the lines they show.
protocol LineReceiver {
    /// Whether the breaker records the widths it compares with its width (`widestFit`,
    /// `narrowestOverflow`): only a receiver that searches widths needs them (`LineCounter`);
    /// the breakers of the others, specialized, have no such bookkeeping.
    static var recordsWidths: Bool { get }
    /// Takes the next pieces of the line being filled, `pieces[range]`, in logical order.
    mutating func place(_ range: Range<Int>, of pieces: [ShapedPiece])
    /// The line being filled ends. Returns false when no more lines are wanted.
    mutating func endLine(_ line: LineEnd) -> Bool
}

extension LineReceiver {
    static var recordsWidths: Bool { false }
}

/// The one line breaker: greedy filling over the break opportunities of UAX #14, fed a
/// paragraph's break units (`BreakUnit`: a shaped text's, summed once, or a stream's, as
/// the itemizer shapes them), handing each line to a receiver as soon as it is known how
/// the line ends. A unit is placed from its numbers; its pieces are read only to cut it.
///
/// Every breaking rule lives here:
/// - a unit (the pieces up to and including one that allows a break after it) goes on the
///   line when its width, without its trailing hanging white space, fits;
/// - a unit that does not fit ends the line before it; white space that starts it hangs at
///   the end of that line (a line never starts with white space it could hang), and when
///   the unit is all white space, so does white space that starts the units after it;
/// - a unit that does not fit is cut at its last hyphenation point at which the part before
///   it, with a hyphen, fits on the line (soft hyphens, and the patterns of the text's
///   language with automatic hyphenation: `Hyphenator`), as minikin's breaker tries
///   hyphenated pieces only once a word overflows;
/// - a unit that does not fit on an empty line is cut at the last grapheme boundary that
///   fits (an emergency break), at least one grapheme cluster a line;
/// - the lines after the first `linesAtWidth` are broken at no width (middle truncation's
///   last line shown holds the rest of its paragraph);
/// - a line's natural metrics are the maxima over its units';
/// - a line is handed over (`LineEnd`) once what follows it is known, so the paragraph's
///   last line, with the terminator, is marked as the paragraph's end.
///
/// CJK rules (no break before "」", after "「") come from ICU's break opportunities, which
/// the itemizer puts into the pieces (`ShapedPiece.breakAfter`).
struct LineBreaker<Receiver: LineReceiver> {
    var receiver: Receiver
    /// The widest the line being filled may be: the width, its slot's beside exclusion shapes,
    /// or no limit past `linesAtWidth`.
    private var limit: Double
    /// Lines broken at the width; the lines after them are broken at no width (the last line
    /// shown holds the rest of its paragraph for start and middle truncation).
    private let linesAtWidth: Int
    /// Lines ended so far.
    private var lineCount = 0
    /// The lines' slots around the options' exclusion shapes, nil without any.
    var flow: ExclusionFlow?
    /// The chain the pieces are shaped with (the metrics of a unit cut in parts).
    private let fonts: FontFallbackChain
    /// Where units may be cut with a hyphen (nil: nowhere).
    private let hyphenator: Hyphenator?
    /// The paragraph being broken may be hyphenated (`Hyphenator.applies(to:)`).
    private var hyphenates = false
    /// The receiver wants no more lines.
    private(set) var isStopped = false
    /// The last line ended its paragraph.
    private(set) var endedParagraph = false
    /// Width of the widest line so far (without its hanging white space).
    private(set) var widestLine = 0.0
    /// Width of the last line ended (without its hanging white space).
    private var lastLineWidth = 0.0
    /// The widths the breaker compared with its width and found to fit (the widest line but a
    /// single cluster wider than the width) and not to fit (a line with the unit, cluster or
    /// hyphenated part that did not fit it): at any width from `widestFit` to below
    /// `narrowestOverflow` (each less the tolerance, `LineCuts.epsilon`) every comparison comes out
    /// the same, so the same lines are broken (`LineBalance`). Recorded for a receiver that asks
    /// (`LineReceiver.recordsWidths`).
    private(set) var widestFit = 0.0
    private(set) var narrowestOverflow = Double.infinity

    // The paragraph being broken (the last one begun once the breaker stops).
    private(set) var level: UInt8 = 0
    private(set) var graphemes = GraphemeBoundaries(everyUnitOf: 0)
    /// Natural metrics of a line with no pieces.
    private(set) var emptyMetrics = FontMetrics.none
    private var contentStart: Int32 = 0
    private var paragraphEnd: Int32 = 0
    private var paragraphHasLines = false
    /// Paragraphs begun before the receiver stopped.
    private var paragraphsBegun = 0

    // The line being filled: where it starts (-1 while it is empty), the sum of its units'
    // widths (each unit summed on its own), its width without its trailing hanging white
    // space, and its metrics.
    private var lineStart: Int32 = -1
    private var lineWidth = 0.0
    private var visible = 0.0
    private var metrics = LineMetrics()
    /// The line is full: it ends at `lineEnd` once what follows is known, and white space
    /// that starts the next units hangs on it (their width summed in `hangingWidth`).
    private var isClosing = false
    private var lineEnd: Int32 = 0
    private var hangingWidth = 0.0

    /// - Parameters:
    ///   - maxWidth: the widest a line may be, in points (infinity: no limit).
    ///   - linesAtWidth: the lines broken at `maxWidth`; those after them have no limit.
    ///   - fonts: the chain the pieces are shaped with.
    ///   - hyphenator: where the text's units may be cut with a hyphen (its soft hyphens
    ///     and, with automatic hyphenation, its words); nil when nowhere.
    init(maxWidth: Double, linesAtWidth: Int = .max, fonts: FontFallbackChain, receiver: consuming Receiver,
         hyphenator: Hyphenator?) {
        limit = linesAtWidth > 0 ? maxWidth + LineCuts.epsilon : .infinity
        self.linesAtWidth = linesAtWidth
        self.fonts = fonts
        self.receiver = receiver
        self.hyphenator = hyphenator
    }

    /// Starts a paragraph whose units follow through `take` (none once the breaker is stopped).
    ///
    /// - Parameters:
    ///   - level: the paragraph's resolved embedding level.
    ///   - graphemes: the paragraph's grapheme boundaries (text offsets), where a unit may be
    ///     cut when it does not fit a line alone.
    ///   - emptyMetrics: the natural metrics of a line with no pieces.
    mutating func beginParagraph(_ paragraph: ParagraphRange, level: UInt8, graphemes: GraphemeBoundaries, emptyMetrics: FontMetrics) {
        guard !isStopped else { return }
        paragraphsBegun += 1
        self.level = level
        self.graphemes = graphemes
        self.emptyMetrics = emptyMetrics
        contentStart = Int32(paragraph.content.lowerBound)
        paragraphEnd = Int32(paragraph.end)
        paragraphHasLines = false
        hyphenates = hyphenator?.applies(to: paragraph) ?? false
    }

    /// Takes the paragraph's next break unit, `pieces[unit.pieces]`, whose metrics are
    /// `metrics`, in logical order, and places it: on the line, after it (the line ends), or
    /// cut over lines. Returns false once the receiver wants no more lines.
    ///
    /// - Precondition: the paragraph's units before it came through here too.
    @inline(__always)
    mutating func take(_ unit: BreakUnit, metrics: FontMetrics, of pieces: [ShapedPiece]) -> Bool {
        guard !isStopped else { return false }
        if !isClosing, fits(unit, metrics: metrics) {
            receiver.place(unit.pieces, of: pieces)
        } else {
            placeAfterLine(unit, metrics: metrics, pieces)
        }
        return !isStopped
    }

    /// Takes the paragraph's units over `pieces`, their metrics indexing `metrics`, until
    /// the receiver wants no more lines (a shaped paragraph's, summed once). Relayout adds
    /// their numbers: the units that fit on the line being filled are summed in one loop
    /// (`fittingRun`) and handed to the receiver together, and a unit that does not fit
    /// ends the line when nothing but its width decides (`endsLine(before:)`); the rest go
    /// through `take(_:metrics:of:)` one by one.
    mutating func take(_ units: UnsafeBufferPointer<BreakUnit>, metrics: UnsafeBufferPointer<FontMetrics>, of pieces: [ShapedPiece]) {
        var index = 0
        while index < units.count {
            let run = fittingRun(units, from: index, metrics: metrics)
            if run > index {
                receiver.place(Int(units[index].first)..<Int(units[run - 1].end), of: pieces)
                index = run
                if index == units.count { return }
            }
            if endsLine(before: units[index]) { continue }
            guard take(units[index], metrics: metrics[units[index].metrics], of: pieces) else { return }
            index += 1
        }
    }

    /// Puts the units from `start` on that fit on the line being filled, as `fits` would
    /// one by one (the same sums, in the same order), beginning the line when it is empty
    /// (but not beside exclusion shapes, whose slot the first unit's width chooses), unless
    /// the line is full. Returns the index past them.
    @inline(__always)
    private mutating func fittingRun(_ units: UnsafeBufferPointer<BreakUnit>, from start: Int,
                                     metrics table: UnsafeBufferPointer<FontMetrics>) -> Int {
        guard !isClosing, !isStopped, lineStart >= 0 || flow == nil else { return start }
        var width = lineWidth, visible = self.visible, metrics = self.metrics
        var included = -1  // the table entry included last (units mostly share one)
        var index = start
        while index < units.count {
            let candidate = width + units[index].width - units[index].hang
            guard candidate <= limit else {
                if Receiver.recordsWidths { narrowestOverflow = min(narrowestOverflow, candidate) }
                break
            }
            width += units[index].width
            visible = candidate
            if units[index].metrics != included {
                included = units[index].metrics
                metrics.include(table[included])
            }
            index += 1
        }
        (lineWidth, self.visible, self.metrics) = (width, visible, metrics)
        if index > start, lineStart < 0 { lineStart = units[start].start }
        return index
    }

    /// Ends the line being filled before `unit`, which does not fit on it (`fittingRun`
    /// stopped there), when the plain path (`placeAfterLine`) would do just that: the line
    /// has begun and is not full, no hyphen may cut the unit, and no white space that
    /// starts it hangs. Returns whether it did; the unit then begins the next line.
    @inline(__always)
    private mutating func endsLine(before unit: BreakUnit) -> Bool {
        guard lineStart >= 0, !isClosing, !isStopped, !hyphenates, !unit.mayStartWithSpace else { return false }
        endLine(at: unit.start, isParagraphEnd: false)
        return true
    }

    /// Ends the paragraph: its last line (an empty one for a paragraph with no text).
    mutating func endParagraph() {
        guard !isStopped, lineStart >= 0 || !paragraphHasLines else { return }
        if lineStart < 0 { lineStart = contentStart }  // a paragraph with no text: one empty line
        endLine(at: paragraphEnd, isParagraphEnd: true)
    }

    /// Whether the lines shown leave text out (they are truncated), once the text's
    /// `paragraphCount` paragraphs went through: the receiver stopped before the end of the
    /// text, or stopped at a last line broken at no width (start or middle truncation) that
    /// is wider than `contentWidth`, the options' (`LayoutOptions.contentWidth`).
    func leavesTextOut(paragraphCount: Int, contentWidth: Double) -> Bool {
        if isStopped, !endedParagraph || paragraphsBegun < paragraphCount { return true }
        return isStopped && lineCount > linesAtWidth
            && lastLineWidth > (flow?.lastSlot?.width ?? contentWidth) + LineCuts.epsilon
    }

    /// Places a unit that does not fit on the line being filled, or comes when the line
    /// is full: the line ends before it (white space that starts it hangs there), and it
    /// goes on the next line, cut over lines when it does not fit one.
    private mutating func placeAfterLine(_ unit: BreakUnit, metrics: FontMetrics, _ pieces: [ShapedPiece]) {
        var unit = unit, metrics = metrics, pieces = pieces
        // `pieces` holds only the unit's pieces, and no one else holds it: an emergency
        // break or a hyphen may cut the unit in place.
        var ownsPieces = false
        // Copies the unit's pieces once: the lines cut from it after are each a line's
        // work, not the rest of the unit's (a long unit of many pieces would take quadratic
        // time). Returns how far down its pieces moved.
        @discardableResult
        func ownPieces() -> Int {
            guard !ownsPieces else { return 0 }
            let moved = Int(unit.first)
            pieces = Array(pieces[unit.pieces])
            (unit.first, unit.end) = (0, Int32(pieces.count))
            ownsPieces = true
            return moved
        }
        while !isStopped {
            if isClosing {
                if unit.mayStartWithSpace, let rest = hangLeadingWhiteSpace(of: pieces[unit.pieces]) {
                    if rest.isEmpty { return }  // all white space: the line waits for what follows
                    pieces = rest
                    (unit, metrics) = BreakUnit.cut(pieces, fonts: fonts)
                    ownsPieces = true
                }
                endLine(at: lineEnd, isParagraphEnd: false)
                continue
            }
            if fits(unit, metrics: metrics) {
                receiver.place(unit.pieces, of: pieces)
                return
            }
            if hyphenates, let hyphenator {
                var overflow = Double.infinity
                let found = hyphenator.cut(pieces[unit.pieces], fonts: fonts, lineWidth: lineWidth, limit: limit, graphemes: graphemes,
                                           overflow: &overflow)
                if Receiver.recordsWidths { narrowestOverflow = min(narrowestOverflow, overflow) }
                if var cut = found {
                    cut.index -= ownPieces()
                    placeHyphenated(cut, &unit, metrics: &metrics, of: &pieces)
                    continue
                }
            }
            if lineStart >= 0 {
                // The line ends before the unit; white space that starts it hangs here.
                close(at: unit.start)
                continue
            }
            ownPieces()
            if !emergencyBreak(&unit, metrics: &metrics, of: &pieces) { return }
        }
    }

    /// Takes a unit, whose metrics are `unitMetrics`, onto the line when it fits
    /// there without its trailing hanging white space (its pieces go to the receiver after).
    @inline(__always)
    private mutating func fits(_ unit: BreakUnit, metrics unitMetrics: FontMetrics) -> Bool {
        if lineStart < 0, flow != nil { beginSlot(needing: unit.width - unit.hang) }
        let candidate = lineWidth + unit.width - unit.hang
        guard candidate <= limit else {
            if Receiver.recordsWidths { narrowestOverflow = min(narrowestOverflow, candidate) }
            return false
        }
        if lineStart < 0 { lineStart = unit.start }
        lineWidth += unit.width
        visible = candidate
        metrics.include(unitMetrics)
        return true
    }

    /// A line beside exclusion shapes begins with a unit `width` wide: it takes its slot's
    /// width (past `linesAtWidth`, none). Out of line: the breaker's loop, inlined where units
    /// come, stays as small as without shapes.
    @inline(never)
    private mutating func beginSlot(needing width: Double) {
        if let slotLimit = flow?.beginLine(needing: width), lineCount < linesAtWidth { limit = slotLimit }
    }

    /// The line is full and ends at `end` (or later, when white space follows).
    private mutating func close(at end: Int32) {
        isClosing = true
        lineEnd = end
        hangingWidth = 0
    }

    /// Hangs the white space that starts a unit's `pieces` on the closing line; returns
    /// the rest, or nil when no white space starts them.
    private mutating func hangLeadingWhiteSpace(of pieces: ArraySlice<ShapedPiece>) -> [ShapedPiece]? {
        let start = pieces[pieces.startIndex].start
        let end = LineCuts.endOfWhiteSpace(pieces, from: start, graphemes: graphemes)
        guard end > start else { return nil }
        let (spaces, rest) = LineCuts.split(pieces, at: end)
        let (hung, hungMetrics) = BreakUnit.cut(spaces, fonts: fonts)
        hangingWidth += hung.width
        metrics.include(hungMetrics)
        receiver.place(hung.pieces, of: spaces)
        lineEnd = end
        return rest
    }

    /// Puts as many grapheme clusters of a unit, `pieces[unit.pieces]`, as fit (at least
    /// one) on the empty line, which closes. Returns whether some are left: then `unit`,
    /// `unitMetrics` and `pieces` hold the rest, whose width is the unit's less the line's.
    private mutating func emergencyBreak(_ unit: inout BreakUnit, metrics unitMetrics: inout FontMetrics,
                                         of pieces: inout [ShapedPiece]) -> Bool {
        let (cut, fit, overflow) = LineCuts.fittingPrefix(pieces[unit.pieces], graphemes: graphemes, width: limit)
        if Receiver.recordsWidths {
            narrowestOverflow = min(narrowestOverflow, overflow)
            // The prefix's width as compared: the line's own sum (`endLine`) may round a few
            // ulps past the limit, and a line that fit would then count as none.
            if let fit { widestFit = max(widestFit, fit) }
        }
        // The line's pieces: those before the cut, and the first part of one it cuts.
        var k = Int(unit.first)
        while k < Int(unit.end), pieces[k].end <= cut { k += 1 }
        var head = Array(pieces[Int(unit.first)..<k])
        if k < Int(unit.end), pieces[k].start < cut, let (first, second) = pieces[k].split(at: cut) {
            head.append(first)
            pieces[k] = second
        }
        let (placed, placedMetrics) = BreakUnit.cut(head, fonts: fonts)
        lineStart = head[0].start
        receiver.place(placed.pieces, of: head)
        lineWidth = placed.width
        visible = placed.width - placed.hang
        metrics.include(placedMetrics)
        close(at: cut)
        // When the whole unit went on the line, white space that starts the units after it
        // hangs here too (a BA space such as U+3000 after " "): the line stays closing.
        guard k < Int(unit.end) else { return false }
        endLine(at: cut, isParagraphEnd: false)
        // The rest ends where the unit ends, so its trailing hanging white space is the
        // unit's; its width is found without summing it again, and its metrics read its
        // pieces once it goes on a line whole (per line, they would take quadratic time).
        unit.first = Int32(k)
        unit.start = pieces[k].start
        unit.width -= placed.width
        unit.mayStartWithSpace = true
        assert(unit.hang == LineCuts.trailingHang(pieces, unit.pieces))
        if fits(rest: unit) { unitMetrics = BreakUnit.metrics(of: pieces[unit.pieces], fonts: fonts) }
        return true
    }

    /// Ends the line with the part of a unit, `pieces[unit.pieces]`, before a hyphenation
    /// point (`cut`, made from those pieces); `unit`, `unitMetrics` and `pieces` then hold
    /// the rest, whose first piece is the cut piece's part after the point.
    private mutating func placeHyphenated(_ cut: Hyphenator.Cut, _ unit: inout BreakUnit, metrics unitMetrics: inout FontMetrics,
                                          of pieces: inout [ShapedPiece]) {
        let (placed, placedMetrics) = BreakUnit.cut(cut.head, fonts: fonts)
        if lineStart < 0 { lineStart = cut.head[0].start }
        receiver.place(placed.pieces, of: cut.head)
        lineWidth += placed.width
        visible = lineWidth
        metrics.include(placedMetrics)
        close(at: cut.offset)
        endLine(at: cut.offset, isParagraphEnd: false)
        // The rest: the cut piece's part after the point, then the pieces after it. Its
        // width is the unit's less the pieces it no longer holds, plus that part's.
        var k = Int(unit.first)
        while k <= cut.index { unit.width -= pieces[k].width; k += 1 }
        if let rest = cut.rest {
            k -= 1
            pieces[k] = rest
            unit.width += rest.width
        }
        unit.first = Int32(k)
        unit.start = pieces[k].start
        unit.hang = LineCuts.trailingHang(pieces, unit.pieces)
        unit.mayStartWithSpace = true
        if fits(rest: unit) { unitMetrics = BreakUnit.metrics(of: pieces[unit.pieces], fonts: fonts) }
    }

    /// Whether the rest of a unit cut by an emergency break fits an empty line whole.
    private func fits(rest unit: BreakUnit) -> Bool {
        unit.width - unit.hang <= flow.map { max(limit, $0.widestLimit) } ?? limit
    }

    private mutating func endLine(at end: Int32, isParagraphEnd: Bool) {
        let total = isClosing ? lineWidth + hangingWidth : lineWidth
        var line = LineEnd(start: lineStart, end: end, width: visible, hang: total - visible,
                           metrics: metrics.endLine(empty: emptyMetrics), isParagraphEnd: isParagraphEnd)
        line.slot = flow?.endLine(metrics: line.metrics)
        paragraphHasLines = true
        endedParagraph = isParagraphEnd
        widestLine = max(widestLine, visible)
        lastLineWidth = visible
        if Receiver.recordsWidths, visible <= limit { widestFit = max(widestFit, visible) }  // not a cluster wider than the width
        lineCount += 1
        if lineCount == linesAtWidth { limit = .infinity }
        lineStart = -1
        lineWidth = 0
        visible = 0
        isClosing = false
        if !receiver.endLine(line) { isStopped = true }
    }
}

/// Widths and cuts of sequences of pieces, for the line breaker and truncation.
enum LineCuts {
    /// Tolerance for width comparisons, so that laying out again at a layout's own
    /// measured width (a sum that may round differently) gives the same lines.
    static let epsilon = 1e-6

    /// Width of the hanging spaces at the end of `pieces[range]`.
    @inline(__always)
    static func trailingHang(_ pieces: [ShapedPiece], _ range: Range<Int>) -> Double {
        var hang = 0.0
        var index = range.upperBound
        while index > range.lowerBound {  // by index: no piece is copied
            index -= 1
            hang += pieces[index].hang
            if !pieces[index].isAllSpace { break }
        }
        return hang
    }

    /// Width of the hanging spaces at the end of a sequence of pieces.
    static func trailingHang(_ pieces: [ShapedPiece]) -> Double {
        trailingHang(pieces, pieces.indices)
    }

    /// The last cut point whose prefix fits `width`, or the first one when none fits; white
    /// space after it hangs at the end of the line rather than start the next. And the
    /// widths compared with `width`: that prefix's when it fits (nil when none does), and
    /// the first prefix's that does not fit (infinity when all do).
    static func fittingPrefix(_ unit: ArraySlice<ShapedPiece>, graphemes: GraphemeBoundaries,
                              width: Double) -> (cut: Int32, fit: Double?, overflow: Double) {
        let points = cutPoints(unit, graphemes: graphemes, limit: width)
        var best = points[0].offset
        var fit: Double?
        var overflow = Double.infinity
        for point in points {
            if point.width <= width { (best, fit) = (point.offset, point.width) } else { overflow = min(overflow, point.width) }
        }
        return (endOfWhiteSpace(unit, from: best, graphemes: graphemes), fit, overflow)
    }

    /// The end of the hanging white space that starts at cut point `offset` of `unit`, at a
    /// cut point (`offset` itself when no white space starts there). White space glued to
    /// what follows it (no break opportunity before "」") hangs at the end of the line
    /// rather than start the next one or fill lines of its own.
    ///
    /// - Complexity: O(p log n) for the p pieces the white space spans.
    static func endOfWhiteSpace<Unit: Collection<ShapedPiece>>(_ unit: Unit, from offset: Int32, graphemes: GraphemeBoundaries) -> Int32 {
        var cut = offset
        for piece in unit where piece.end > cut {
            guard piece.start <= cut, piece.start < piece.end,
                  let run = piece.whiteSpaceRun(containing: cut) else { break }
            let runEnd = min(piece.end, piece.wordStart + run.upperBound)
            if runEnd == piece.end {
                cut = runEnd  // pieces end at cluster and grapheme boundaries
                continue
            }
            // The last cut point inside the run: a mark after the run joins its last space.
            var g = graphemes.firstIndex(atOrAfter: runEnd + 1) - 1
            while g >= 0, graphemes[g] > cut, !piece.startsCluster(at: graphemes[g]) { g -= 1 }
            if g >= 0, graphemes[g] > cut { cut = graphemes[g] }
            break
        }
        return cut
    }

    /// Splits a logical sequence of pieces at a text offset (a cut point): the pieces before
    /// it and the pieces after it, each side only when asked for (else empty).
    static func split<Pieces: Sequence<ShapedPiece>>(
        _ pieces: Pieces, at offset: Int32, head keepsHead: Bool = true, tail keepsTail: Bool = true
    ) -> (head: [ShapedPiece], tail: [ShapedPiece]) {
        var head: [ShapedPiece] = [], tail: [ShapedPiece] = []
        for piece in pieces {
            if piece.end <= offset {
                if keepsHead { head.append(piece) } else { continue }
            } else if piece.start >= offset {
                guard keepsTail else { break }
                tail.append(piece)
            } else if let (a, b) = piece.split(at: offset) {
                if keepsHead { head.append(a) }
                if keepsTail { tail.append(b) } else { break }
            }
        }
        return (head, tail)
    }

    /// Where `pieces` may be cut (grapheme boundaries that start a cluster), each with the
    /// width of the pieces before it, in logical order, ending with the end. Stops after the
    /// first point wider than `limit`, so cutting a very long word costs only what one line holds.
    /// With a `start` (a line's), the first point is there, at width 0: cutting there keeps nothing.
    static func cutPoints<Pieces: BidirectionalCollection<ShapedPiece>>(
        _ pieces: Pieces, graphemes: GraphemeBoundaries, limit: Double = .infinity, start: Int32? = nil
    ) -> [(offset: Int32, width: Double)] {
        var result: [(offset: Int32, width: Double)] = []
        if let start { result.append((start, 0)) }
        guard let first = pieces.first, let last = pieces.last else { return result }
        // At most a point per unit; a line's worth at first (a long unit cut at `limit` needs few).
        result.reserveCapacity(min(Int(last.end - first.start) + 2, 256))
        var total = 0.0
        var g = graphemes.firstIndex(atOrAfter: first.start)
        for index in pieces.indices {  // by index: no piece is copied
            let finished = pieces[index].forEachCluster { offset, advance in
                while g < graphemes.count, graphemes[g] <= offset { g += 1 }
                if offset > first.start, g > 0, graphemes[g - 1] == offset, result.last?.offset != offset {
                    result.append((offset, total))
                    if total > limit { return false }
                }
                total += advance
                return true
            }
            if !finished { return result }
        }
        result.append((last.end, total))
        return result
    }
}
