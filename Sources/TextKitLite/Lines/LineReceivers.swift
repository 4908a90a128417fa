/// A line before positioning: its pieces in logical order and how it ends.
struct BrokenLine: Sendable {
    var pieces: [ShapedPiece]
    /// UTF-16 range of the text the line holds (with the paragraph terminator on the
    /// paragraph's last line).
    var start: Int32
    var end: Int32
    var paragraph: Int
    var isParagraphEnd: Bool
    /// Width without the trailing hanging spaces, in points.
    var width: Double
    /// Width of the trailing hanging spaces.
    var hang: Double
    /// The line holds a truncation token (its pieces have style indices past the text's).
    var isTruncated = false

    init(pieces: [ShapedPiece], end line: LineEnd, paragraph: Int) {
        self.pieces = pieces
        start = line.start
        end = line.end
        self.paragraph = paragraph
        isParagraphEnd = line.isParagraphEnd
        width = line.width
        hang = line.hang
    }
}

/// The layout's receiver: keeps every line with its pieces, up to `maxLines`.
struct LineCollector: LineReceiver {
    let maxLines: Int
    /// The paragraph being broken (its index in the text).
    var paragraph = 0
    private(set) var lines: [BrokenLine] = []
    private var pieces: [ShapedPiece] = []

    init(maxLines: Int) {
        self.maxLines = maxLines
    }

    mutating func place(_ piece: ShapedPiece) {
        pieces.append(piece)
    }

    mutating func place(_ unit: BreakUnit, of pieces: [ShapedPiece]) {
        // One by one: most units are one piece, for which appending a slice costs more.
        for index in unit.pieces { self.pieces.append(pieces[index]) }
    }

    mutating func endLine(_ line: LineEnd) -> Bool {
        lines.append(BrokenLine(pieces: pieces, end: line, paragraph: paragraph))
        pieces = []  // the line keeps the array; the next one starts its own
        return lines.count < maxLines
    }
}

/// The measuring receiver: keeps where each line starts and stacks the line boxes (with
/// natural heights, each line's metrics are the maxima over its pieces' fonts), up to
/// `maxLines`; and the last line's pieces when truncating it could change its start or its
/// height (`keepsLastLine`).
struct LineMeasurer: LineReceiver {
    let maxLines: Int
    /// The text's fallback chain, for natural metrics (nil: line heights are uniform).
    let naturalFonts: FontFallbackChain?
    let keepsLastLine: Bool
    /// Metrics of a line with no pieces in the paragraph being broken, with natural heights.
    var emptyLineMetrics = FontMetrics.none

    private(set) var lineStarts: [Int] = []
    /// The last line ended, and its pieces when `keepsLastLine`.
    private(set) var lastLine: LineEnd?
    private(set) var lastPieces: [ShapedPiece] = []

    /// The lines before the last one, stacked; the last one's metrics wait in `lastMetrics`,
    /// as truncating it may change them.
    private var stack: LineStack
    private var lastMetrics = FontMetrics.none
    private var metrics = LineMetrics()

    init(maxLines: Int, naturalFonts: FontFallbackChain?, keepsLastLine: Bool, stack: LineStack) {
        self.maxLines = maxLines
        self.naturalFonts = naturalFonts
        self.keepsLastLine = keepsLastLine
        self.stack = stack
        lineStarts.reserveCapacity(min(maxLines, 8))
    }

    @inline(__always)
    mutating func place(_ piece: ShapedPiece) {
        if let naturalFonts { metrics.include(piece, in: naturalFonts) }
        // Only the last line shown can be truncated: only its pieces are kept.
        if keepsLastLine, lineStarts.count == maxLines - 1 { lastPieces.append(piece) }
    }

    @inline(__always)
    mutating func place(_ unit: BreakUnit, of pieces: [ShapedPiece]) {
        if let naturalFonts {
            if let unitMetrics = unit.metrics {
                metrics.include(unitMetrics)
            } else {
                for index in unit.pieces { metrics.include(pieces[index], in: naturalFonts) }
            }
        }
        if keepsLastLine, lineStarts.count == maxLines - 1 { lastPieces.append(contentsOf: pieces[unit.pieces]) }
    }

