import TextKitLite

/// A highlight as `render --json`, `render --hit` and `feed`'s layouts.jsonl give it: kind,
/// value, range in Unicode scalars (of the text, or of the truncation token's text when
/// `truncationToken` is set, as for attachments), rects in points.
struct HighlightReport: Encodable {
    var kind: String
    var value: String
    var range: [Int]
    var rects: [Rect]
    var truncationToken: Bool?

    /// Reports of highlights of a layout (from `layout.highlights`, their rects moved or not).
    static func reports(_ highlights: [LayoutHighlight], in layout: TextLayout) -> [HighlightReport] {
        let token = layout.options.truncationToken ?? AttributedText("")
        // Scalar offsets of each text's highlights, in one pass over it (they are ascending).
        func scalarRanges(of text: AttributedText, _ selected: [LayoutHighlight]) -> [[Int]] {
            let bounds = text.scalarOffsets(utf16Offsets: selected.flatMap { [$0.highlight.range.lowerBound, $0.highlight.range.upperBound] })
            return selected.indices.map { [bounds[2 * $0], bounds[2 * $0 + 1]] }
        }
        var textRanges = scalarRanges(of: layout.text, highlights.filter { !$0.isInTruncationToken })[...]
        var tokenRanges = scalarRanges(of: token, highlights.filter(\.isInTruncationToken))[...]
        return highlights.map { highlight in
            let range = highlight.isInTruncationToken ? tokenRanges.removeFirst() : textRanges.removeFirst()
            return HighlightReport(kind: highlight.highlight.kind.rawValue, value: highlight.highlight.value, range: range,
                                   rects: highlight.rects, truncationToken: highlight.isInTruncationToken ? true : nil)
        }
    }
}

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
