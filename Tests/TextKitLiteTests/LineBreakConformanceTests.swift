import Foundation
@testable import SampleFeed
import Testing
@testable import TextKitLite

/// Unicode's LineBreakTest.txt (15.0, Debian package unicode-data, the version ICU 72
/// implements) run through the break stage: ICU's root line-break rules.
@Suite struct LineBreakConformanceTests {
    static let path = "/usr/share/unicode/auxiliary/LineBreakTest.txt"

    struct Case {
        var line: Int
        var scalars: [UInt32]
        /// Break opportunities as UTF-16 offsets (after the start, with the end).
        var breaks: [Int]
    }

    /// The cases of a UAX #14 or UAX #29 test file ("÷ 0020 × 0308 ÷" lines).
    static func cases(path: String = path) throws -> [Case] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var result: [Case] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let data = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard data.contains("÷") else { continue }
            var scalars: [UInt32] = []
            var breaks: [Int] = []
            var offset = 0
            for token in data.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                switch token {
                case "÷": if offset > 0 { breaks.append(offset) }
                case "×": break
                default:
                    let scalar = UInt32(token, radix: 16)!
                    scalars.append(scalar)
                    offset += scalar > 0xFFFF ? 2 : 1
                }
            }
            result.append(Case(line: number + 1, scalars: scalars, breaks: breaks))
        }
        return result
    }

    static func utf16(_ scalars: [UInt32]) -> [UInt16] {
        scalars.flatMap { Array(String(Character(Unicode.Scalar($0)!)).utf16) }
    }

    /// Test cases (line numbers in LineBreakTest-15.0.0.txt) where ICU 72's root rules
    /// differ from the file: 7,632 of 7,654 pass. Every one is ICU's deliberate numeric
    /// tailoring (the LB25 regular expression of UAX #14 section 8.2, which ICU
    /// implements instead of the plain pair rules): ICU keeps a hyphen, comma or full stop
    /// together with a following digit or letter ("-#", "-§", ",0", "a.2", ".35"), where
    /// the test file allows a break (rule 999.0).
    static let knownDifferences: Set<Int> = [2265, 2267, 2421, 2423, 2425, 2427, 2429, 2431, 2873, 2875, 7477,
                                              7576, 7577, 7578, 7579, 7580, 7581, 7583, 7584, 7585, 7586, 7587]

    @Test func lineBreakTestPassesAtICUsLevel() throws {
        let cases = try Self.cases()
        #expect(cases.count == 7654)
        var failures: [Int] = []
        for testCase in cases {
            let units = Self.utf16(testCase.scalars)
            let breaks = units.withUnsafeBufferPointer { UnicodeProperties.lineBreaks($0, locale: "") }
            if breaks.map(Int.init) != testCase.breaks { failures.append(testCase.line) }
        }
        let passed = cases.count - failures.count
        print("LineBreakTest.txt: \(passed) of \(cases.count) pass with ICU \(UnicodeProperties.icuVersion); failing lines: \(failures)")
        #expect(Set(failures) == Self.knownDifferences)
    }

    /// `lineBreaks` shows ICU runs of letters (ASCII, Arabic, Hebrew) and of CJK text
    /// (ideographs, CJK commas, stops, exclamation and question marks) shortened to their
    /// ends: the same boundaries as ICU on the whole text, for random text that puts
    /// every line-break class next to such runs (brackets, quotes, numbers and their
    /// prefixes and postfixes, hyphens, dashes, spaces, no-break and zero-width characters,
    /// marks, joiners, emoji with modifiers, flags, kana, CJK punctuation, Hangul, Hebrew,
    /// Thai, surrogates, controls) in the root, Chinese, Japanese and Korean rules, and for
    /// every text of the sample feed and of LineBreakTest.txt.
    @Test func shortenedRunsBreakAsICUDoes() throws {
        let palette: [String] = [
            " ", "  ", "(", ")", "[", "]", "{", "}", "\"", "'", "\u{201C}", "\u{201D}", "\u{AB}", "\u{BB}", ".", ",", ":", ";",
            "!", "?", "/", "-", "\u{2010}", "\u{2014}", "\u{2013}", "$", "%", "\u{A5}", "#", "&", "*", "+", "=", "@", "_",
            "0", "12", "3.5", "\u{A0}", "\u{200B}", "\u{2060}", "\u{FEFF}", "\u{301}", "\u{308}", "\u{200D}", "\u{FE0F}",
            "\u{2026}", "\u{B4}", "\u{B7}", "\u{3005}", "\u{30FC}", "\u{3041}", "\u{3042}", "\u{30A2}", "\u{FF08}",
            "\u{FF09}", "\u{FF0C}", "\u{3002}", "\u{3001}", "\u{300C}", "\u{300D}", "\u{FF01}", "\u{FF1F}", "\u{FFE5}",
            "\u{3400}", "\u{20000}", "\u{F900}", "\u{D55C}", "\u{1100}", "\u{1161}", "\u{11A8}", "\u{5D0}", "\u{5BE}",
            "\u{627}", "\u{E01}", "\u{E32}", "\u{E9}", "\u{3B1}", "\u{416}", "\u{1F600}", "\u{1F466}", "\u{1F3FB}",
            "\u{261D}", "\u{1F1E8}", "\u{1F1F3}", "\u{2764}", "\u{FFFC}", "\u{E000}", "\u{85}", "\t", "\n", "\r",
            "\u{2028}", "\u{C}", "\u{1}", "\u{2E3A}", "\u{FF5E}", "\u{2027}", "\u{1F3F3}",
            "\u{64B}", "\u{670}", "\u{60C}", "\u{61F}", "\u{660}", "\u{6D4}", "\u{5B0}", "\u{5F3}", "\u{5F4}", "\u{200F}",
        ]
        // ASCII, Arabic and Hebrew letters (the first and last of each range too).
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf16)
            + [0x0621, 0x0627, 0x0644, 0x0645, 0x064A, 0x05D0, 0x05D4, 0x05D5, 0x05EA]
        let ideographs: [UInt16] = [0x4E00, 0x4E2D, 0x6587, 0x5B57, 0x7684, 0x662F, 0x9FA5, 0x9FFF, 0x5929]
        // CJK text as a run holds it: ideographs and the commas, stops, exclamation and
        // question marks between them (the punctuation first, last, doubled or alone too).
        let cjkText = ideographs + [0x3001, 0x3002, 0xFF0C, 0xFF0E, 0xFF01, 0xFF1F]
        var random = SampleFeed.SplitMix64(state: 29)
        var texts: [[UInt16]] = []
        for _ in 0..<20_000 {
            var units: [UInt16] = []
            for _ in 0..<(1 + random.below(10)) {
                switch random.below(5) {
                case 0: for _ in 0..<(1 + random.below(7)) { units.append(letters[random.below(letters.count)]) }
                case 1: for _ in 0..<(1 + random.below(7)) { units.append(ideographs[random.below(ideographs.count)]) }
                case 2: for _ in 0..<(1 + random.below(9)) { units.append(cjkText[random.below(cjkText.count)]) }
                default: units += palette[random.below(palette.count)].utf16
                }
            }
            if random.below(20) == 0 { units.append(random.below(2) == 0 ? 0xD800 : 0xDC00) }
            texts.append(units)
        }
        for post in SampleFeed.posts(count: 500, seed: 5) {
            for string in [post.author, post.text, post.quote ?? ""] { texts.append(Array(string.utf16)) }
        }
        texts += try Self.cases().map { Self.utf16($0.scalars) }
        var shortened = 0
        for units in texts {
            for locale in ["", "zh", "ja", "ko"] {
                let (breaks, icu) = units.withUnsafeBufferPointer {
                    (UnicodeProperties.lineBreaks($0, locale: locale), UnicodeProperties.icuLineBreaks($0, locale: locale))
                }
                #expect(breaks == icu, "\(locale): \(units.map { String($0, radix: 16) })")
            }
            if units.indices.contains(where: { i in i >= 2 && Self.sameRunKind(units[i - 2], units[i - 1], units[i]) }) { shortened += 1 }
        }
        #expect(shortened > 15_000)
    }

    /// Three units of a run `lineBreaks` shortens (ASCII, Arabic or Hebrew letters, or CJK
    /// text: ideographs and CJK commas, stops, exclamation and question marks).
    static func sameRunKind(_ a: UInt16, _ b: UInt16, _ c: UInt16) -> Bool {
        func kind(_ unit: UInt16) -> Int {
            switch unit {
            case 0x41...0x5A, 0x61...0x7A, 0x0621...0x064A, 0x05D0...0x05EA: 1
            case 0x4E00...0x9FFF, 0x3001, 0x3002, 0xFF0C, 0xFF0E, 0xFF01, 0xFF1F: 2
            default: 0
            }
        }
        return kind(a) != 0 && kind(a) == kind(b) && kind(b) == kind(c)
    }
}
