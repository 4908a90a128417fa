/// Line filling without lines: the pieces of a text's paragraphs, streamed from the
/// itemizer, go into lines exactly as `LineBreaker.lines` puts them there, but only where
/// each line starts (and, for natural line heights, its tallest metrics) is kept. Nothing
/// is copied or held past its unit, and the stream stops once the line limit is passed.
///
/// It follows the line breaker's common path, unit by unit: a unit (the pieces up to a
/// break opportunity) that fits goes on the line; one that does not starts the next line
/// when the line holds something and the unit does not start with white space. Anything
/// else (an emergency break, white space hanging at a line end before a unit) is the line
/// breaker's slow path: the counter gives up (`needsLines`) and the caller lays the text out.
/// Every width is summed in the line breaker's order, so both decide alike to the bit.
struct LineCounter: PieceSink {
    private let limit: Double
    /// Most lines kept; one more marks the text truncated and stops the stream.
    private let maxLines: Int
    /// The text's fallback chain, for natural metrics (nil: line heights are uniform).
    private let naturalFonts: FontFallbackChain?
    private var natural: Bool { naturalFonts != nil }

    /// UTF-16 offset where each line starts.
    private(set) var lineStarts: [Int] = []
    /// Per line, with natural heights: its metrics (the maxima over its pieces' fonts).
    private(set) var lineMetrics: [FontMetrics] = []
    /// More text follows the last kept line.
    private(set) var isTruncated = false
    /// The text needs the line breaker's slow path: these results are void.
    private(set) var needsLines = false

    // The line being filled.
    private var lineWidth = 0.0
    private var lineHasContent = false
    private var line = FontMetrics.none
    // The unit being gathered: its width (summed as `LineBreaker` sums it) and the hang of its
    // trailing white space (the hangs of its trailing all-space pieces, and of the piece before them).
    private var unitWidth = 0.0
    private var unitStart = 0
    private var unitStartsWithSpace = false
    private var unitIsEmpty = true
    private var unitSolidHang: Double?
    private var unitSpaceHangs: [Double] = []
    private var unit = FontMetrics.none
    private var previousFont = Int16(-1), previousSize = 0.0

    /// - Parameters:
    ///   - naturalFonts: the chain a natural line height is measured with; nil for uniform heights.
    init(maxWidth: Double, maxLines: Int, naturalFonts: FontFallbackChain?) {
        limit = maxWidth + LineBreaker.epsilon
        self.maxLines = maxLines
        self.naturalFonts = naturalFonts
    }

    /// True once the counter knows its answer (or that it cannot give one).
    var isDone: Bool { isTruncated || needsLines }

    /// A paragraph with no text: one line, sized by `metrics` (natural heights).
    mutating func addEmptyParagraph(at start: Int, metrics: FontMetrics) {
        guard startLine(at: start) else { return }
        line = metrics
        finishLine()
    }

    /// Starts a paragraph with text at `start`; its pieces follow through `take`.
    mutating func beginParagraph(at start: Int) {
        _ = startLine(at: start)
    }

    /// Ends the paragraph begun last.
    mutating func endParagraph() {
        if !isDone { finishLine() }
    }

    /// Only widths, hangs and fonts are read.
    static var takesExtents: Bool { true }

    mutating func reserve(_ count: Int) {}

    @inline(__always)
    mutating func take(_ piece: ShapedPiece, firstUnit: UInt16) -> Bool {
        if unitIsEmpty {
            unitStart = Int(piece.start)
            unitStartsWithSpace = UnicodeProperties.isHangingSpace(firstUnit)
            unitIsEmpty = false
        }
        unitWidth += piece.width
        if piece.isAllSpace {
            unitSpaceHangs.append(piece.hang)
        } else {
            unitSolidHang = piece.hang
            if !unitSpaceHangs.isEmpty { unitSpaceHangs.removeAll(keepingCapacity: true) }
        }
        if natural, piece.fontIndex < 0 || piece.fontIndex != previousFont || piece.size != previousSize {
            (previousFont, previousSize) = (piece.fontIndex, piece.size)
            unit.include(piece.font(in: naturalFonts!).metrics(size: piece.size))
        }
        if piece.breakAfter { placeUnit() }
        return !isDone
    }

    /// Puts the gathered unit on the current line, or on a new one.
    private mutating func placeUnit() {
        // `LineBreaker.trailingHang`: summed from the last piece back.
        var hang = 0.0
        var k = unitSpaceHangs.count
        while k > 0 {
            k -= 1
            hang += unitSpaceHangs[k]
        }
        if let unitSolidHang { hang += unitSolidHang }
        if lineWidth + unitWidth - hang > limit {
            guard lineHasContent, !unitStartsWithSpace else {
                needsLines = true  // an emergency break, or white space to hang: the slow path
                return
            }
            finishLine()
            guard startLine(at: unitStart) else { return }
            if lineWidth + unitWidth - hang > limit {
                needsLines = true
                return
            }
        }
        lineWidth += unitWidth
        lineHasContent = true
        line.include(unit)
        unitWidth = 0
        unitIsEmpty = true
        unitSolidHang = nil
        if !unitSpaceHangs.isEmpty { unitSpaceHangs.removeAll(keepingCapacity: true) }
        unit = .none
        previousFont = -1  // the next unit's metrics start afresh
    }

    /// Opens a line at `start`; false (and truncated) when it would be one past the limit.
    private mutating func startLine(at start: Int) -> Bool {
        guard lineStarts.count < maxLines else {
            isTruncated = true
            return false
        }
        lineStarts.append(start)
        lineWidth = 0
        lineHasContent = false
        line = .none
        return true
    }

    private mutating func finishLine() {
        if natural { lineMetrics.append(line) }
    }
}
