/// A break unit, the measured form of a paragraph that line breaking reads: the pieces up to
/// and including one that allows a break after it (or to the paragraph's end), summed up
/// once: their width, the width of their trailing hanging white space, the maxima of their
/// fonts' metrics (by index into a table: a paragraph has few), and whether hanging white
/// space starts them.
///
/// Every line break reads units and only units (`LineBreaker.take`): a shaped text keeps
/// its paragraphs' units (`ShapedParagraph.units`), so breaking it again at another width
/// ("relayout") adds their numbers; a measured text's units stream from the itemizer
/// (`LineBreakerFan`). Both come from one producer, `UnitGatherer`. The pieces are read only
/// to cut a unit (white space hanging at a line's end, an emergency break) and by a
/// receiver that keeps them.
struct BreakUnit: Sendable {
    /// Its pieces' widths summed in order.
    var width: Double
    /// Width of its trailing hanging white space.
    var hang: Double
    /// Text offset where it starts.
    var start: Int32
    /// Indices of its pieces in the array that holds them (a shaped text's, or a stream's).
    var first: Int32
    var end: Int32
    /// The index of its metrics and, in the top bit, whether no hanging white space starts
    /// it: one word, so that a unit is 32 bytes (relayout reads nothing else).
    private var packed: UInt32 = 0

    /// Index of its metrics, the maxima of its pieces' font metrics, in its shaped text's
    /// table (`ShapedParagraph.metrics`; 0 in a streamed unit, whose metrics come with it).
    var metrics: Int {
        get { Int(packed & 0x7FFF_FFFF) }
        set { packed = packed & 0x8000_0000 | UInt32(newValue) }
    }

    /// Hanging white space may start it: when it comes after a full line, that white space
    /// hangs at the end of the line (`LineBreaker`). False only when known not to (a shaped
    /// paragraph's units are checked once: `checkLeadingSpace`; a stream's are checked at a
    /// line's end, where the breaker reads their pieces).
    var mayStartWithSpace: Bool {
        get { packed & 0x8000_0000 == 0 }
        set { packed = newValue ? packed & 0x7FFF_FFFF : packed | 0x8000_0000 }
    }

    var pieces: Range<Int> { Int(first)..<Int(end) }

    /// Sums up the pieces `pieces[range]` (read in place: a slice of the array would retain
    /// it).
    ///
    /// - Precondition: `range` is not empty.
    @inline(__always)
    init(_ pieces: [ShapedPiece], _ range: Range<Int>) {
        first = Int32(range.lowerBound)
        end = Int32(range.upperBound)
        start = pieces[range.lowerBound].start
        if range.count == 1 {  // most units: the sums below, of one piece
            width = 0 + pieces[range.lowerBound].width
            hang = 0 + pieces[range.lowerBound].hang
            return
        }
        var width = 0.0
        for index in range { width += pieces[index].width }  // by index: no piece is copied
        self.width = width
        hang = LineCuts.trailingHang(pieces, range)
    }

    /// Finds whether hanging white space starts the unit, a unit of `pieces`.
    mutating func checkLeadingSpace(_ pieces: [ShapedPiece]) {
        mayStartWithSpace = pieces[Int(first)].startsWithHangingSpace
    }

    /// A unit of all of `pieces` (a part cut from a unit), and its metrics, found in
    /// `fonts`, the chain the pieces were shaped with.
    static func cut(_ pieces: [ShapedPiece], fonts: FontFallbackChain) -> (BreakUnit, FontMetrics) {
        (BreakUnit(pieces, pieces.indices), metrics(of: pieces[...], fonts: fonts))
    }

    /// The maxima of the font metrics of `pieces`, shaped with `fonts` (`empty` for none).
    static func metrics(of pieces: ArraySlice<ShapedPiece>, fonts: FontFallbackChain, empty: FontMetrics = .none) -> FontMetrics {
        var metrics = LineMetrics()
        for piece in pieces { metrics.include(piece, in: fonts) }
        return metrics.endLine(empty: empty)
    }
}

/// The one producer of break units: takes a paragraph's pieces one by one, in logical order,
/// and sums up each unit as its last piece comes (`ShapedPiece.breakAfter`). The pieces it
/// holds are the unit's and, until `dropPieces()`, those of the units before it.
struct UnitGatherer {
    /// The chain the pieces are shaped with (for their units' metrics).
    let fonts: FontFallbackChain
    private(set) var pieces: [ShapedPiece] = []
    /// Where the unit being gathered starts in `pieces`.
    private var unitStart = 0
    private var metrics = LineMetrics()

    init(fonts: FontFallbackChain) {
        self.fonts = fonts
    }

    /// Makes room for `count` more pieces.
    mutating func reserve(_ count: Int) {
        pieces.reserveCapacity(adding: count)
    }

    /// Takes the next piece. Returns true when it ends a unit (`unit()` sums it up).
    @inline(__always)
    mutating func add(_ piece: consuming ShapedPiece) -> Bool {
        let breakAfter = piece.breakAfter
        metrics.include(piece, in: fonts)
        pieces.append(piece)
        return breakAfter
    }

    /// Whether pieces past the last unit wait to be summed (the paragraph's last unit, which
    /// ends with it rather than at a break opportunity).
    var hasOpenUnit: Bool { unitStart < pieces.count }

    /// Sums up the unit gathered, with its metrics; the next one starts.
    @inline(__always)
    mutating func unit() -> (BreakUnit, FontMetrics) {
        let unit = BreakUnit(pieces, unitStart..<pieces.count)
        unitStart = pieces.count
        return (unit, metrics.endLine(empty: .none))
    }

    /// Lets go of the pieces of the units summed up (a stream, whose breakers keep copies of
    /// what they need), now and then: freeing them one unit at a time costs more.
    @inline(__always)
    mutating func dropPieces() {
        guard pieces.count >= 256 else { return }
        pieces.removeAll(keepingCapacity: true)
        unitStart = 0
    }

    /// Starts over for the next paragraph, keeping the buffer.
    mutating func reset() {
        pieces.removeAll(keepingCapacity: true)
        unitStart = 0
    }
}
