/// Punctuation rules of Chinese and Japanese text (CLREQ, JLREQ) that choose fonts and
/// glyph widths: which marks shared with Latin take a CJK font's full-width forms, and
/// which adjacent full-width marks are squeezed.
enum CJKPunctuation {
    /// A mark Latin text shares with Chinese and Japanese (“ ” ‘ ’ … · —): inside Chinese or
    /// Japanese text it takes the CJK font's full-width form, as CLREQ § 3.1 shows them,
    /// not a Latin font's narrow one. The raw value numbers the marks from 0.
    enum SharedMark: Int, CaseIterable {
        case leftSingleQuote, rightSingleQuote, leftDoubleQuote, rightDoubleQuote, ellipsis, middleDot, emDash

        /// The mark `scalar` is, nil for anything else.
        ///
        /// Inlined: the itemizer asks it of every possible mark of Chinese text, and a call
        /// there makes its whole loop over clusters spill more registers.
        @inline(__always)
        init?(_ scalar: UInt32) {
            switch scalar {
            case 0x2018: self = .leftSingleQuote
            case 0x2019: self = .rightSingleQuote
            case 0x201C: self = .leftDoubleQuote
            case 0x201D: self = .rightDoubleQuote
            case 0x2026: self = .ellipsis
            case 0x00B7: self = .middleDot
            case 0x2014: self = .emDash
            default: return nil
            }
        }

        var scalar: UInt32 {
            switch self {
            case .leftSingleQuote: 0x2018
            case .rightSingleQuote: 0x2019
            case .leftDoubleQuote: 0x201C
            case .rightDoubleQuote: 0x201D
            case .ellipsis: 0x2026
            case .middleDot: 0x00B7
            case .emDash: 0x2014
            }
        }
    }

    /// True when `scalar` may be a `SharedMark` or a mark of some `kind`: every one lies in
    /// U+00B7..<U+3020 or U+FF08...U+FF60, so ASCII, Han, kana and emoji are refused in two
    /// comparisons before the exact tests.
    @inline(__always)
    static func mayBeMark(_ scalar: UInt32) -> Bool {
        scalar &- 0xB7 < 0x3020 - 0xB7 || scalar &- 0xFF08 <= 0xFF60 - 0xFF08
    }

    /// Where a full-width mark's blank half lies.
    enum Kind {
        /// Blank on the left: 「 （ 《 “.
        case opening
        /// Blank on the right: 」 ） 》 ”, and the stops 、 。 ， ．.
        case closing
    }

    /// The kind of a full-width mark, nil for anything else (colons, question and
    /// exclamation marks are left alone: their glyphs sit centred in some locales).
    static func kind(_ unit: UInt32) -> Kind? {
        switch unit {
        case 0x2018, 0x201C, 0x3008, 0x300A, 0x300C, 0x300E, 0x3010, 0x3014, 0x3016, 0x3018, 0x301A, 0x301D,
             0xFF08, 0xFF3B, 0xFF5B, 0xFF5F:
            return .opening
        case 0x2019, 0x201D, 0x3001, 0x3002, 0x3009, 0x300B, 0x300D, 0x300F, 0x3011, 0x3015, 0x3017, 0x3019,
             0x301B, 0x301E, 0x301F, 0xFF09, 0xFF0C, 0xFF0E, 0xFF3D, 0xFF5D, 0xFF60:
            return .closing
        default:
            return nil
        }
    }

    /// Which of two adjacent full-width marks loses its blank half, so that one half-em
    /// stays between them instead of a full em (CLREQ § 3.1.6, JLREQ 3.1.4): the first
    /// when its blank is on the right (“）《” → the parenthesis), else the second when its
    /// blank is on the left (“（《” → the angle bracket); none for “（）”.
    static func squeezed(_ first: Kind, _ second: Kind) -> SqueezedMark? {
        switch (first, second) {
        case (.closing, _): .first
        case (.opening, .opening): .second
        case (.opening, .closing): nil
        }
    }

    enum SqueezedMark { case first, second }

    /// The OpenType feature that gives a full-width mark its half-width form and position
    /// ("Alternate Half Widths").
    static let halfWidth = FontFeature(tag: "halt")!
}
