/// A text's pieces, as the itemizer streams them, broken into lines at one or more widths:
/// the pieces are gathered into break units once (`UnitGatherer`), and every unit goes to
/// one `LineBreaker` per width, as a shaped text's units do. Measuring a text so itemizes
/// and shapes it once and never holds it whole: the stream stops once every breaker has
/// the lines it shows.
///
/// The first width's breaker is the fan's own; the other widths' are `Others`, none at one
/// width (`NoBreakers`): the itemizer's loop, made for each kind, then holds no code for
/// other widths when there are none.
struct LineBreakerFan<Receiver: LineReceiver, Others: OtherBreakers<Receiver>>: PieceSink {
    var first: LineBreaker<Receiver>
    private(set) var others: Others
    private var gatherer: UnitGatherer
    private(set) var isStopped = false

    init(_ first: LineBreaker<Receiver>, others: Others, fonts: FontFallbackChain) {
        self.first = first
        self.others = others
        gatherer = UnitGatherer(fonts: fonts)
    }

    mutating func beginParagraph(_ paragraph: ParagraphRange, level: UInt8, graphemes: GraphemeBoundaries, emptyMetrics: FontMetrics) {
        first.beginParagraph(paragraph, level: level, graphemes: graphemes, emptyMetrics: emptyMetrics)
        others.beginParagraph(paragraph, level: level, graphemes: graphemes, emptyMetrics: emptyMetrics)
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
        others.endParagraph()
        isStopped = first.isStopped && others.areStopped
    }

    /// Hands the unit gathered to every breaker.
    @inline(__always)
    private mutating func placeUnit() {
        let (unit, metrics) = gatherer.unit()
        let firstWantsMore = first.take(unit, metrics: metrics, of: gatherer.pieces)
        let othersWantMore = others.take(unit, metrics: metrics, of: gatherer.pieces)
        isStopped = !firstWantsMore && !othersWantMore
        gatherer.dropPieces()  // the breakers keep copies of pieces, not the array
    }
}

/// The breakers of a `LineBreakerFan`'s other widths, each given every unit as the first
/// width's breaker is.
protocol OtherBreakers<Receiver> {
    associatedtype Receiver: LineReceiver
    mutating func beginParagraph(_ paragraph: ParagraphRange, level: UInt8, graphemes: GraphemeBoundaries, emptyMetrics: FontMetrics)
    /// Takes a unit at every width; returns whether a breaker wants more lines.
    mutating func take(_ unit: BreakUnit, metrics: FontMetrics, of pieces: [ShapedPiece]) -> Bool
    mutating func endParagraph()
    /// Every breaker's receiver wants no more lines.
    var areStopped: Bool { get }
}

/// No other widths: a fan at one width.
struct NoBreakers<Receiver: LineReceiver>: OtherBreakers {
    func beginParagraph(_ paragraph: ParagraphRange, level: UInt8, graphemes: GraphemeBoundaries, emptyMetrics: FontMetrics) {}
    func take(_ unit: BreakUnit, metrics: FontMetrics, of pieces: [ShapedPiece]) -> Bool { false }
    func endParagraph() {}
    var areStopped: Bool { true }
}

/// The other widths' breakers, changed in place in a buffer that the fan's maker holds for
/// as long as the fan is used (an array's elements, changed at every unit, would be checked
/// for uniqueness at every unit).
struct BreakerBuffer<Receiver: LineReceiver>: OtherBreakers {
    let breakers: UnsafeMutableBufferPointer<LineBreaker<Receiver>>

    func beginParagraph(_ paragraph: ParagraphRange, level: UInt8, graphemes: GraphemeBoundaries, emptyMetrics: FontMetrics) {
        for index in breakers.indices {
            breakers[index].beginParagraph(paragraph, level: level, graphemes: graphemes, emptyMetrics: emptyMetrics)
        }
    }

    /// Out of line: the itemizer's loop, into which the fan's `take` is inlined, then holds
    /// one breaker's code, and the compiler still inlines the loop's own helpers.
    @inline(never)
    func take(_ unit: BreakUnit, metrics: FontMetrics, of pieces: [ShapedPiece]) -> Bool {
        var wantsMore = false
        for index in breakers.indices where breakers[index].take(unit, metrics: metrics, of: pieces) {
            wantsMore = true
        }
        return wantsMore
    }

    func endParagraph() {
        for index in breakers.indices { breakers[index].endParagraph() }
    }

    var areStopped: Bool { breakers.allSatisfy(\.isStopped) }
}
