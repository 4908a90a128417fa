extension GlyphRun {
    /// Where one glyph is drawn: the pen x in line coordinates and the vertical offset from
    /// the line's baseline (points, downward positive). An upright glyph of a vertical layout
    /// (`GlyphRun.isUpright`) is placed by its vertical origin, the top centre of its vertical
    /// advance box; any other by its horizontal origin, on its baseline.
    public struct Position: Sendable, Hashable, Codable {
        public var x: Float
        public var y: Float
    }

    /// One glyph of a run: its id in the run's font, where it is drawn, and the UTF-16
    /// offset of its cluster in the text (or in the truncation token).
    public struct Glyph: Sendable, Hashable {
        /// Glyph id in the run's font.
        public var id: UInt32
        /// Where it is drawn.
        public var position: Position
        /// UTF-16 offset of its cluster in the text (or in the truncation token).
        public var cluster: Int32
    }

    /// A run's glyphs in visual order, indexed from 0. The glyphs of all runs of a line are
    /// kept in one block that the line's runs share: laying out a line allocates once for
    /// its glyphs, not three arrays a run.
    // @unchecked Sendable: a block is written only by the code that made it
    // (`LineAssembler.assemble`, or `init(_:)`), each glyph once, before any run over it is
    // returned; a run reads only glyphs written before it was made, so once made its glyphs
    // are never written again and any thread may read them.
    public struct Glyphs: RandomAccessCollection, @unchecked Sendable, Equatable {
        let storage: GlyphStorage
        /// Where the run's glyphs start in `storage`.
        let base: Int
        /// The number of glyphs.
        public let count: Int

        init(storage: GlyphStorage, base: Int, count: Int) {
            self.storage = storage
            self.base = base
            self.count = count
        }

        /// A run's own block holding `glyphs`.
        init(_ glyphs: [Glyph]) {
            let storage = GlyphStorage.make(capacity: glyphs.count)
            for glyph in glyphs { storage.append(glyph) }
            self.init(storage: storage, base: 0, count: glyphs.count)
        }

        /// 0.
        public var startIndex: Int { 0 }
        /// `count`.
        public var endIndex: Int { count }

        /// The glyph at `index`, from 0.
        public subscript(index: Int) -> Glyph {
            precondition(index >= 0 && index < count, "glyph index out of range")
            return storage.withUnsafeMutablePointerToElements { $0[base + index] }
        }

        /// Calls `body` with the glyphs in place.
        func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Glyph>) throws -> R) rethrows -> R {
            try storage.withUnsafeMutablePointerToElements { try body(UnsafeBufferPointer(start: $0 + base, count: count)) }
        }

        /// The same glyphs, in the same order.
        public static func == (a: Glyphs, b: Glyphs) -> Bool { a.elementsEqual(b) }
    }
}

/// The block that holds the glyphs of a line's runs (`GlyphRun.Glyphs`), appended in order
/// as the line is assembled; its header counts the glyphs written and the room for them.
final class GlyphStorage: ManagedBuffer<GlyphStorage.Header, GlyphRun.Glyph> {
    struct Header {
        var count = 0
        let capacity: Int
    }

    /// An empty block with room for `capacity` glyphs.
    static func make(capacity: Int) -> GlyphStorage {
        // `create` makes an instance of this subclass.
        unsafeDowncast(create(minimumCapacity: capacity) { _ in Header(capacity: capacity) }, to: GlyphStorage.self)
    }

    /// The glyphs written so far.
    var count: Int { withUnsafeMutablePointerToHeader { $0.pointee.count } }

    /// Writes the next glyph.
    ///
    /// - Precondition: there is room for it.
    @inline(__always)
    func append(_ glyph: GlyphRun.Glyph) {
        withUnsafeMutablePointers { header, glyphs in
            precondition(header.pointee.count < header.pointee.capacity, "glyph block is full")
            (glyphs + header.pointee.count).initialize(to: glyph)
            header.pointee.count += 1
        }
    }
}

/// Consecutive glyphs of one line with one font, size, style and direction, in visual
/// order (left to right on screen).
public struct GlyphRun: Sendable {
    public let font: Font
    /// Point size.
    public let fontSize: Double
    /// The text style of the run (ink, decorations).
    public let style: TextStyle
    public let isRightToLeft: Bool
    /// In a vertical layout, the run was shaped top to bottom and its glyphs stand upright
    /// (CJK); false for a run turned sideways with its line, and in horizontal layouts.
    public let isUpright: Bool
    /// The run draws the truncation token; `range` is then a range of the token's text.
    public let isTruncationToken: Bool
    /// UTF-16 range of the text the run shows.
    public let range: Range<Int>
    /// Its glyphs in visual order: ids, where each is drawn, and the UTF-16 offset of each
    /// one's cluster in the text (or token).
    public let glyphs: Glyphs
    /// The run's advance box: left edge and width, in points.
    public let x: Double
    public let width: Double
}

