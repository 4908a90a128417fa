import TextKitLite

/// A feed cell measured, not laid out: its height and each text block's lines, exactly as
/// the post's `CellLayout` at the same width gives them, for a fraction of the cost (no
/// frames, lines or glyph positions). What `textrender measure` writes.
public struct CellMeasurement: Sendable, Hashable, Codable {
    public var postID: String
    /// Cell width and height in points.
    public var width: Double
    public var height: Double
    /// Each text block's measurement, in cell order ("author", "body", "quote", "footer").
    public var texts: [MeasuredText]

    public init(postID: String, width: Double, height: Double, texts: [MeasuredText]) {
        self.postID = postID
        self.width = width
        self.height = height
        self.texts = texts
    }

    /// The measurement of a text block by id.
    public func text(_ id: String) -> TextMeasurement? { texts.first { $0.id == id }?.measurement }

    /// True when the body (or the quote) was cut at its maximum line count.
    public var isTruncated: Bool { texts.contains { $0.measurement.isTruncated } }
}
