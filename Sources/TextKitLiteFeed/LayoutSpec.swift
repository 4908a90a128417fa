import TextKitLite
import TextKitLiteMedia

/// A declarative layout tree in the spirit of Texture's layout specs (ASStackLayoutSpec,
/// ASInsetLayoutSpec, ASRatioLayoutSpec, ASOverlayLayoutSpec, ASAbsoluteLayoutSpec): stacks,
/// insets, ratios, overlays, absolute positions, boxes, pictures, backgrounds and text blocks.
/// Solving it at a width gives every element's frame and the total height.
///
/// Every spec is given a width by its parent (the root: the width it is solved at), and
/// some are also proposed a height: a ratio spec proposes its height to its child, an
/// overlay the base's size to its overlay, an absolute spec each child's slot height, and
/// insets, backgrounds, mirrors and horizontal stacks pass a proposal on to their children
/// (less the insets). Only a box or picture without a size reads it; every other spec sizes
/// itself as it would without one. Widths never depend on heights, so a text block's width
/// is a function of the width the spec is solved at.
public indirect enum LayoutSpec: Sendable {
    /// A box (an avatar, an image placeholder) drawn with a fill color. Of its `size`, or,
    /// when nil, filling the space it is given: the width given and the height proposed (as
    /// tall as it is wide without a proposal). Without a size it is flexible in a horizontal
    /// stack, sharing the rest of the width as text blocks do.
    case box(id: String, size: Size?, fill: Color)
    /// A picture element (an avatar, an image): its box, filled with `fill` until (and
    /// unless) the picture is drawn over it, aspect-filled and masked to `shape`. Sized as
    /// a box is: `size`, or the space it is given when nil (inside a ratio: the ratio's
    /// shape).
    case picture(id: String, picture: CellPicture, size: Size?, fill: Color)
    /// A text block as wide as the space its parent gives it, as tall as its lines.
    case text(id: String, text: ShapedText, options: LayoutOptions)
    /// A text block given unshaped: shaped and laid out when the spec is solved, only
    /// measured (`TextEngine.measure`: no lines made) when the spec is measured.
    case attributedText(id: String, text: AttributedText, options: LayoutOptions)
    /// Children side by side (horizontal) or one under another (vertical).
    case stack(StackSpec)
    /// The child, inset by the given amounts.
    case inset(EdgeInsets, LayoutSpec)
    /// A filled box exactly behind its child (a quote box).
    case background(id: String, fill: Color, LayoutSpec)
    /// Square boxes in rows of `columns` filling the width (an image grid); ids are
    /// `idPrefix` followed by the index.
    case grid(GridSpec)
    /// The child flipped left to right within its own frame (a right-to-left cell): a
    /// horizontal stack's first child ends up on the right, a grid fills from the right and
    /// left and right insets swap. Only frames move: a text block draws its lines as its
    /// options align them, and sizes are the child's.
    case mirrored(LayoutSpec)
    /// The width given and a height of that width times the ratio (Texture's
    /// ASRatioLayoutSpec: 0.5 is twice as wide as tall), whatever the child's size; the
    /// child is given that width and proposed that height (a picture without a size fills
    /// it). The ratio is clamped to 0…100 (1 for NaN). Flexible in a horizontal stack.
    case ratio(Double, LayoutSpec)
    /// The overlay laid out in the base's frame, drawn after it (Texture's
    /// ASOverlayLayoutSpec: a badge over a picture): the overlay is given the base's width
    /// and proposed its height. The spec's size is the base's.
    case overlay(LayoutSpec, over: LayoutSpec)
    /// Children at given positions with given sizes (Texture's ASAbsoluteLayoutSpec), drawn
    /// in order; the spec is of its own size or its children's bounding box, whatever the
    /// width given.
    case absolute(AbsoluteSpec)
}

