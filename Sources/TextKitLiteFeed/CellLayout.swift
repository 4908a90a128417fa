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

/// A highlight of one of a cell's text elements, its rects in cell coordinates.
public struct CellHighlight: Sendable, Hashable {
    /// The id of the text element that shows it ("body", "quote", …).
    public var elementID: String
    public var highlight: LayoutHighlight
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
