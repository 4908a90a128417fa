import TextKitLite

/// A feed cell laid out ahead of time: a frame for every element and the cell's height.
/// A Sendable, Codable value: a server can precompute it and a client draw it without
/// shaping (`CellRenderer`).
public struct CellLayout: Sendable, Codable {
    public var postID: String
    /// Cell width and height in points.
    public var width: Double
    public var height: Double
    /// Elements in drawing order (backgrounds before what they hold).
    public var elements: [CellElement]

    public var size: Size { Size(width: width, height: height) }

    /// The element with an id ("avatar", "author", "body", "quoteBox", "quote", "image0", …, "footer").
    public func element(_ id: String) -> CellElement? { elements.first { $0.id == id } }

    /// Line count of each text element, by id.
    public var lineCounts: [String: Int] {
        Dictionary(uniqueKeysWithValues: elements.compactMap { e in e.text.map { (e.id, $0.lineCount) } })
    }

    /// True when the body (or the quote) was cut at its maximum line count.
    public var isTruncated: Bool { elements.contains { $0.text?.isTruncated == true } }
}

extension CellLayout {
    /// The layout of any spec at a width (an app's own cell): the spec solved
    /// (`LayoutSpec.solve`), the cell `width` wide and as tall as the spec. Draw it with
    /// `CellRenderer`, display it with `DisplayTask.cell`, hit test it with `element(at:)`
    /// and `highlight(at:margin:)`, encode it as any `CellLayout`.
    ///
    /// - Parameters:
    ///   - spec: the cell's layout tree.
    ///   - width: the cell's width in points, more than 0 and at most `LayoutOptions.maximumLength`.
    ///   - engine: lays out the spec's text blocks.
    ///   - id: what the cell stands for (`postID`).
    /// - Throws: `LayoutError.invalidOption` for an invalid width, or `LayoutError` from a
    ///   text block's layout.
    /// - Complexity: that of `LayoutSpec.solve`.
    public init(spec: LayoutSpec, width: Double, engine: TextEngine, id: String = "") throws(LayoutError) {
        if let reason = LayoutOptions.finiteWidthProblem(width) { throw .invalidOption(name: "width", value: "\(width)", reason: reason) }
        let (size, elements) = try spec.solve(width: width, engine: engine)
        self.init(postID: id, width: width, height: size.height, elements: elements)
    }
}

/// A highlight of one of a cell's text elements, its rects in cell coordinates.
public struct CellHighlight: Sendable, Hashable {
    /// The id of the text element that shows it ("body", "quote", …).
    public var elementID: String
    public var highlight: TextLayout.Highlight
}

extension CellLayout {
    /// The element at a point (cell coordinates): the last drawn whose frame holds it (the
    /// quote's text, not its box), or nil.
    public func element(at point: Point) -> CellElement? {
        elements.last { $0.frame.contains(point) }
    }

    /// The highlights of every text element, in drawing order, with rects in cell
    /// coordinates (see `TextLayout.highlights`).
    public var highlights: [CellHighlight] {
        elements.flatMap { element in
            (element.text?.highlights ?? []).map {
                CellHighlight(elementID: element.id, highlight: $0.offsetBy(dx: element.frame.x, dy: element.frame.y))
            }
        }
    }

    /// The highlight at a point (cell coordinates), or within `margin` points of one; the
    /// nearest wins, the first on a tie.
    public func highlight(at point: Point, margin: Double = 0) -> CellHighlight? {
        highlights.nearest(within: margin) { $0.highlight.distance(to: point) }
    }
}
