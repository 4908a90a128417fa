import TextKitLite
import TextKitLiteFeed

/// What `render --hit X,Y` prints: the character index (in Unicode scalars) nearest the
/// point, and the highlight there or null.
struct HitReport: Encodable {
    var index: Int
    var highlight: HighlightReport?

    init(_ layout: TextLayout, at point: Point) {
        index = layout.text.scalarOffset(utf16Offset: layout.characterIndex(at: point))
        highlight = layout.highlight(at: point).map { HighlightReport.reports([$0], in: layout)[0] }
    }

    private enum CodingKeys: String, CodingKey { case index, highlight }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(index, forKey: .index)
        try container.encode(highlight, forKey: .highlight)  // null when there is none
    }
}