/// Children placed at fixed positions in their parent: the spec of `LayoutSpec.absolute`.
public struct AbsoluteSpec: Sendable {
    /// A child and its slot: where its top left corner lies, from the spec's, and the space
    /// it is given (its width, and its height proposed).
    public struct Child: Sendable {
        /// What is placed in the slot.
        public var spec: LayoutSpec
        /// The slot's top left corner, from the absolute spec's, in points.
        public var position: Point
        /// The slot's size: the child is given its width and proposed its height. A child
        /// that sizes itself otherwise (a text block taller than its slot) overflows it.
        public var size: Size

        /// A child placed in the slot of `size` at `position`.
        ///
        /// - Parameters:
        ///   - spec: what is placed in the slot.
        ///   - position: the slot's top left corner, from the absolute spec's.
        ///   - size: the slot's size.
        public init(_ spec: LayoutSpec, at position: Point, size: Size) {
            self.spec = spec
            self.position = position
            self.size = size
        }
    }

    /// The spec's size; nil: the bounding box of its children's slots and its own top left
    /// corner (`max(position + size)` on each axis), whatever the children lay out.
    public var size: Size?
    /// The children, in drawing order.
    public var children: [Child]

    /// An absolute spec of `size`, or of its children's bounding box when nil.
    ///
    /// - Parameters:
    ///   - size: the spec's size; nil for its children's slots' bounding box.
    ///   - children: the children, in drawing order.
    public init(size: Size? = nil, children: [Child]) {
        self.size = size
        self.children = children
    }

    /// `size`, or the bounding box of the slots, from the origin.
    ///
    /// - Complexity: O(*n*) in the number of children.
    var resolvedSize: Size {
        if let size { return size }
        var box = Size.zero
        for child in children {
            box.width = max(box.width, child.position.x + child.size.width)
            box.height = max(box.height, child.position.y + child.size.height)
        }
        return box
    }
}

/// A grid of equal boxes (an image grid): square, or all of one aspect ratio (a single
/// picture shown in its own shape), each a placeholder or a picture.
public struct GridSpec: Sendable {
    public var idPrefix: String
    public var count: Int
    public var columns: Int
    public var spacing: Double
    /// The fill of each box: a placeholder's color, and a picture's until it is drawn.
    public var fill: Color
    /// The one-pixel outline of each placeholder box; nil for none.
    public var stroke: Color?
    /// Largest width and height of a box, as a fraction of the width (a single image is not
    /// full width).
    public var maxSideFraction: Double
    /// Width over height of every box (1: squares), from 1/16 to 16 (clamped).
    public var aspectRatio: Double
    /// The picture of each box by index, aspect-filled into it; a box past the end, or nil,
    /// is a placeholder.
    public var pictures: [CellPicture?]

    public init(idPrefix: String, count: Int, columns: Int, spacing: Double, fill: Color, stroke: Color? = nil,
                maxSideFraction: Double = 1, aspectRatio: Double = 1, pictures: [CellPicture?] = []) {
        self.idPrefix = idPrefix
        self.count = count
        self.columns = columns
        self.spacing = spacing
        self.fill = fill
        self.stroke = stroke
        self.maxSideFraction = maxSideFraction
        self.aspectRatio = aspectRatio
        self.pictures = pictures
    }

    /// `aspectRatio`, clamped to 1/16…16 (1 for NaN).
    var clampedAspectRatio: Double { aspectRatio.isNaN ? 1 : min(16, max(1.0 / 16, aspectRatio)) }
}

/// What a picture element shows: an image by the source its client resolves (a file path
/// or `file://` URL, as a feed post gives it), aspect-filled into the element's frame
/// (scaled to cover it, centred, the overflow cropped) and masked to a shape.
public struct CellPicture: Sendable, Hashable, Codable {
    public var source: String
    public var shape: PictureShape

    public init(source: String, shape: PictureShape = .rectangle) {
        self.source = source
        self.shape = shape
    }
}

