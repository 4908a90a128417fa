/// A break unit summed up for the line breaker: pieces up to and including one that allows
/// a break after it (or to the paragraph's end), their width, the width of their trailing
/// hanging white space, and, in a shaped text, their metrics.
///
/// The breaker places every unit from its summary and reads its pieces only to cut it
/// (white space hanging at a line's end, an emergency break). A shaped text keeps its
/// paragraphs' units (`ShapedParagraph.units`), so breaking it again at another width
/// ("relayout") mostly adds numbers; a streamed paragraph's units are summed as the
/// breaker gathers them.
struct BreakUnit: Sendable {
    /// Indices of its pieces in the array that holds them.
    var first: Int32
    var end: Int32
    /// Text offset where it starts.
    var start: Int32
    /// Its pieces' widths summed in order.
    var width: Double
    /// Width of its trailing hanging white space.
    var hang: Double
    /// The maxima of its pieces' font metrics (natural line heights); nil when not summed,
    /// and then a receiver that needs them reads the pieces.
    var metrics: FontMetrics?

    var pieces: Range<Int> { Int(first)..<Int(end) }

    /// Sums up a unit's pieces, `pieces[range]` (read in place: a slice of the array would
    /// retain it).
    ///
    /// - Precondition: `range` is not empty.
    @inline(__always)
    init(_ pieces: [ShapedPiece], _ range: Range<Int>) {
        first = Int32(range.lowerBound)
        end = Int32(range.upperBound)
        start = pieces[range.lowerBound].start
        var width = 0.0
        for index in range { width += pieces[index].width }  // by index: no piece is copied
        self.width = width
        hang = LineCuts.trailingHang(pieces, range)
    }

    /// Sums up a unit of all of `pieces`.
    @inline(__always)
    init(_ pieces: [ShapedPiece]) {
        self.init(pieces, pieces.indices)
    }

    /// Sums up a unit's pieces, `pieces[range]`, whose metrics are `metrics` (the pieces'
    /// `LineMetrics`, included as they came).
    @inline(__always)
    init(_ pieces: [ShapedPiece], _ range: Range<Int>, metrics: FontMetrics) {
        self.init(pieces, range)
        self.metrics = metrics
    }
}
