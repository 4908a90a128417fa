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
            #expect(units.withUnsafeBufferPointer { UnicodeProperties.graphemeBoundaries($0) } == expected, "\(text)")
        }
    }
}
