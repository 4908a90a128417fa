import TextKitLite

/// Marks @mentions, #topics# and URLs in post text as links (the `link` attribute, drawn
/// in the link ink), as the Weibo demo's text parser does.
enum FeedTextHighlighter {
    /// The attributed body of a post: `style` for plain text, `linkStyle` with the entity
    /// as its link target for each mention, topic and URL.
    ///
    /// - Complexity: O(n) over the text's UTF-16 units, which the attributed text holds
    ///   anyway: every entity starts with an ASCII "@", "#" or "h", so no scalar is decoded
    ///   outside an entity.
    static func attributed(_ text: String, style: TextStyle, linkStyle: TextStyle) -> AttributedText {
        var result = AttributedText(text, style: style)
        let spans = result.utf16.withUnsafeBufferPointer { units in
            var spans: [(range: Range<Int>, style: TextStyle)] = []
            var i = 0
            while i < units.count {
                let unit = units[i]
                // Most "h"s start a word, not a URL: an "h" is looked at only before a "t".
                guard unit == 0x40 || unit == 0x23 || unit == 0x68 && i + 1 < units.count && units[i + 1] == 0x74,
                      let end = entityEnd(units, at: i) else {
                    i += 1
                    continue
                }
                var link = linkStyle
                link.link = String(decoding: UnsafeBufferPointer(rebasing: units[i..<end]), as: UTF16.self)
                spans.append((i..<end, link))
                i = end
            }
            return spans
        }
        result.setSpans(spans)
        return result
    }

    /// End (UTF-16 offset) of a mention, topic or URL starting at `i`, or nil.
    private static func entityEnd(_ units: UnsafeBufferPointer<UInt16>, at i: Int) -> Int? {
        switch units[i] {
        case 0x40:  // "@" and a name
            var j = i + 1
            while let (scalar, next) = scalar(units, at: j), isNameCharacter(scalar) { j = next }
            return j > i + 1 ? j : nil
        case 0x23:  // "#": a topic runs to the next "#" on the same line (Weibo style: #话题#)
            var j = i + 1, scalars = 1
            while let (scalar, next) = scalar(units, at: j), scalar != "#", scalar != "\n", scalars < 64 {
                j = next
                scalars += 1
            }
            return j < units.count && units[j] == 0x23 && j > i + 1 ? j + 1 : nil
        case 0x68:  // "h": http:// or https://
            // "http" first, then an "s" or not, then "://".
            guard matches(units, at: i, "http") else { return nil }
            var schemeEnd = i + 4
            if schemeEnd < units.count, units[schemeEnd] == 0x73 { schemeEnd += 1 }
            guard matches(units, at: schemeEnd, "://") else { return nil }
            let start = schemeEnd + 3
            var j = start
            while let (scalar, next) = scalar(units, at: j), scalar.value < 0x3000, !scalar.properties.isWhitespace {
                j = next
            }
            // A URL does not end with sentence punctuation (all ASCII).
            while j > i, let last = Unicode.Scalar(units[j - 1]), ".,;:!?)".unicodeScalars.contains(last) { j -= 1 }
            return j > start ? j : nil
        default:
            return nil
        }
    }

    /// The scalar at UTF-16 offset `i` and the offset after it; nil at the end. A lone
    /// surrogate reads as U+FFFD.
    private static func scalar(_ units: UnsafeBufferPointer<UInt16>, at i: Int) -> (Unicode.Scalar, Int)? {
        guard i < units.count else { return nil }
        let (value, next) = units.scalar(at: i, end: units.count)
        return (Unicode.Scalar(value) ?? "\u{FFFD}", next)
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F, 0x2D: true  // ASCII letters, digits, "_", "-"
        case 0x00...0x7F: false
        case 0x4E00...0x9FFF: true  // CJK ideographs: Alphabetic
        default: scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        }
    }

    /// The units at `i` are the ASCII string `prefix`.
    private static func matches(_ units: UnsafeBufferPointer<UInt16>, at i: Int, _ prefix: StaticString) -> Bool {
        prefix.withUTF8Buffer { bytes in
            i + bytes.count <= units.count && bytes.indices.allSatisfy { units[i + $0] == UInt16(bytes[$0]) }
        }
    }
}
