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
    /// The attributed text blocks, in placing order.
    let blocks: [Block]

    /// An attributed text block (its options' width unset), with its width at each of the
    /// plan's widths.
    struct Block {
        let id: String
        let text: AttributedText
        let options: LayoutOptions
        let widths: [Double]
    }

    fileprivate init(widths: [Double], blocks: [Block]) {
        self.widths = widths
        self.blocks = blocks
    }
}

/// The numbers a spec is placed in: `Double`, one width; or `SIMD4<Double>`, four widths
/// placed in one walk of the spec, a lane each (`measure(_:engine:textMeasurer:)`). Every
/// operation gives in each lane what `Double`'s gives, to the bit.
private protocol SpecScalar {
    init(_ value: Double)
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static func * (a: Self, b: Self) -> Self
    static func / (a: Self, b: Self) -> Self
    /// `Swift.max(a, b)`, and `Swift.min(a, b)`, in each lane.
    static func maximum(_ a: Self, _ b: Self) -> Self
    static func minimum(_ a: Self, _ b: Self) -> Self
}

extension Double: SpecScalar {
    static func maximum(_ a: Double, _ b: Double) -> Double { max(a, b) }
    static func minimum(_ a: Double, _ b: Double) -> Double { min(a, b) }
}

extension SIMD4: SpecScalar where Scalar == Double {
    init(_ value: Double) { self.init(repeating: value) }
    // As `Swift.max` and `Swift.min` choose: `b >= a ? b : a`, `b < a ? b : a`.
    static func maximum(_ a: Self, _ b: Self) -> Self { a.replacing(with: b, where: b .>= a) }
    static func minimum(_ a: Self, _ b: Self) -> Self { a.replacing(with: b, where: b .< a) }
}

/// What placing a spec makes, written once per kind of result: frames for every element
/// (`FrameSolver`), or each text block's measurement (`SpecMeasurer`, `SpecReplay`). The
/// spec's geometry is computed once, in `LayoutSpec.place`.
private protocol SpecPlacement {
    /// What positions and sizes are: one width's, or several widths' at once.
    associatedtype Number: SpecScalar
    /// A fixed box (and a grid's boxes) at (x, y), a picture's when `picture` is set.
    mutating func box(id: String, x: Number, y: Number, width: Number, height: Number, fill: Color, stroke: Color?,
                      picture: CellPicture?)
    /// Whether boxes are wanted at all (a grid's frames are computed only then).
    var placesBoxes: Bool { get }
    /// A shaped text block laid out at `options` made `width` wide (`LayoutOptions.at(width:)`,
    /// copied only by a placement that lays it out), at (x, y); returns its size.
    mutating func text(id: String, _ text: ShapedText, options: LayoutOptions, width: Number, x: Number, y: Number,
                       engine: TextEngine) throws(LayoutError) -> (width: Number, height: Number)
    /// An attributed text block at `options` made `width` wide, at (x, y); returns its size.
    mutating func text(id: String, _ text: AttributedText, options: LayoutOptions, width: Number, x: Number, y: Number,
                       engine: TextEngine) throws(LayoutError) -> (width: Number, height: Number)
    /// Marks where the elements placed next start (for a background behind them, or to
    /// align a stack's children across its axis).
    var mark: Int { get }
    /// A background box whose frame is known after its child: reserved at `mark`.
    mutating func reserveBackground(id: String, fill: Color)
    mutating func setFrame(x: Number, y: Number, width: Number, height: Number, at index: Int)
    /// Moves the elements placed from `range` by `dx` across, or `dy` down, where positive
    /// (a child narrower than its stack is aligned; a wider one stays).
    mutating func align(_ range: Range<Int>, dx: Number, dy: Number)
    /// Flips the frames of the elements placed from `range` left to right within the
    /// horizontal span `minX..<maxX`.
    mutating func mirror(_ range: Range<Int>, minX: Number, maxX: Number)
}

/// A placement that makes no frames (measuring): boxes, backgrounds and moves are nothing to it.
private protocol FramelessPlacement: SpecPlacement {}

extension FramelessPlacement {
    mutating func box(id: String, x: Number, y: Number, width: Number, height: Number, fill: Color, stroke: Color?,
                      picture: CellPicture?) {}
    var placesBoxes: Bool { false }
    var mark: Int { 0 }
    mutating func reserveBackground(id: String, fill: Color) {}
    mutating func setFrame(x: Number, y: Number, width: Number, height: Number, at index: Int) {}
    mutating func align(_ range: Range<Int>, dx: Number, dy: Number) {}
    mutating func mirror(_ range: Range<Int>, minX: Number, maxX: Number) {}
}