/// A stack of children along one axis.
public struct StackSpec: Sendable {
    /// The direction children follow one another: side by side or one under another.
    public enum Axis: String, Sendable, Codable { case horizontal, vertical }

    /// Placement of children across the axis.
    public enum Alignment: String, Sendable, Codable { case start, center, end }

    public var axis: Axis
    /// Space between consecutive children, in points.
    public var spacing: Double
    public var alignment: Alignment
    public var children: [LayoutSpec]

    public init(axis: Axis, spacing: Double = 0, alignment: Alignment = .start, children: [LayoutSpec]) {
        self.axis = axis
        self.spacing = spacing
        self.alignment = alignment
        self.children = children
    }
}

/// One laid-out element of a cell: its frame in the cell, for text its layout, for a
/// picture what it shows.
public struct CellElement: Sendable, Codable {
    /// What the element is: a filled box, a text block or a picture.
    public enum Kind: String, Sendable, Codable { case box, text, picture }

    public var id: String
    public var kind: Kind
    /// Frame in cell coordinates (points).
    public var frame: Rect
    /// The color a box is filled with.
    public var fill: Color?
    /// The color of a box's one-pixel outline; nil for none.
    public var stroke: Color?
    /// The text layout of a text element; its size equals the frame's.
    public var text: TextLayout?
    /// What a picture element shows (drawn over its `fill`).
    public var picture: CellPicture?

    public init(id: String, kind: Kind, frame: Rect, fill: Color? = nil, stroke: Color? = nil, text: TextLayout? = nil,
                picture: CellPicture? = nil) {
        self.id = id
        self.kind = kind
        self.frame = frame
        self.fill = fill
        self.stroke = stroke
        self.text = text
        self.picture = picture
    }
}

/// A text block's measurement in a measured spec.
public struct MeasuredText: Sendable, Hashable, Codable {
    public var id: String
    public var measurement: TextMeasurement

    public init(id: String, measurement: TextMeasurement) {
        self.id = id
        self.measurement = measurement
    }
}

/// Measures the attributed text blocks of a spec being measured: `TextEngine.measure`, or a
/// cache in front of it.
package protocol SpecTextMeasuring {
    func measure(id: String, text: AttributedText, options: LayoutOptions, engine: TextEngine) throws(LayoutError) -> TextMeasurement
    /// The block measured at several widths (`options` at each), in their order.
    func measure(id: String, text: AttributedText, options: LayoutOptions, widths: [Double],
                 engine: TextEngine) throws(LayoutError) -> [TextMeasurement]
}

/// What measuring a spec at several widths asks its text measurer for: its attributed text
/// blocks, and each one's width at each of the widths (a block's width depends on its
/// ancestors' widths alone, never on a height). A function of the spec and the widths: a
/// plan kept for a spec that many posts share spares placing it once more per width.
package final class MeasuringPlan: Sendable {
    /// The widths the spec is measured at, in order.
    package let widths: [Double]
    /// The attributed text blocks, in placing order (their options' widths unset), each
    /// with its width at each of `widths`.
    let blocks: [(id: String, text: AttributedText, options: LayoutOptions, widths: [Double])]

    fileprivate init(widths: [Double], blocks: [(id: String, text: AttributedText, options: LayoutOptions, widths: [Double])]) {
        self.widths = widths
        self.blocks = blocks
    }
}

