/// A text's pieces, as the itemizer streams them, broken into lines at one or more widths:
/// the pieces are gathered into break units once (`UnitGatherer`), and every unit goes to
/// one `LineBreaker` per width, as a shaped text's units do. Measuring a text so itemizes
/// and shapes it once and never holds it whole: the stream stops once every breaker has
/// the lines it shows.
struct LineBreakerFan<Receiver: LineReceiver>: PieceSink {
    private(set) var breakers: [LineBreaker<Receiver>]
    private var gatherer: UnitGatherer
    private(set) var isStopped = false

    init(_ breakers: [LineBreaker<Receiver>], fonts: FontFallbackChain) {
        self.breakers = breakers
        gatherer = UnitGatherer(fonts: fonts)
    }

    /// What `body` makes of each breaker, in order (each changed in place).
    mutating func map<T>(_ body: (_ index: Int, _ breaker: inout LineBreaker<Receiver>) -> T) -> [T] {
        breakers.indices.map { body($0, &breakers[$0]) }
    }

    mutating func beginParagraph(_ paragraph: ParagraphRange, level: UInt8, graphemes: GraphemeBoundaries, emptyMetrics: FontMetrics) {
        for index in breakers.indices {
            breakers[index].beginParagraph(paragraph, level: level, graphemes: graphemes, emptyMetrics: emptyMetrics)
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
        for index in breakers.indices { breakers[index].endParagraph() }
        isStopped = breakers.allSatisfy { $0.isStopped }
    }

    /// Hands the unit gathered to every breaker.
    @inline(__always)
    private mutating func placeUnit() {
        let unit = gatherer.unit()
        var stopped = true
        for index in breakers.indices {
            if breakers[index].take(unit, of: gatherer.pieces) { stopped = false }
        }
        isStopped = stopped
        gatherer.dropPieces()  // the breakers keep copies of pieces, not the array
    }
}