/// Solving: frames for every element, in drawing order.
private struct FrameSolver: SpecPlacement {
    var elements: [CellElement] = []

    mutating func box(id: String, x: Double, y: Double, width: Double, height: Double, fill: Color, stroke: Color?,
                      picture: CellPicture?) {
        elements.append(CellElement(id: id, kind: picture == nil ? .box : .picture, frame: Rect(x: x, y: y, width: width, height: height),
                                    fill: fill, stroke: stroke, picture: picture))
    }

    var placesBoxes: Bool { true }

    mutating func text(id: String, _ text: ShapedText, options: LayoutOptions, width: Double, x: Double, y: Double,
                       engine: TextEngine) throws(LayoutError) -> (width: Double, height: Double) {
        add(id, try engine.layout(text, options: options.at(width: width)), x: x, y: y)
    }

    mutating func text(id: String, _ text: AttributedText, options: LayoutOptions, width: Double, x: Double, y: Double,
                       engine: TextEngine) throws(LayoutError) -> (width: Double, height: Double) {
        add(id, try engine.layout(text, options: options.at(width: width)), x: x, y: y)
    }

    private mutating func add(_ id: String, _ layout: TextLayout, x: Double, y: Double) -> (width: Double, height: Double) {
        elements.append(CellElement(id: id, kind: .text, frame: Rect(x: x, y: y, width: layout.size.width, height: layout.size.height),
                                    text: layout))
        return (layout.size.width, layout.size.height)
    }

    var mark: Int { elements.count }

    mutating func reserveBackground(id: String, fill: Color) {
        elements.append(CellElement(id: id, kind: .box, frame: .zero, fill: fill))
    }

    mutating func setFrame(x: Double, y: Double, width: Double, height: Double, at index: Int) {
        elements[index].frame = Rect(x: x, y: y, width: width, height: height)
    }

    mutating func align(_ range: Range<Int>, dx: Double, dy: Double) {
        let (dx, dy) = (dx > 0 ? dx : 0, dy > 0 ? dy : 0)
        guard dx > 0 || dy > 0 else { return }
        for i in range { elements[i].frame = elements[i].frame.offsetBy(dx: dx, dy: dy) }
    }

    mutating func mirror(_ range: Range<Int>, minX: Double, maxX: Double) {
        for i in range { elements[i].frame.x = minX + (maxX - elements[i].frame.maxX) }
    }
}

/// Measuring at one width: each text block's measurement, in order; no frames.
private struct SpecMeasurer<TextMeasurer: SpecTextMeasuring>: FramelessPlacement {
    /// Measures the attributed text blocks.
    let textMeasurer: TextMeasurer
    var texts: [MeasuredText] = []

    init(textMeasurer: TextMeasurer) {
        self.textMeasurer = textMeasurer
        texts.reserveCapacity(4)  // a feed cell's text blocks: no regrowth
    }

    mutating func text(id: String, _ text: ShapedText, options: LayoutOptions, width: Double, x: Double, y: Double,
                       engine: TextEngine) throws(LayoutError) -> (width: Double, height: Double) {
        let layout = try engine.layout(text, options: options.at(width: width))
        texts.append(MeasuredText(id: id, measurement: TextMeasurement(layout)))
        return (layout.size.width, layout.size.height)
    }

    mutating func text(id: String, _ text: AttributedText, options: LayoutOptions, width: Double, x: Double, y: Double,
                       engine: TextEngine) throws(LayoutError) -> (width: Double, height: Double) {
        let measurement = try textMeasurer.measure(id: id, text: text, options: options.at(width: width), engine: engine)
        texts.append(MeasuredText(id: id, measurement: measurement))
        return (width, measurement.height)
    }
}

/// Measuring at up to four widths at once, a lane each, the attributed text blocks'
/// measurements known before placing (`measure(_:engine:textMeasurer:)`); lanes past the
/// widths repeat the last one, and are dropped.
private struct SpecReplay: FramelessPlacement {
    /// Block b's measurement at the plan's width w: `measured[b][w]`.
    private let measured: [[TextMeasurement]]
    /// The plan's widths in the lanes, the first in lane 0.
    private let columns: Range<Int>
    /// The next attributed text block's index.
    private var next = 0
    /// Each width's text blocks' measurements, in order.
    private(set) var texts: [[MeasuredText]]