/// What placing a spec makes, written once per kind of result: frames for every element
/// (`FrameSolver`), or each text block's measurement (`SpecMeasurer`). The spec's
/// geometry is computed once, in `LayoutSpec.place`.
private protocol SpecPlacement {
    /// A fixed box (and a grid's boxes) at `frame`, a picture's when `picture` is set.
    mutating func box(id: String, frame: Rect, fill: Color, stroke: Color?, picture: CellPicture?)
    /// Whether boxes are wanted at all (a grid's frames are computed only then).
    var placesBoxes: Bool { get }
    /// A shaped text block laid out at `options` made `width` wide (`LayoutOptions.at(width:)`,
    /// copied only by a placement that lays it out), at (x, y); returns its size.
    mutating func text(id: String, _ text: ShapedText, options: LayoutOptions, width: Double, x: Double, y: Double,
                       engine: TextEngine) throws(LayoutError) -> Size
    /// An attributed text block at `options` made `width` wide, at (x, y); returns its size.
    mutating func text(id: String, _ text: AttributedText, options: LayoutOptions, width: Double, x: Double, y: Double,
                       engine: TextEngine) throws(LayoutError) -> Size
    /// Marks where the elements placed next start (for a background behind them, or to
    /// align a stack's children across its axis).
    var mark: Int { get }
    /// A background box whose frame is known after its child: reserved at `mark`.
    mutating func reserveBackground(id: String, fill: Color)
    mutating func setFrame(_ frame: Rect, at index: Int)
    /// Moves the elements placed from `range` by (dx, dy).
    mutating func offset(_ range: Range<Int>, dx: Double, dy: Double)
    /// Flips the frames of the elements placed from `range` left to right within the
    /// horizontal span `minX..<maxX`.
    mutating func mirror(_ range: Range<Int>, minX: Double, maxX: Double)
}

/// A placement that makes no frames (measuring): boxes, backgrounds and moves are nothing to it.
private protocol FramelessPlacement: SpecPlacement {}

extension FramelessPlacement {
    mutating func box(id: String, frame: Rect, fill: Color, stroke: Color?, picture: CellPicture?) {}
    var placesBoxes: Bool { false }
    var mark: Int { 0 }
    mutating func reserveBackground(id: String, fill: Color) {}
    mutating func setFrame(_ frame: Rect, at index: Int) {}
    mutating func offset(_ range: Range<Int>, dx: Double, dy: Double) {}
    mutating func mirror(_ range: Range<Int>, minX: Double, maxX: Double) {}
}

/// Solving: frames for every element, in drawing order.
private struct FrameSolver: SpecPlacement {
    var elements: [CellElement] = []

    mutating func box(id: String, frame: Rect, fill: Color, stroke: Color?, picture: CellPicture?) {
        elements.append(CellElement(id: id, kind: picture == nil ? .box : .picture, frame: frame, fill: fill, stroke: stroke,
                                    picture: picture))
    }

    var placesBoxes: Bool { true }

    mutating func text(id: String, _ text: ShapedText, options: LayoutOptions, width: Double, x: Double, y: Double,
                       engine: TextEngine) throws(LayoutError) -> Size {
        add(id, try engine.layout(text, options: options.at(width: width)), x: x, y: y)
    }

    mutating func text(id: String, _ text: AttributedText, options: LayoutOptions, width: Double, x: Double, y: Double,
                       engine: TextEngine) throws(LayoutError) -> Size {
        add(id, try engine.layout(text, options: options.at(width: width)), x: x, y: y)
    }

    private mutating func add(_ id: String, _ layout: TextLayout, x: Double, y: Double) -> Size {
        elements.append(CellElement(id: id, kind: .text, frame: Rect(x: x, y: y, width: layout.size.width, height: layout.size.height),
                                    text: layout))
        return layout.size
    }

    var mark: Int { elements.count }

    mutating func reserveBackground(id: String, fill: Color) {
        elements.append(CellElement(id: id, kind: .box, frame: .zero, fill: fill))
    }

    mutating func setFrame(_ frame: Rect, at index: Int) { elements[index].frame = frame }

    mutating func offset(_ range: Range<Int>, dx: Double, dy: Double) {
        for i in range { elements[i].frame = elements[i].frame.offsetBy(dx: dx, dy: dy) }
    }

    mutating func mirror(_ range: Range<Int>, minX: Double, maxX: Double) {
        for i in range { elements[i].frame.x = minX + (maxX - elements[i].frame.maxX) }
    }
}