extension LayoutLine {
    /// An inline attachment placed on a line.
    public struct Attachment: Sendable, Hashable, Codable {
        /// UTF-16 offset of its U+FFFC in the text, or in the truncation token.
        public let offset: Int
        /// The attachment is the truncation token's.
        public let isTruncationToken: Bool
        /// Its box in line coordinates (points): on the line as its alignment says, or
        /// centred in the line box when the line height is uniform or fixed.
        public let rect: Rect
    }
}

/// One line of a layout.
public struct LayoutLine: Sendable, Codable {
    /// UTF-16 range of the text on this line, with the paragraph terminator on the last
    /// line of a paragraph. A truncated line's range ends where its visible text ends.
    public let range: Range<Int>
    /// The line box: x and width of the visible content (trailing spaces hang outside),
    /// y and height of the box.
    public let frame: Rect
    /// y of the baseline, snapped to nothing (points; the renderer snaps per scale).
    public let baseline: Double
    /// Largest ascent and descent of the fonts on the line.
    public let ascent: Double
    public let descent: Double
    /// Width of the trailing spaces hanging past the visible end.
    public let hangingWidth: Double
    /// Glyph runs in visual order.
    public let runs: [GlyphRun]
    /// Inline attachments, left to right.
    public let attachments: [LayoutLine.Attachment]
    /// The line ends a paragraph (a hard break or the end of the text).
    public let isParagraphEnd: Bool
    /// The line ends with (or, for start/middle truncation, holds) the truncation token.
    public let isTruncated: Bool
}

/// The immutable result of laying out an attributed text: lines, glyph positions and
/// size. Any thread may read it; a renderer draws it without shaping again.
///
/// Lines, runs, glyph positions and attachments are in line coordinates: x along a line, y
/// across lines, downward. In a horizontal layout these are the layout's coordinates. A
/// vertical layout (`LayoutOptions.WritingMode.vertical`) is made as horizontal lines and
/// turned 90° clockwise: a line's x runs down its column and its y leftwards from the box's
/// right edge, so the layout point (x, y) is the line point (y, size.width − x) (see
/// `linePoint(_:)`, `layoutRect(_:)`). `size`, `bounds`, `usedRect`, hit testing and the
/// rects of ranges and highlights are in layout coordinates in both.
public struct TextLayout: Sendable {
    public let text: AttributedText
    public let options: LayoutOptions
    public let lines: [LayoutLine]
    /// The box the text was laid out in: lines `options.width` long when finite, else the
    /// measured width; as tall as all lines, spacing and insets (turned for vertical lines:
    /// as wide as all columns, `options.width` tall).
    public let size: Size
    /// The narrowest line length that gives the same lines: the longest line plus insets
    /// (a vertical layout's narrowest height).
    public let measuredWidth: Double
    /// Some text did not fit in `maxLines`.
    public let isTruncated: Bool

    public var lineCount: Int { lines.count }

    /// The same layout over a longer text it was laid out from a prefix of.
    func replacingText(with full: AttributedText) -> TextLayout {
        TextLayout(text: full, options: options, lines: lines, size: size, measuredWidth: measuredWidth, isTruncated: isTruncated)
    }

    /// The layout box at the origin.
    public var bounds: Rect { Rect(x: 0, y: 0, width: size.width, height: size.height) }

    /// The union of every line's visible box.
    public var usedRect: Rect {
        let insets = options.lineInsets
        guard let first = lines.first else { return layoutRect(Rect(x: insets.left, y: insets.top, width: 0, height: 0)) }
        var minX = first.frame.x, maxX = first.frame.maxX
        for line in lines {
            minX = min(minX, line.frame.x)
            maxX = max(maxX, line.frame.maxX)
        }
        return layoutRect(Rect(x: minX, y: first.frame.y, width: maxX - minX, height: lines.last!.frame.maxY - first.frame.y))
    }

    /// The lines are vertical (`LayoutOptions.WritingMode.vertical`).
    public var isVertical: Bool { options.writingMode == .vertical }

    /// The box in line coordinates: `size`, or turned back for vertical lines.
    public var lineSize: Size { isVertical ? Size(width: size.height, height: size.width) : size }

    /// A point of the layout in line coordinates (the same point in a horizontal layout).
    public func linePoint(_ point: Point) -> Point {
        isVertical ? Point(x: point.y, y: size.width - point.x) : point
    }

    /// A rect in line coordinates (a line's frame, an attachment's box) in the layout's.
    public func layoutRect(_ rect: Rect) -> Rect {
        isVertical ? Rect(x: size.width - rect.maxY, y: rect.x, width: rect.height, height: rect.width) : rect
    }
}
