/// Marks @mentions, #topics# and URLs in post text as links (the `link` attribute, drawn
/// in the link ink), as the Weibo demo's text parser does.
enum FeedTextHighlighter {
    /// The attributed body of a post: `style` for plain text, `linkStyle` with the entity
    /// as its link target for each mention, topic and URL.
    static func attributed(_ text: String, style: TextStyle, linkStyle: TextStyle) -> AttributedText {
        // Every entity starts with "@" or "#" or holds "://": most texts have none.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: ":") }) else {
            return AttributedText(text, style: style)
        }
        let scalars = Array(text.unicodeScalars)
        var spans: [(range: Range<Int>, style: TextStyle)] = []
        var offset = 0  // UTF-16 offset of scalars[i]
        var i = 0
        while i < scalars.count {
            if let end = entityEnd(scalars, at: i) {
                let length = scalars[i..<end].reduce(0) { $0 + UTF16.width($1) }
                var link = linkStyle
                link.link = String(String.UnicodeScalarView(scalars[i..<end]))
                spans.append((offset..<(offset + length), link))
                offset += length
                i = end
            } else {
                offset += UTF16.width(scalars[i])
                i += 1
            }
        }
        return AttributedText(text, style: style, spans: spans)
    }

    /// End of a mention, topic or URL starting at `i`, or nil.
    private static func entityEnd(_ s: [Unicode.Scalar], at i: Int) -> Int? {
        switch s[i] {
        case "@":
            var j = i + 1
            while j < s.count, isNameCharacter(s[j]) { j += 1 }
            return j > i + 1 ? j : nil
        case "#":
            // A topic runs to the next "#" on the same line (Weibo style: #话题#).
            var j = i + 1
            while j < s.count, s[j] != "#", s[j] != "\n", j - i < 64 { j += 1 }
            return j < s.count && s[j] == "#" && j > i + 1 ? j + 1 : nil
        case "h":
            for prefix in ["https://", "http://"] where matches(s, at: i, prefix) {
                var j = i + prefix.unicodeScalars.count
                while j < s.count, !s[j].properties.isWhitespace, s[j].value < 0x3000 { j += 1 }
                // A URL does not end with sentence punctuation.
                while j > i, ".,;:!?)".unicodeScalars.contains(s[j - 1]) { j -= 1 }
                return j > i + prefix.unicodeScalars.count ? j : nil
            }
            return nil
        default:
            return nil
        }
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar == "-" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    private static func matches(_ s: [Unicode.Scalar], at i: Int, _ prefix: String) -> Bool {
        let p = Array(prefix.unicodeScalars)
        return i + p.count <= s.count && Array(s[i..<(i + p.count)]) == p
    }
}