    mutating func endLine(_ line: LineEnd) -> Bool {
        if lastLine != nil { _ = stack.add(natural: lastMetrics) }
        lineStarts.append(Int(line.start))
        if naturalFonts != nil {
            lastMetrics = metrics.endLine(empty: emptyLineMetrics)
        }
        lastLine = line
        return lineStarts.count < maxLines
    }

    /// The last line was truncated to `line`: its start and metrics follow.
    mutating func replaceLastLine(with line: BrokenLine) {
        lineStarts[lineStarts.count - 1] = Int(line.start)
        guard let naturalFonts else { return }
        for piece in line.pieces { metrics.include(piece, in: naturalFonts) }
        lastMetrics = metrics.endLine(empty: emptyLineMetrics)
    }

    /// Height of the whole box: the lines and the insets.
    var height: Double {
        var stack = stack
        if lastLine != nil { _ = stack.add(natural: lastMetrics) }
        return stack.height
    }
}

/// The natural metrics of a line: the maxima over the fonts of its pieces. Kept from line
/// to line (`endLine`), it remembers the last chain font's metrics: a text's pieces mostly
/// share one font and size.
struct LineMetrics {
    private var value = FontMetrics.none
    private var isEmpty = true
    private var font = Int16(-1), size = 0.0, fontMetrics = FontMetrics.none

    /// Includes a piece's font at its size (`chain`: the text's fallback chain).
    @inline(__always)
    mutating func include(_ piece: ShapedPiece, in chain: FontFallbackChain) {
        if piece.fontIndex >= 0, piece.fontIndex == font, piece.size == size {
            include(fontMetrics)
        } else if let attachment = piece.attachment {
            include(attachment.metrics)  // in place of its U+FFFC's font, as YYText's run delegates
        } else {
            let metrics = piece.font(in: chain).metrics(size: piece.size)
            if piece.fontIndex >= 0 { (font, size, fontMetrics) = (piece.fontIndex, piece.size, metrics) }
            include(metrics)
        }
    }

    /// Includes metrics its pieces' fonts give (a break unit's).
    @inline(__always)
    mutating func include(_ metrics: FontMetrics) {
        isEmpty = false
        value.include(metrics)
    }

    /// The line's metrics, `empty` for a line with no pieces (its paragraph's empty-line
    /// metrics); the next line starts.
    mutating func endLine(empty: FontMetrics) -> FontMetrics {
        defer { (value, isEmpty) = (.none, true) }
        return isEmpty ? empty : value
    }
}

/// Stacks line boxes from the top inset down: each box as tall as the options' line height
/// mode makes it, the line spacing between boxes.
struct LineStack {
    // What of the options stacking reads (not the options: a copy would retain their
    // truncation token).
    private let lineHeightMode: LineHeightMode
    private let lineHeightMultiple: Double
    private let lineSpacing: Double
    private let insets: EdgeInsets
    /// The primary font's metrics at the text's base size (uniform line heights).
    let primary: FontMetrics
    private var y: Double
    private var isEmpty = true

    init(options: LayoutOptions, primary: FontMetrics) {
        lineHeightMode = options.lineHeightMode
        lineHeightMultiple = options.lineHeightMultiple
        lineSpacing = options.lineSpacing
        insets = options.insets
        self.primary = primary
        y = options.insets.top
    }

    /// The next line's box: its top and height, from the line's tallest metrics
    /// (`natural`), the primary font's at the text's base size (uniform), or fixed.
    mutating func add(natural: FontMetrics) -> (top: Double, height: Double) {
        if !isEmpty { y += lineSpacing }
        isEmpty = false
        let top = y
        let height = switch lineHeightMode {
        case .natural: (natural.ascent + natural.descent + natural.lineGap) * lineHeightMultiple
        case .uniform: primary.lineHeight * lineHeightMultiple
        case .fixed(let fixed): fixed
        }
        y += height
        return (top, height)
    }

    /// Height of the whole box: the lines and the insets.
    var height: Double { max(insets.vertical, y + insets.bottom) }
}