    init(measured: [[TextMeasurement]], columns: Range<Int>) {
        self.measured = measured
        self.columns = columns
        texts = columns.map { _ in
            var texts: [MeasuredText] = []
            texts.reserveCapacity(4)  // a feed cell's text blocks: no regrowth
            return texts
        }
    }

    mutating func text(id: String, _ text: ShapedText, options: LayoutOptions, width: SIMD4<Double>, x: SIMD4<Double>,
                       y: SIMD4<Double>, engine: TextEngine) throws(LayoutError) -> (width: SIMD4<Double>, height: SIMD4<Double>) {
        var size = (width: SIMD4<Double>(), height: SIMD4<Double>())
        for lane in 0..<4 {
            guard lane < columns.count else {  // a padding lane: the last width's again, not laid out again
                (size.width[lane], size.height[lane]) = (size.width[lane - 1], size.height[lane - 1])
                continue
            }
            let layout = try engine.layout(text, options: options.at(width: width[lane]))
            (size.width[lane], size.height[lane]) = (layout.size.width, layout.size.height)
            texts[lane].append(MeasuredText(id: id, measurement: TextMeasurement(layout)))
        }
        return size
    }

    mutating func text(id: String, _ text: AttributedText, options: LayoutOptions, width: SIMD4<Double>, x: SIMD4<Double>,
                       y: SIMD4<Double>, engine: TextEngine) throws(LayoutError) -> (width: SIMD4<Double>, height: SIMD4<Double>) {
        var height = SIMD4<Double>()
        for lane in 0..<4 {
            let measurement = measured[next][columns.lowerBound + min(lane, columns.count - 1)]
            height[lane] = measurement.height
            if lane < columns.count { texts[lane].append(MeasuredText(id: id, measurement: measurement)) }
        }
        next += 1
        return (width, height)
    }
}

