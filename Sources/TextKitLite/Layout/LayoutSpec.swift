/// A declarative layout tree in the spirit of Texture's ASStackLayoutSpec and
/// ASInsetLayoutSpec: stacks, insets, fixed-size boxes, backgrounds and text blocks.
/// Solving it at a width gives every element's frame and the total height.
public indirect enum LayoutSpec: Sendable {
    /// A fixed-size box (an avatar, an image placeholder) drawn with a gray fill.
    case box(id: String, size: Size, fill: UInt8)
    /// A text block as wide as the space its parent gives it, as tall as its lines.
    case text(id: String, text: ShapedText, options: LayoutOptions)
    /// Children side by side (horizontal) or one under another (vertical).
    case stack(StackSpec)
    /// The child, inset by the given amounts.
    case inset(EdgeInsets, LayoutSpec)
    /// A filled box exactly behind its child (a quote box).
    case background(id: String, fill: UInt8, LayoutSpec)
    /// Square boxes in rows of `columns` filling the width (an image grid); ids are
    /// `idPrefix` followed by the index.
    case grid(GridSpec)
}

/// A grid of equal square boxes.
public struct GridSpec: Sendable {
    public var idPrefix: String
    public var count: Int
    public var columns: Int
    public var spacing: Double
    public var fill: UInt8
    /// Largest side of a box, as a fraction of the width (a single image is not full width).
    public var maxSideFraction: Double

    public init(idPrefix: String, count: Int, columns: Int, spacing: Double, fill: UInt8, maxSideFraction: Double = 1) {
        self.idPrefix = idPrefix
        self.count = count
        self.columns = columns
        self.spacing = spacing
        self.fill = fill
        self.maxSideFraction = maxSideFraction
    }
}

/// A stack of children along one axis.
public struct StackSpec: Sendable {
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

/// One laid-out element of a cell: its frame in the cell, and for text its layout.
public struct CellElement: Sendable, Codable {
    public enum Kind: String, Sendable, Codable { case box, text }

    public var id: String
    public var kind: Kind
    /// Frame in cell coordinates (points).
    public var frame: Rect
    /// Gray level of a box.
    public var fill: UInt8?
    /// The text layout of a text element; its size equals the frame's.
    public var text: TextLayout?
}

extension LayoutSpec {
    /// Solves the spec at a width: frames for every element, in drawing order.
    ///
    /// Horizontal stacks give their fixed-size children their own width and share the
    /// rest equally among text children.
    ///
    /// - Throws: `LayoutError` from a text block's layout.
    public func solve(width: Double, engine: TextEngine) throws(LayoutError) -> (size: Size, elements: [CellElement]) {
        var elements: [CellElement] = []
        // One allocation, no regrowth (a hint: clamped, so a huge grid does not allocate up front).
        elements.reserveCapacity(min(max(0, elementCount), 1024))
        let size = try place(x: 0, y: 0, width: width, engine: engine, into: &elements)
        return (size, elements)
    }

    /// Number of elements `place` makes (wrapping: a capacity hint, never trapping).
    private var elementCount: Int {
        switch self {
        case .box, .text: 1
        case .inset(_, let child): child.elementCount
        case .background(_, _, let child): 1 &+ child.elementCount
        case .stack(let stack): stack.children.reduce(0) { $0 &+ $1.elementCount }
        case .grid(let grid): max(0, grid.count)
        }
    }

    /// The fixed width of a child in a horizontal stack, nil for flexible (text) children.
    fileprivate var fixedWidth: Double? {
        switch self {
        case .box(_, let size, _): size.width
        case .text: nil
        case .inset(let insets, let child): child.fixedWidth.map { $0 + insets.horizontal }
        case .background(_, _, let child): child.fixedWidth
        case .grid: nil
        case .stack(let stack):
            stack.axis == .vertical
                ? stack.children.compactMap(\.fixedWidth).max()
                : stack.children.allSatisfy { $0.fixedWidth != nil }
                    ? stack.children.reduce(0) { $0 + $1.fixedWidth! } + stack.spacing * Double(max(0, stack.children.count - 1))
                    : nil
        }
    }