/// Measuring: each text block's measurement, in order; no frames. The blocks are measured
/// as they come, or their measurements replayed (`measure(_:engine:textMeasurer:)`).
private struct SpecMeasurer: FramelessPlacement {
    /// Measures attributed text blocks (nil: `TextEngine.measure`).
    let textMeasurer: (any SpecTextMeasuring)?
    /// The attributed text blocks' measurements when known before placing: the next
    /// block's at `measured[next]`, each `stride` after the one before.
    private let measured: [TextMeasurement]?
    private var next: Int
    private let stride: Int
    var texts: [MeasuredText] = []

    init(textMeasurer: (any SpecTextMeasuring)?, measured: [TextMeasurement]? = nil, first: Int = 0, stride: Int = 1) {
        self.textMeasurer = textMeasurer
        self.measured = measured
        next = first
        self.stride = stride
    }

    mutating func text(id: String, _ text: ShapedText, options: LayoutOptions, width: Double, x: Double, y: Double,
                       engine: TextEngine) throws(LayoutError) -> Size {
        let layout = try engine.layout(text, options: options.at(width: width))
        texts.append(MeasuredText(id: id, measurement: TextMeasurement(layout)))
        return layout.size
    }

    mutating func text(id: String, _ text: AttributedText, options: LayoutOptions, width: Double, x: Double, y: Double,
                       engine: TextEngine) throws(LayoutError) -> Size {
        let measurement: TextMeasurement
        if let measured {
            measurement = measured[next]
            next += stride
        } else if let textMeasurer {
            measurement = try textMeasurer.measure(id: id, text: text, options: options.at(width: width), engine: engine)
        } else {
            measurement = try engine.measure(text, options: options.at(width: width))
        }
        texts.append(MeasuredText(id: id, measurement: measurement))
        return Size(width: width, height: measurement.height)
    }
}

/// The attributed text blocks a spec asks for, and their widths at each width it is placed
/// at, in order, none measured (every text block placed as zero high): a `MeasuringPlan`.
private struct SpecTextBlocks: FramelessPlacement {
    /// The blocks, as the first placement asks for them.
    var blocks: [(id: String, text: AttributedText, options: LayoutOptions)] = []
    /// Each placement's block widths, one placement after another.
    var widths: [Double] = []
    /// The blocks are kept (the first placement).
    var keepsBlocks = true

    mutating func text(id: String, _ text: ShapedText, options: LayoutOptions, width: Double, x: Double, y: Double,
                       engine: TextEngine) throws(LayoutError) -> Size {
        Size(width: width, height: 0)  // laid out when measured
    }

    mutating func text(id: String, _ text: AttributedText, options: LayoutOptions, width: Double, x: Double, y: Double,
                       engine: TextEngine) throws(LayoutError) -> Size {
        if keepsBlocks { blocks.append((id, text, options)) }
        widths.append(width)
        return Size(width: width, height: 0)
    }
}

extension LayoutSpec {
    /// Solves the spec at a width: frames for every element, in drawing order.
    ///
    /// Horizontal stacks give their fixed-size children their own width and share the
    /// rest equally among flexible children (text blocks, grids, ratios, boxes and pictures
    /// without a size).
    ///
    /// - Complexity: O(*n*) in the number of specs and elements, plus each text block's layout.
    /// - Throws: `LayoutError` from a text block's layout.
    public func solve(width: Double, engine: TextEngine) throws(LayoutError) -> (size: Size, elements: [CellElement]) {
        var solver = FrameSolver()
        // One allocation, no regrowth (a hint: clamped, so a huge grid does not allocate up front).
        solver.elements.reserveCapacity(min(max(0, elementCount), 1024))
        let size = try place(x: 0, y: 0, width: width, engine: engine, into: &solver)
        return (size, solver.elements)
    }