/// Measures text blocks with `TextEngine.measure`.
package struct EngineTextMeasurer: SpecTextMeasuring {
    package init() {}

    package func measure(id: String, text: AttributedText, options: LayoutOptions, engine: TextEngine) throws(LayoutError) -> TextMeasurement {
        try engine.measure(text, options: options)
    }

    package func measure(id: String, text: AttributedText, options: LayoutOptions, widths: [Double],
                         engine: TextEngine) throws(LayoutError) -> [TextMeasurement] {
        try engine.measure(text, options: options, widths: widths)
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
                       engine: TextEngine) throws(LayoutError) -> (width: Double, height: Double) {
        (width, 0)  // laid out when measured
    }

    mutating func text(id: String, _ text: AttributedText, options: LayoutOptions, width: Double, x: Double, y: Double,
                       engine: TextEngine) throws(LayoutError) -> (width: Double, height: Double) {
        if keepsBlocks { blocks.append((id, text, options)) }
        widths.append(width)
        return (width, 0)
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
        return (Size(width: size.width, height: size.height), solver.elements)
    }

    /// Measures the spec at a width: the size `solve` gives, and each text block's
    /// measurement in order, without frames, lines or glyphs (attributed text blocks are
    /// measured by `TextEngine.measure`, shaped ones from their layouts).
    ///
    /// - Throws: `LayoutError` from a text block's measurement.
    public func measure(width: Double, engine: TextEngine) throws(LayoutError) -> (size: Size, texts: [MeasuredText]) {
        try measure(width: width, engine: engine, textMeasurer: EngineTextMeasurer())
    }

    /// `measure(width:engine:)` with the attributed text blocks measured by `textMeasurer`.
    package func measure(width: Double, engine: TextEngine,
                 textMeasurer: some SpecTextMeasuring) throws(LayoutError) -> (size: Size, texts: [MeasuredText]) {
        var measurer = SpecMeasurer(textMeasurer: textMeasurer)
        let size = try place(x: 0, y: 0, width: width, engine: engine, into: &measurer)
        return (Size(width: size.width, height: size.height), measurer.texts)
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
            MeasuringPlan.Block(id: block.id, text: block.text, options: block.options,
                                widths: widths.indices.map { blocks.widths[$0 * count + index] })
        })
    }

    /// `measure(width:engine:textMeasurer:)` at each of the plan's widths, in their order: each
    /// text block is measured at all its widths at once (`SpecTextMeasuring.measure(id:text:options:widths:)`:
    /// its text itemized once), then the spec is placed with those measurements at four
    /// widths at a time (`SpecReplay`).
    ///
    /// - Precondition: `plan` is this spec's (`measuringPlan(widths:engine:)`).
    package func measure(_ plan: MeasuringPlan, engine: TextEngine,
                         textMeasurer: some SpecTextMeasuring) throws(LayoutError) -> [(size: Size, texts: [MeasuredText])] {
        let widths = plan.widths
        // Block b at width w: `measured[b][w]` (the blocks read in place, through a pointer: no copies).
        var measured: [[TextMeasurement]] = []
        measured.reserveCapacity(plan.blocks.count)
        try plan.blocks.withUnsafeBufferPointer { blocks throws(LayoutError) in
            for block in blocks.indices {
                measured.append(try textMeasurer.measure(id: blocks[block].id, text: blocks[block].text, options: blocks[block].options,
                                                         widths: blocks[block].widths, engine: engine))
            }
        }
        var results: [(size: Size, texts: [MeasuredText])] = []
        results.reserveCapacity(widths.count)
        for first in stride(from: 0, to: widths.count, by: 4) {
            let columns = first..<min(first + 4, widths.count)
            let last = columns.upperBound - 1
            let lanes = SIMD4(widths[first], widths[min(first + 1, last)], widths[min(first + 2, last)], widths[last])
            var replay = SpecReplay(measured: measured, columns: columns)
            let size = try place(x: .zero, y: .zero, width: lanes, engine: engine, into: &replay)
            for lane in 0..<columns.count {
                results.append((Size(width: size.width[lane], height: size.height[lane]), replay.texts[lane]))
            }
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
    fileprivate func place<Placement: SpecPlacement>(
        x: Placement.Number, y: Placement.Number, width: Placement.Number, height proposed: Placement.Number? = nil,
        engine: TextEngine, into placement: inout Placement
    ) throws(LayoutError) -> (width: Placement.Number, height: Placement.Number) {
        typealias Number = Placement.Number
        switch self {
        case .box(let id, let size, let fill):
            let size = size.map { (Number($0.width), Number($0.height)) } ?? (width, proposed ?? width)
            placement.box(id: id, x: x, y: y, width: size.0, height: size.1, fill: fill, stroke: nil, picture: nil)
            return size
        case .picture(let id, let picture, let size, let fill):
            let size = size.map { (Number($0.width), Number($0.height)) } ?? (width, proposed ?? width)
            placement.box(id: id, x: x, y: y, width: size.0, height: size.1, fill: fill, stroke: nil, picture: picture)
            return size
        case .text(let id, let text, let options):
            return try placement.text(id: id, text, options: options, width: .maximum(width, Number(1e-3)), x: x, y: y, engine: engine)
        case .attributedText(let id, let text, let options):
            return try placement.text(id: id, text, options: options, width: .maximum(width, Number(1e-3)), x: x, y: y, engine: engine)
        case .inset(let insets, let child):
            let inner = try child.place(x: x + Number(insets.left), y: y + Number(insets.top),
                                        width: .maximum(Number(0), width - Number(insets.horizontal)),
                                        height: proposed.map { .maximum(Number(0), $0 - Number(insets.vertical)) }, engine: engine,
                                        into: &placement)
            return (inner.width + Number(insets.horizontal), inner.height + Number(insets.vertical))
        case .background(let id, let fill, let child):
            let index = placement.mark
            placement.reserveBackground(id: id, fill: fill)
            let size = try child.place(x: x, y: y, width: width, height: proposed, engine: engine, into: &placement)
            placement.setFrame(x: x, y: y, width: width, height: size.height, at: index)
            return (width, size.height)
        case .stack(let stack):
            return try stack.place(x: x, y: y, width: width, height: proposed, engine: engine, into: &placement)
        case .mirrored(let child):
            let start = placement.mark
            let size = try child.place(x: x, y: y, width: width, height: proposed, engine: engine, into: &placement)
            placement.mirror(start..<placement.mark, minX: x, maxX: x + size.width)
            return size
        case .ratio(let ratio, let child):
            let size = (width: width, height: width * Number(ratio.isNaN ? 1 : min(100, max(0, ratio))))
            _ = try child.place(x: x, y: y, width: size.width, height: size.height, engine: engine, into: &placement)
            return size
        case .overlay(let overlay, let base):
            let size = try base.place(x: x, y: y, width: width, height: proposed, engine: engine, into: &placement)
            _ = try overlay.place(x: x, y: y, width: size.width, height: size.height, engine: engine, into: &placement)
            return size
        case .absolute(let absolute):
            for child in absolute.children {
                _ = try child.spec.place(x: x + Number(child.position.x), y: y + Number(child.position.y), width: Number(child.size.width),
                                         height: Number(child.size.height), engine: engine, into: &placement)
            }
            return (Number(absolute.resolvedSize.width), Number(absolute.resolvedSize.height))
        case .grid(let grid):
            let columns = max(1, grid.columns)
            let rows = (max(0, grid.count) + columns - 1) / columns
            // A box's width and height: as wide as the columns allow, both within the
            // largest side, in the grid's aspect ratio.
            let largest = Number.maximum(Number(0), .minimum(width * Number(grid.maxSideFraction),
                                                             (width - Number(grid.spacing * Double(columns - 1))) / Number(Double(columns))))
            let ratio = grid.clampedAspectRatio
            let (boxWidth, boxHeight) = ratio >= 1 ? (largest, largest / Number(ratio)) : (largest * Number(ratio), largest)
            for i in 0..<(placement.placesBoxes ? max(0, grid.count) : 0) {
                placement.box(id: "\(grid.idPrefix)\(i)", x: x + Number(Double(i % columns)) * (boxWidth + Number(grid.spacing)),
                              y: y + Number(Double(i / columns)) * (boxHeight + Number(grid.spacing)), width: boxWidth, height: boxHeight,
                              fill: grid.fill, stroke: grid.stroke, picture: i < grid.pictures.count ? grid.pictures[i] : nil)
            }
            let height = rows == 0 ? Number(0) : Number(Double(rows)) * boxHeight + Number(Double(rows - 1) * grid.spacing)
            return (width, height)
        }
    }
}

extension StackSpec {
    /// Places the stack (see `LayoutSpec.place`): a vertical stack proposes no height to its
    /// children, a horizontal one proposes its own to each.
    fileprivate func place<Placement: SpecPlacement>(
        x: Placement.Number, y: Placement.Number, width: Placement.Number, height proposed: Placement.Number?,
        engine: TextEngine, into placement: inout Placement
    ) throws(LayoutError) -> (width: Placement.Number, height: Placement.Number) {
        typealias Number = Placement.Number
        let gaps = spacing * Double(max(0, children.count - 1))
        // Children's element ranges and sizes, for cross-axis alignment (none when nothing
        // is placed: measuring).
        var placed: [(range: Range<Int>, size: (width: Number, height: Number))] = []
        switch axis {
        case .vertical:
            var cursor = y, height = Number(0)
            for child in children {
                let start = placement.mark
                let size = try child.place(x: x, y: cursor, width: width, engine: engine, into: &placement)
                if placement.mark > start { placed.append((start..<placement.mark, size)) }
                height = height + size.height
                cursor = cursor + (size.height + Number(spacing))
            }
            // Cross-axis alignment of children narrower than the stack.
            for (range, size) in placed {
                let dx = alignment == .center ? (width - size.width) / Number(2) : alignment == .end ? width - size.width : Number(0)
                placement.align(range, dx: dx, dy: Number(0))
            }
            return (width, height + Number(children.isEmpty ? 0 : gaps))
        case .horizontal:
            var fixedTotal = 0.0, flexible = 0
            for child in children {
                if let fixed = child.fixedWidth { fixedTotal += fixed } else { flexible += 1 }
            }
            let share = flexible > 0 ? Number.maximum(Number(0), (width - Number(fixedTotal) - Number(gaps)) / Number(Double(flexible))) : Number(0)
            var cursor = x, height = Number(0)
            for child in children {
                let start = placement.mark
                let size = try child.place(x: cursor, y: y, width: child.fixedWidth.map(Number.init) ?? share, height: proposed,
                                           engine: engine, into: &placement)
                if placement.mark > start { placed.append((start..<placement.mark, size)) }
                height = .maximum(height, size.height)
                cursor = cursor + (size.width + Number(spacing))
            }
            for (range, size) in placed {
                let dy = alignment == .center ? (height - size.height) / Number(2) : alignment == .end ? height - size.height : Number(0)
                placement.align(range, dx: Number(0), dy: dy)
            }
            return (width, height)
        }
    }
}
