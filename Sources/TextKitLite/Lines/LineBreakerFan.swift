/// One stream of a text's pieces broken into lines at several widths at once: the pieces
/// are gathered into break units once, each unit summed once (width, hang, metrics), and
/// every unit goes to one `LineBreaker` per width (`take(_:of:)`, as a shaped text's units
/// do). Measuring a text at several widths so itemizes and shapes it once and never holds
/// it whole: the stream stops once every breaker has the lines it shows.
struct LineBreakerFan<Receiver: LineReceiver>: ParagraphBreaking {
    private(set) var breakers: [LineBreaker<Receiver>]
    /// The chain the pieces are shaped with (for their units' metrics).
    private let fonts: FontFallbackChain
    /// The pieces of the unit being gathered, from `unitStart`, after some of the units
    /// before it (the array is emptied now and then: freeing pieces one unit at a time
    /// costs more).
    private var pieces: [ShapedPiece] = []
    private var unitStart = 0
    private var metrics = LineMetrics()
    private(set) var isStopped = false

    init(_ breakers: [LineBreaker<Receiver>], fonts: FontFallbackChain) {
        self.breakers = breakers
        self.fonts = fonts
    }

    /// Sets the receiver of every breaker that takes the paragraph that comes next up for it:
    /// a stopped breaker ignores it (`LineBreaker.beginParagraph`), and its receiver keeps
    /// what it was told of its own last paragraph (the empty-line metrics its truncated last
    /// line may need).
    mutating func forEachActiveReceiver(_ body: (inout Receiver) -> Void) {
        for index in breakers.indices where !breakers[index].isStopped { body(&breakers[index].receiver) }
    }

    /// What `body` makes of each breaker, in order (each changed in place).
    mutating func map<T>(_ body: (_ index: Int, _ breaker: inout LineBreaker<Receiver>) -> T) -> [T] {
        breakers.indices.map { body($0, &breakers[$0]) }
    }

    mutating func beginParagraph(_ paragraph: ParagraphRange, level: UInt8, graphemes: GraphemeBoundaries) {
        for index in breakers.indices { breakers[index].beginParagraph(paragraph, level: level, graphemes: graphemes) }
    }

    mutating func reserve(_ count: Int) {
        pieces.reserveCapacity(min(count, 256))
    }

    @inline(__always)
    mutating func take(_ piece: consuming ShapedPiece) -> Bool {
        let breakAfter = piece.breakAfter
        metrics.include(piece, in: fonts)
        pieces.append(piece)
        if breakAfter { placeUnit() }
        return !isStopped
    }

    mutating func endParagraph() {
        if unitStart < pieces.count { placeUnit() }
        pieces.removeAll(keepingCapacity: true)
        unitStart = 0
        for index in breakers.indices { breakers[index].endParagraph() }
        isStopped = breakers.allSatisfy { $0.isStopped }
    }

    /// Sums up the unit gathered and hands it to every breaker.
    private mutating func placeUnit() {
        let unit = BreakUnit(pieces, unitStart..<pieces.count, metrics: metrics.endLine(empty: .none))
        var stopped = true
        for index in breakers.indices {
            if breakers[index].take(unit, of: pieces) { stopped = false }
        }
        isStopped = stopped
        // The breakers keep copies of pieces, not the array: it is unique again.
        if pieces.count >= 256 {
            pieces.removeAll(keepingCapacity: true)
            unitStart = 0
        } else {
            unitStart = pieces.count
        }
    }
}
