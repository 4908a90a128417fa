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
