/// A text's pieces, as the itemizer streams them, broken into lines at one or more widths:
/// the pieces are gathered into break units once (`UnitGatherer`), and every unit goes to
/// one `LineBreaker` per width, as a shaped text's units do. Measuring a text so itemizes
/// and shapes it once and never holds it whole: the stream stops once every breaker has
/// the lines it shows.
struct LineBreakerFan<Receiver: LineReceiver>: PieceSink {
    /// The first width's breaker, and the others' (most measurements are at one width: its
    /// breaker is reached without an array).
    var first: LineBreaker<Receiver>
    var others: [LineBreaker<Receiver>]
    private var gatherer: UnitGatherer
    private(set) var isStopped = false

    init(_ first: LineBreaker<Receiver>, others: [LineBreaker<Receiver>] = [], fonts: FontFallbackChain) {
        self.first = first
        self.others = others
        gatherer = UnitGatherer(fonts: fonts)
    }

    mutating func beginParagraph(_ paragraph: ParagraphRange, level: UInt8, graphemes: GraphemeBoundaries, emptyMetrics: FontMetrics) {
        first.beginParagraph(paragraph, level: level, graphemes: graphemes, emptyMetrics: emptyMetrics)
        for index in others.indices {
            others[index].beginParagraph(paragraph, level: level, graphemes: graphemes, emptyMetrics: emptyMetrics)
        }
    }

    mutating func reserve(_ count: Int) {
        gatherer.reserve(min(count, 256))
    }

    @inline(__always)
    mutating func take(_ piece: consuming ShapedPiece) -> Bool {
        if gatherer.add(piece) { placeUnit() }
        return !isStopped
    }

    /// Ends the paragraph whose pieces came last: its last unit, and its last line at each width.
    mutating func endParagraph() {
        if gatherer.hasOpenUnit { placeUnit() }
        gatherer.reset()
        first.endParagraph()
        for index in others.indices { others[index].endParagraph() }
        isStopped = first.isStopped && others.allSatisfy(\.isStopped)
    }

    /// Hands the unit gathered to every breaker.
    @inline(__always)
    private mutating func placeUnit() {
        let (unit, metrics) = gatherer.unit()
        var stopped = !first.take(unit, metrics: metrics, of: gatherer.pieces)
        if !others.isEmpty, placeInOthers(unit, metrics: metrics) { stopped = false }
        isStopped = stopped
        gatherer.dropPieces()  // the breakers keep copies of pieces, not the array
    }

    /// Hands the unit gathered to the other widths' breakers; returns whether one of them
    /// wants more lines. Out of line: the itemizer's loop, into which `placeUnit` is inlined,
    /// then holds one breaker's code, and the compiler still inlines the loop's own helpers.
    @inline(never)
    private mutating func placeInOthers(_ unit: BreakUnit, metrics: FontMetrics) -> Bool {
        var continues = false
        for index in others.indices where others[index].take(unit, metrics: metrics, of: gatherer.pieces) {
            continues = true
        }
        return continues
    }
}
