/// A paragraph of text: content up to a hard break, and the break itself.
struct ParagraphRange: Sendable, Hashable {
    /// The paragraph's characters, without its terminator.
    var content: Range<Int>
    /// End of the terminator (== `content.upperBound` for the last paragraph without one).
    var end: Int
    /// What itemizing needs to know about the content's units, found while splitting.
    var scan = UnicodeProperties.UnitScan()
}

enum Paragraphs {
    /// Splits text at mandatory breaks (UAX #14 classes BK, CR, LF, NL): LF, VT, FF, CR,
    /// CR LF (one break), NEL, U+2028 and U+2029. Text after the last terminator forms a
    /// paragraph only when it is not empty, so "abc\n" is one paragraph, as in CoreText.
    /// Each paragraph's units are scanned in the same pass.
    static func split(_ text: [UInt16]) -> [ParagraphRange] {
        text.withUnsafeBufferPointer { text in
            var result: [ParagraphRange] = []
            var start = 0
            var scan = UnicodeProperties.UnitScan()
            var i = 0
            while i < text.count {
                let unit = text[i]
                // Most units of most text: no terminator, nothing to scan.
                if UnicodeProperties.UnitScan.isPlain(unit) {
                    i += 1
                    continue
                }
                guard isTerminator(unit) else {
                    scan.add(unit)
                    i += 1
                    continue
                }
                var end = i + 1
                if unit == 0x0D, end < text.count, text[end] == 0x0A { end += 1 }
                result.append(ParagraphRange(content: start..<i, end: end, scan: scan))
                scan = UnicodeProperties.UnitScan()
                start = end
                i = end
            }
            if start < text.count { result.append(ParagraphRange(content: start..<text.count, end: text.count, scan: scan)) }
            return result
        }
    }

    /// LF, VT, FF, CR, NEL, U+2028 or U+2029; two comparisons for ASCII, three for CJK.
    @inline(__always)
    static func isTerminator(_ unit: UInt16) -> Bool {
        unit &- 0x0A < 4 || (unit >= 0x85 && unit <= 0x2029 && (unit == 0x85 || unit >= 0x2028))
    }
}

/// The base direction of paragraphs (UAX #9 rules P2–P3, or explicit).
public enum ParagraphDirection: String, Sendable, Hashable, Codable, CaseIterable {
    /// From the first strong character; left-to-right when there is none.
    case auto
    case leftToRight
    case rightToLeft
}

extension ParagraphDirection {
    /// The paragraph embedding level asked for, nil for auto.
    var level: UInt8? {
        switch self {
        case .auto: nil
        case .leftToRight: 0
        case .rightToLeft: 1
        }
    }

    /// This direction, or for `auto` the one rules P2–P3 give `text` taken as one
    /// paragraph (as HTML's `dir="auto"` does): its first strong character's,
    /// left-to-right when it has none. A feed cell's direction is its body's.
    public func resolved(for text: String) -> ParagraphDirection {
        self == .auto ? Self.ofFirstStrongCharacter(in: text.unicodeScalars) ?? .leftToRight : self
    }

    /// The direction of the first strong character (bidi class L, R or AL) outside isolates
    /// (rule P2; an isolate ends with its paragraph), nil when there is none.
    static func ofFirstStrongCharacter(in scalars: some Sequence<Unicode.Scalar>) -> ParagraphDirection? {
        var depth = 0
        for scalar in scalars {
            switch scalar.value {
            case 0x2066...0x2068: depth += 1
            case 0x2069: depth = max(0, depth - 1)
            case 0x0A...0x0D, 0x85, 0x2028, 0x2029: depth = 0  // a paragraph terminator (`Paragraphs.isTerminator`)
            default:
                guard depth == 0 else { continue }
                switch UnicodeProperties.bidiClass(scalar.value) {
                case 0: return .leftToRight
                case 1, 13: return .rightToLeft
                default: continue
                }
            }
        }
        return nil
    }
}
