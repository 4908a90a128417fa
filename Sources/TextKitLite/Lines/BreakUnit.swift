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

    /// Sums up a unit's pieces.
    ///
    /// - Precondition: `pieces` is not empty.
    @inline(__always)
    init(_ pieces: ArraySlice<ShapedPiece>) {
        first = Int32(pieces.startIndex)
        end = Int32(pieces.endIndex)
        start = pieces[pieces.startIndex].start
        var width = 0.0
        for index in pieces.indices { width += pieces[index].width }  // by index: no piece is copied
        self.width = width
        hang = LineCuts.trailingHang(pieces)
    }

    /// Sums up a unit's pieces and their metrics (`fonts`: the chain they were shaped with;
    /// `lines`: the metrics of the units before, ended line by line).
    @inline(__always)
    init(_ pieces: ArraySlice<ShapedPiece>, metrics lines: inout LineMetrics, fonts: FontFallbackChain) {
        self.init(pieces)
        for index in pieces.indices { lines.include(pieces[index], in: fonts) }
        metrics = lines.endLine(empty: .none)
    }
}
