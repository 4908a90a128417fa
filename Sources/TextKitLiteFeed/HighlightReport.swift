import TextKitLite

/// A highlight as `render --json`, `render --hit` and `feed`'s layouts.jsonl give it: kind,
/// value, range in Unicode scalars (of the text, or of the truncation token's text when
/// `truncationToken` is set, as for attachments), rects in points.
package struct HighlightReport: Sendable, Encodable {
    package var kind: String
    package var value: String
    package var range: [Int]
    package var rects: [Rect]
    package var truncationToken: Bool?

    /// Reports of highlights of a layout (from `layout.highlights`, their rects moved or not).
    package static func reports(_ highlights: [TextLayout.Highlight], in layout: TextLayout) -> [HighlightReport] {
        let token = layout.options.truncationToken ?? AttributedText("")
        // Scalar offsets of each text's highlights, in one pass over it (they are ascending).
        func scalarRanges(of text: AttributedText, _ selected: [TextLayout.Highlight]) -> [[Int]] {
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