    fileprivate func place(x: Double, y: Double, width: Double, engine: TextEngine,
                       into elements: inout [CellElement]) throws(LayoutError) -> Size {
        switch self {
        case .box(let id, let size, let fill):
            elements.append(CellElement(id: id, kind: .box, frame: Rect(x: x, y: y, width: size.width, height: size.height), fill: fill))
            return size
        case .text(let id, let text, var options):
            options.width = max(width, 1e-3)
            let layout = try engine.layout(text, options: options)
            elements.append(CellElement(id: id, kind: .text, frame: Rect(x: x, y: y, width: layout.size.width, height: layout.size.height), text: layout))
            return layout.size
        case .inset(let insets, let child):
            let inner = try child.place(x: x + insets.left, y: y + insets.top, width: max(0, width - insets.horizontal),
                                        engine: engine, into: &elements)
            return Size(width: inner.width + insets.horizontal, height: inner.height + insets.vertical)
        case .background(let id, let fill, let child):
            let index = elements.count
            elements.append(CellElement(id: id, kind: .box, frame: .zero, fill: fill))
            let size = try child.place(x: x, y: y, width: width, engine: engine, into: &elements)
            elements[index].frame = Rect(x: x, y: y, width: width, height: size.height)
            return Size(width: width, height: size.height)
        case .stack(let stack):
            return try stack.place(x: x, y: y, width: width, engine: engine, into: &elements)
        case .grid(let grid):
            let columns = max(1, grid.columns)
            let rows = (max(0, grid.count) + columns - 1) / columns
            let side = max(0, min(width * grid.maxSideFraction, (width - grid.spacing * Double(columns - 1)) / Double(columns)))
            for i in 0..<max(0, grid.count) {
                let frame = Rect(x: x + Double(i % columns) * (side + grid.spacing), y: y + Double(i / columns) * (side + grid.spacing),
                                 width: side, height: side)
                elements.append(CellElement(id: "\(grid.idPrefix)\(i)", kind: .box, frame: frame, fill: grid.fill))
            }
            let height = rows == 0 ? 0 : Double(rows) * side + Double(rows - 1) * grid.spacing
            return Size(width: width, height: height)
        }
    }
}

extension StackSpec {
    fileprivate func place(x: Double, y: Double, width: Double, engine: TextEngine,
                           into elements: inout [CellElement]) throws(LayoutError) -> Size {
        let gaps = spacing * Double(max(0, children.count - 1))
        var placed: [(range: Range<Int>, size: Size)] = []
        placed.reserveCapacity(children.count)
        switch axis {
        case .vertical:
            var cursor = y
            for child in children {
                let start = elements.count
                let size = try child.place(x: x, y: cursor, width: width, engine: engine, into: &elements)
                placed.append((start..<elements.count, size))
                cursor += size.height + spacing
            }
            // Cross-axis alignment of children narrower than the stack.
            for (range, size) in placed {
                let dx = alignment == .center ? (width - size.width) / 2 : alignment == .end ? width - size.width : 0
                if dx > 0 { for i in range { elements[i].frame = elements[i].frame.offsetBy(dx: dx, dy: 0) } }
            }
            let height = placed.reduce(0) { $0 + $1.size.height } + (placed.isEmpty ? 0 : gaps)
            return Size(width: width, height: height)
        case .horizontal:
            var fixedTotal = 0.0, flexible = 0
            for child in children {
                if let fixed = child.fixedWidth { fixedTotal += fixed } else { flexible += 1 }
            }
            let share = flexible > 0 ? max(0, (width - fixedTotal - gaps) / Double(flexible)) : 0
            var cursor = x
            for child in children {
                let start = elements.count
                let size = try child.place(x: cursor, y: y, width: child.fixedWidth ?? share, engine: engine, into: &elements)
                placed.append((start..<elements.count, size))
                cursor += size.width + spacing
            }
            let height = placed.map(\.size.height).max() ?? 0
            for (range, size) in placed {
                let dy = alignment == .center ? (height - size.height) / 2 : alignment == .end ? height - size.height : 0
                if dy > 0 { for i in range { elements[i].frame = elements[i].frame.offsetBy(dx: 0, dy: dy) } }
            }
            return Size(width: width, height: height)
        }
    }
}
