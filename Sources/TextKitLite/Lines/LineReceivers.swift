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
    /// Natural metrics: the maxima over its pieces' fonts.
    var metrics: FontMetrics
    /// The line holds a truncation token (its pieces have style indices past the text's).
    var isTruncated = false
    /// Its place beside the layout's exclusion shapes (nil without any).
    var slot: LineSlot?

    init(pieces: [ShapedPiece], end line: LineEnd, paragraph: Int) {
        self.pieces = pieces
        start = line.start
        end = line.end
        self.paragraph = paragraph
        isParagraphEnd = line.isParagraphEnd
        width = line.width
        hang = line.hang
        metrics = line.metrics
        slot = line.slot
    }
}

/// The layout's receiver: keeps every line with its pieces, up to `maxLines`.
struct LineCollector: LineReceiver {
    let maxLines: Int
    private(set) var lines: [BrokenLine] = []
    private var pieces: [ShapedPiece] = []
    /// The paragraph being broken (its index in the text): every paragraph's last line
    /// ends it.
    private var paragraph = 0

    init(maxLines: Int) {
        self.maxLines = maxLines
        lines.reserveCapacity(min(maxLines, 8))
    }

    mutating func place(_ range: Range<Int>, of pieces: [ShapedPiece]) {
        // A line's first pieces are mostly most of it (relayout places the units that fit
        // together): room for them and a few more, so that its array is mostly allocated
        // once, and wastes at most a few pieces' room.
        if self.pieces.isEmpty { self.pieces.reserveCapacity(range.count + 4) }
        // One by one: most units are one piece, for which appending a slice costs more.
        for index in range { self.pieces.append(pieces[index]) }
    }

    mutating func endLine(_ line: LineEnd) -> Bool {
        lines.append(BrokenLine(pieces: pieces, end: line, paragraph: paragraph))
        pieces = []  // the line keeps the array; the next one starts its own
        if line.isParagraphEnd { paragraph += 1 }
        return lines.count < maxLines
    }
}

/// The measuring receiver: keeps where each line starts and stacks the line boxes, up to
/// `maxLines`; and the last line's pieces when truncating it could change its start or its
/// height (`keepsLastLine`).
struct LineMeasurer: LineReceiver {
    let maxLines: Int
    let keepsLastLine: Bool

    private(set) var lineStarts: [Int] = []
    /// The last line ended, and its pieces when `keepsLastLine`.
    private(set) var lastLine: LineEnd?
    private(set) var lastPieces: [ShapedPiece] = []

    /// The lines before the last one, stacked; the last one waits in `lastLine`, as
    /// truncating it may change its metrics.
    private var stack: LineStack

    init(maxLines: Int, keepsLastLine: Bool, stack: LineStack) {
        self.maxLines = maxLines
        self.keepsLastLine = keepsLastLine
        self.stack = stack
        lineStarts.reserveCapacity(min(maxLines, 8))
    }

    @inline(__always)
    mutating func place(_ range: Range<Int>, of pieces: [ShapedPiece]) {
        // Only the last line shown can be truncated: only its pieces are kept.
        if keepsLastLine, lineStarts.count == maxLines - 1 { lastPieces.append(contentsOf: pieces[range]) }
    }

    @inline(__always)  // into the breaker's one call site, once per line measured
    mutating func endLine(_ line: LineEnd) -> Bool {
        if let lastLine { _ = stack.add(natural: lastLine.metrics, dropped: lastLine.slot?.drop ?? 0) }
        lineStarts.append(Int(line.start))
        lastLine = line
        return lineStarts.count < maxLines
    }

    /// The last line was truncated to `line`: its start and metrics follow.
    mutating func replaceLastLine(with line: BrokenLine) {
        lineStarts[lineStarts.count - 1] = Int(line.start)
        lastLine?.metrics = line.metrics
    }

    /// Height of the whole box: the lines and the insets.
    var height: Double {
        var stack = stack
        if let lastLine { _ = stack.add(natural: lastLine.metrics, dropped: lastLine.slot?.drop ?? 0) }
        return stack.height
    }
}

/// The natural metrics of a line or a break unit: the maxima over the fonts of its pieces
/// (or over its units' metrics). Kept from unit to unit (`endLine`), it remembers the last
/// chain font's metrics: a text's pieces mostly share one font and size.
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

    /// The metrics summed, `empty` when nothing was included (a line with no pieces: its
    /// paragraph's empty-line metrics); the next line or unit starts.
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

    init(options: borrowing LayoutOptions, primary: FontMetrics) {
        lineHeightMode = options.lineHeightMode
        lineHeightMultiple = options.lineHeightMultiple
        lineSpacing = options.lineSpacing
        insets = options.lineInsets
        self.primary = primary
        y = options.lineInsets.top
    }

    /// The next line's box: its top and height, from the line's tallest metrics
    /// (`natural`), the primary font's at the text's base size (uniform), or fixed; moved
    /// down by `dropped` points past exclusion shapes (`LineSlot.drop`).
    mutating func add(natural: FontMetrics, dropped: Double = 0) -> (top: Double, height: Double) {
        if !isEmpty { y += lineSpacing }
        isEmpty = false
        y += dropped
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

    /// Where the next line's box would start.
    var nextTop: Double { isEmpty ? y : y + lineSpacing }
}