    /// Measures the spec at a width: the size `solve` gives, and each text block's
    /// measurement in order, without frames, lines or glyphs (attributed text blocks are
    /// measured by `TextEngine.measure`, shaped ones from their layouts).
    ///
    /// - Throws: `LayoutError` from a text block's measurement.
    public func measure(width: Double, engine: TextEngine) throws(LayoutError) -> (size: Size, texts: [MeasuredText]) {
        try measure(width: width, engine: engine, textMeasurer: nil)
    }

    /// `measure(width:engine:)` with the attributed text blocks measured by `textMeasurer`.
    package func measure(width: Double, engine: TextEngine,
                 textMeasurer: (any SpecTextMeasuring)?) throws(LayoutError) -> (size: Size, texts: [MeasuredText]) {
        var measurer = SpecMeasurer(textMeasurer: textMeasurer)
        measurer.texts.reserveCapacity(4)  // a feed cell's text blocks: no regrowth
        let size = try place(x: 0, y: 0, width: width, engine: engine, into: &measurer)
        return (size, measurer.texts)
    }

    /// What measuring the spec at `widths` asks of its text measurer: found by placing the
    /// spec at each width (`MeasuringPlan`).
    package func measuringPlan(widths: [Double], engine: TextEngine) throws(LayoutError) -> MeasuringPlan {
        var blocks = SpecTextBlocks()
        for width in widths {
            _ = try place(x: 0, y: 0, width: width, engine: engine, into: &blocks)
            blocks.keepsBlocks = false
        }
        let count = blocks.blocks.count
        return MeasuringPlan(widths: widths, blocks: blocks.blocks.enumerated().map { index, block in
            (block.id, block.text, block.options, widths.indices.map { blocks.widths[$0 * count + index] })
        })
    }

    /// `measure(width:engine:textMeasurer:)` at each of the plan's widths, in their order: each
    /// text block is measured at all its widths at once (`SpecTextMeasuring.measure(id:text:options:widths:)`:
    /// its text itemized once), then the spec is placed at each width with those measurements.
    ///
    /// - Precondition: `plan` is this spec's (`measuringPlan(widths:engine:)`).
    package func measure(_ plan: MeasuringPlan, engine: TextEngine,
                         textMeasurer: any SpecTextMeasuring) throws(LayoutError) -> [(size: Size, texts: [MeasuredText])] {
        let widths = plan.widths
        // Block b at width w: `measured[b * widths.count + w]`.
        var measured: [TextMeasurement] = []
        measured.reserveCapacity(plan.blocks.count * widths.count)
        for block in plan.blocks {
            measured += try textMeasurer.measure(id: block.id, text: block.text, options: block.options, widths: block.widths,
                                                 engine: engine)
        }
        var results: [(size: Size, texts: [MeasuredText])] = []
        results.reserveCapacity(widths.count)
        for (index, width) in widths.enumerated() {
            var measurer = SpecMeasurer(textMeasurer: textMeasurer, measured: measured, first: index, stride: widths.count)
            measurer.texts.reserveCapacity(4)  // a feed cell's text blocks: no regrowth
            let size = try place(x: 0, y: 0, width: width, engine: engine, into: &measurer)
            results.append((size, measurer.texts))
        }
        return results
    }

    /// Number of elements `place` makes (wrapping: a capacity hint, never trapping).
    private var elementCount: Int {
        switch self {
        case .box, .picture, .text, .attributedText: 1
        case .inset(_, let child), .mirrored(let child), .ratio(_, let child): child.elementCount
        case .background(_, _, let child): 1 &+ child.elementCount
        case .overlay(let overlay, let base): base.elementCount &+ overlay.elementCount
        case .stack(let stack): stack.children.reduce(0) { $0 &+ $1.elementCount }
        case .absolute(let absolute): absolute.children.reduce(0) { $0 &+ $1.spec.elementCount }
        case .grid(let grid): max(0, grid.count)
        }
    }

