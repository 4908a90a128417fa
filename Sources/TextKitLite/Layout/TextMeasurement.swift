/// What measuring a text gives: everything a layout says about its size and lines but the
/// lines themselves. Equal, to the bit, to what `TextLayout` gives for the same text and
/// options (`init(_:)`), and far cheaper to make (`TextEngine.measure`).
public struct TextMeasurement: Sendable, Hashable, Codable {
    /// Height of the layout box, in points (the layout's `size.height`): its extent across
    /// its lines, so a vertical layout's width (`size.width`).
    public var height: Double
    /// UTF-16 offset where each shown line starts (`TextLayout.lines[i].range.lowerBound`).
    public var lineStarts: [Int]
    /// The text needed more lines than shown.
    public var isTruncated: Bool

    public var lineCount: Int { lineStarts.count }

    public init(height: Double, lineStarts: [Int], isTruncated: Bool) {
        self.height = height
        self.lineStarts = lineStarts
        self.isTruncated = isTruncated
    }

    /// The measurement of a layout.
    public init(_ layout: TextLayout) {
        self.init(height: layout.lineSize.height, lineStarts: layout.lines.map(\.range.lowerBound), isTruncated: layout.isTruncated)
    }
}
