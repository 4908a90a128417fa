@testable import SampleFeed
import Testing
@testable import TextKitLite

/// UAX #29 grapheme cluster boundaries: Unicode's GraphemeBreakTest.txt (15.0, Debian
/// package unicode-data) through `UnicodeProperties.graphemeBoundaries`, and the proof of
/// its fast path (text whose every unit is its own cluster skips ICU).
@Suite struct GraphemeTests {
    static let path = "/usr/share/unicode/auxiliary/GraphemeBreakTest.txt"

    @Test func graphemeBreakTestPasses() throws {
        let cases = try LineBreakConformanceTests.cases(path: Self.path)
        #expect(cases.count == 602)  // GraphemeBreakTest-15.0.0.txt
        var failures: [Int] = []
        for testCase in cases {
            let units = LineBreakConformanceTests.utf16(testCase.scalars)
            let boundaries = units.withUnsafeBufferPointer { UnicodeProperties.graphemeBoundaries($0) }
            if boundaries.map(Int.init) != testCase.breaks { failures.append(testCase.line) }
        }
        #expect(failures.isEmpty, "GraphemeBreakTest.txt lines failing: \(failures)")
    }

    /// Every unit the fast path treats as a cluster of its own has Grapheme_Cluster_Break
    /// Other or Control in ICU, so UAX #29 breaks on both sides of it (GB4, GB5, GB999).
    @Test func graphemeFastPathUnitsAreOtherOrControl() {
        var checked = 0
        for unit in UInt16.min...UInt16.max where UnicodeProperties.isOwnGraphemeUnit(unit) {
            #expect(UTF16.isLeadSurrogate(unit) == false && UTF16.isTrailSurrogate(unit) == false)
            let property = UnicodeProperties.graphemeClusterBreak(UInt32(unit))
            #expect(property == 0 || property == 1, "U+\(String(unit, radix: 16)) has Grapheme_Cluster_Break \(property)")
            checked += 1
        }
        #expect(checked > 20_000)
    }

    @Test func fastPathAndICUAgreeOnMixedText() {
        // Latin, CJK and kana take the fast path; a combining mark, a voiced-sound mark,
        // an emoji ZWJ sequence or a Hangul jamo sends the text through ICU.
        let cases: [(String, [Int32])] = [
            ("Hello, 世界！", Array(1...10)),
            ("e\u{301}x", [2, 3]),
            ("か\u{3099}な", [2, 3]),
            ("a👩‍💻b", [1, 6, 7]),
            ("\u{1100}\u{1161}\u{11A8}z", [3, 4]),
            ("tab\there", Array(1...8)),
        ]
        for (text, expected) in cases {
            let units = Array(text.utf16)
            #expect(units.withUnsafeBufferPointer { Array(UnicodeProperties.graphemeBoundaries($0)) } == expected, "\(text)")
        }
    }

    /// Random text from a palette of what joins and what stands alone (marks, joiners,
    /// modifiers, flags, jamo, CR LF, lone surrogates, Arabic, Hebrew, emoji, CJK, Latin):
    /// the fast paths, and ICU on the spans around what joins, give exactly ICU's
    /// boundaries of the whole text. A third of the texts are long and mostly plain, with
    /// a few joining scalars (spans between plain text).
    @Test func fastPathsAgreeWithICUOnRandomText() {
        let palette: [[UInt16]] = [
            "a", "中", " ", "ب", "ש", "😀", "☕", "\u{301}", "\u{FE0F}", "\u{200D}", "\u{1F3FD}", "\u{1F1E8}",
            "\u{1100}", "\u{1161}", "\u{AC00}", "\r", "\n", "\t", "\u{600}", "\u{903}", "\u{64B}", "\u{5B4}", "©",
            "\u{203C}", "\u{1F1EF}",
        ].map { Array($0.utf16) } + [[0xD800], [0xDC00]]
        var random = SampleFeed.SplitMix64(state: 11)
        var viaFastPath = 0
        for _ in 0..<20_000 {
            var units: [UInt16] = []
            let kind = random.below(3)
            let mostlyPlain = kind == 0
            for _ in 0..<(kind == 2 ? 1 + random.below(48) : 1 + random.below(12)) {
                let plain = mostlyPlain || kind == 2 && random.below(8) != 0
                units += palette[plain ? random.below(6) : random.below(palette.count)]
            }
            let (fast, icu) = units.withUnsafeBufferPointer {
                (Array(UnicodeProperties.graphemeBoundaries($0)), UnicodeProperties.icuGraphemeBoundaries($0))
            }
            #expect(fast == icu, "\(units.map { String($0, radix: 16) })")
            if mostlyPlain { viaFastPath += 1 }
        }
        #expect(viaFastPath > 4_000)
    }

    /// A paragraph's boundaries moved to its text offset: every-unit boundaries without an
    /// array, listed ones from theirs, and the first boundary at or after any offset.
    @Test func boundariesOffsetToTheirParagraph() {
        let every = GraphemeBoundaries(everyUnitOf: 4).offset(by: 10)
        #expect(Array(every) == [11, 12, 13, 14])
        let listed = GraphemeBoundaries([2, 3, 7]).offset(by: 10)
        #expect(Array(listed) == [12, 13, 17])
        for boundaries in [every, listed] {
            for offset in Int32(0)...20 {
                #expect(boundaries.firstIndex(atOrAfter: offset) == (boundaries.firstIndex { $0 >= offset } ?? boundaries.count))
            }
        }
    }
}