    /// The fixed width of a child in a horizontal stack, nil for flexible children (text
    /// blocks, grids, ratios, boxes and pictures without a size).
    fileprivate var fixedWidth: Double? {
        switch self {
        case .box(_, let size, _), .picture(_, _, let size, _): return size?.width
        case .text, .attributedText, .grid, .ratio: return nil
        case .inset(let insets, let child): return child.fixedWidth.map { $0 + insets.horizontal }
        case .background(_, _, let child), .mirrored(let child), .overlay(_, over: let child): return child.fixedWidth
        case .absolute(let absolute): return absolute.resolvedSize.width
        case .stack(let stack):
            // Vertical: its widest fixed child; horizontal: all its children and the gaps
            // (flexible when one child is).
            var widest: Double?, total = 0.0
            for child in stack.children {
                guard let fixed = child.fixedWidth else {
                    if stack.axis == .horizontal { return nil }
                    continue
                }
                widest = max(widest ?? fixed, fixed)
                total += fixed
            }
            return stack.axis == .vertical ? widest : total + stack.spacing * Double(max(0, stack.children.count - 1))
        }
    }

    /// Places the spec with its top left corner at (x, y), given `width` and proposed
    /// `height` (nil: none; see `LayoutSpec`), into `placement`; returns its size.
    fileprivate func place<Placement: SpecPlacement>(x: Double, y: Double, width: Double, height proposed: Double? = nil,
                                                     engine: TextEngine, into placement: inout Placement) throws(LayoutError) -> Size {
        switch self {
        case .box(let id, let size, let fill):
            let size = size ?? Size(width: width, height: proposed ?? width)
            placement.box(id: id, frame: Rect(x: x, y: y, width: size.width, height: size.height), fill: fill, stroke: nil, picture: nil)
            return size
        case .picture(let id, let picture, let size, let fill):
            let size = size ?? Size(width: width, height: proposed ?? width)
            placement.box(id: id, frame: Rect(x: x, y: y, width: size.width, height: size.height), fill: fill, stroke: nil,
                          picture: picture)
            return size
        case .text(let id, let text, let options):
            return try placement.text(id: id, text, options: options, width: max(width, 1e-3), x: x, y: y, engine: engine)
        case .attributedText(let id, let text, let options):
            return try placement.text(id: id, text, options: options, width: max(width, 1e-3), x: x, y: y, engine: engine)
        case .inset(let insets, let child):
            let inner = try child.place(x: x + insets.left, y: y + insets.top, width: max(0, width - insets.horizontal),
                                        height: proposed.map { max(0, $0 - insets.vertical) }, engine: engine, into: &placement)
            return Size(width: inner.width + insets.horizontal, height: inner.height + insets.vertical)
        case .background(let id, let fill, let child):
            let index = placement.mark
            placement.reserveBackground(id: id, fill: fill)
            let size = try child.place(x: x, y: y, width: width, height: proposed, engine: engine, into: &placement)
            placement.setFrame(Rect(x: x, y: y, width: width, height: size.height), at: index)
            return Size(width: width, height: size.height)
        case .stack(let stack):
            return try stack.place(x: x, y: y, width: width, height: proposed, engine: engine, into: &placement)
        case .mirrored(let child):
            let start = placement.mark
            let size = try child.place(x: x, y: y, width: width, height: proposed, engine: engine, into: &placement)
            placement.mirror(start..<placement.mark, minX: x, maxX: x + size.width)
            return size
        case .ratio(let ratio, let child):
            let size = Size(width: width, height: width * (ratio.isNaN ? 1 : min(100, max(0, ratio))))
            _ = try child.place(x: x, y: y, width: size.width, height: size.height, engine: engine, into: &placement)
            return size
        case .overlay(let overlay, let base):
            let size = try base.place(x: x, y: y, width: width, height: proposed, engine: engine, into: &placement)
            _ = try overlay.place(x: x, y: y, width: size.width, height: size.height, engine: engine, into: &placement)
            return size
        case .absolute(let absolute):
            for child in absolute.children {
                _ = try child.spec.place(x: x + child.position.x, y: y + child.position.y, width: child.size.width,
                                         height: child.size.height, engine: engine, into: &placement)
            }
            return absolute.resolvedSize
        case .grid(let grid):
            let columns = max(1, grid.columns)
            let rows = (max(0, grid.count) + columns - 1) / columns
            // A box's width and height: as wide as the columns allow, both within the
            // largest side, in the grid's aspect ratio.
            let largest = max(0, min(width * grid.maxSideFraction, (width - grid.spacing * Double(columns - 1)) / Double(columns)))
            let ratio = grid.clampedAspectRatio
            let (boxWidth, boxHeight) = ratio >= 1 ? (largest, largest / ratio) : (largest * ratio, largest)
            for i in 0..<(placement.placesBoxes ? max(0, grid.count) : 0) {
                let frame = Rect(x: x + Double(i % columns) * (boxWidth + grid.spacing), y: y + Double(i / columns) * (boxHeight + grid.spacing),
                                 width: boxWidth, height: boxHeight)
                placement.box(id: "\(grid.idPrefix)\(i)", frame: frame, fill: grid.fill, stroke: grid.stroke,
                              picture: i < grid.pictures.count ? grid.pictures[i] : nil)
            }
            let height = rows == 0 ? 0 : Double(rows) * boxHeight + Double(rows - 1) * grid.spacing
            return Size(width: width, height: height)
        }
    }
}

