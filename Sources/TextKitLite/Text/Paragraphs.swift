/// A paragraph of text: content up to a hard break, and the break itself.
struct ParagraphRange: Sendable, Hashable {
    /// The paragraph's characters, without its terminator.
    var content: Range<Int>
    /// End of the terminator (== `content.upperBound` for the last paragraph without one).
    var end: Int
}

enum Paragraphs {
    /// Splits text at mandatory breaks (UAX #14 classes BK, CR, LF, NL): LF, VT, FF, CR,
    /// CR LF (one break), NEL, U+2028 and U+2029. Text after the last terminator forms a
    /// paragraph only when it is not empty, so "abc\n" is one paragraph, as in CoreText.
    static func split(_ text: [UInt16]) -> [ParagraphRange] {
        var result: [ParagraphRange] = []
        var start = 0
        var i = 0
        while i < text.count {
            let unit = text[i]
            switch unit {
            case 0x0A, 0x0B, 0x0C, 0x85, 0x2028, 0x2029, 0x0D:
                var end = i + 1
                if unit == 0x0D, end < text.count, text[end] == 0x0A { end += 1 }
                result.append(ParagraphRange(content: start..<i, end: end))
                start = end
                i = end
            default:
                i += 1
            }
        }
        if start < text.count { result.append(ParagraphRange(content: start..<text.count, end: text.count)) }
        return result
    }
}