extension StackSpec {
    /// Places the stack (see `LayoutSpec.place`): a vertical stack proposes no height to its
    /// children, a horizontal one proposes its own to each.
    fileprivate func place<Placement: SpecPlacement>(x: Double, y: Double, width: Double, height proposed: Double?,
                                                     engine: TextEngine, into placement: inout Placement) throws(LayoutError) -> Size {
        let gaps = spacing * Double(max(0, children.count - 1))
        // Children's element ranges and sizes, for cross-axis alignment (none when nothing
        // is placed: measuring).
        var placed: [(range: Range<Int>, size: Size)] = []
        switch axis {
        case .vertical:
            var cursor = y, height = 0.0
            for child in children {
                let start = placement.mark
                let size = try child.place(x: x, y: cursor, width: width, engine: engine, into: &placement)
                if placement.mark > start { placed.append((start..<placement.mark, size)) }
                height += size.height
                cursor += size.height + spacing
            }
            // Cross-axis alignment of children narrower than the stack.
            for (range, size) in placed {
                let dx = alignment == .center ? (width - size.width) / 2 : alignment == .end ? width - size.width : 0
                if dx > 0 { placement.offset(range, dx: dx, dy: 0) }
            }
            return Size(width: width, height: height + (children.isEmpty ? 0 : gaps))
        case .horizontal:
            var fixedTotal = 0.0, flexible = 0
            for child in children {
                if let fixed = child.fixedWidth { fixedTotal += fixed } else { flexible += 1 }
            }
            let share = flexible > 0 ? max(0, (width - fixedTotal - gaps) / Double(flexible)) : 0
            var cursor = x, height = 0.0
            for child in children {
                let start = placement.mark
                let size = try child.place(x: cursor, y: y, width: child.fixedWidth ?? share, height: proposed, engine: engine,
                                           into: &placement)
                if placement.mark > start { placed.append((start..<placement.mark, size)) }
                height = max(height, size.height)
                cursor += size.width + spacing
            }
            for (range, size) in placed {
                let dy = alignment == .center ? (height - size.height) / 2 : alignment == .end ? height - size.height : 0
                if dy > 0 { placement.offset(range, dx: 0, dy: dy) }
            }
            return Size(width: width, height: height)
        }
    }
}
