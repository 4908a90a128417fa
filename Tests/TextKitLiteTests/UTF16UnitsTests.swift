@testable import SampleFeed
import Testing
@testable import TextKitLite

/// The UTF-8 → UTF-16 transcoder behind `AttributedText`, and the UTF-16 → UTF-8 one behind
/// the highlighter's links, agree with the standard library.
@Suite struct UTF16UnitsTests {
    @Test func everyEncodedLengthAndEdge() {
        let samples = ["", "a", "héllo", "中文测试", "👩🏽‍💻 and 🇫🇷", "\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}",
                       "مرحبا بالعالم", "x\u{301}\u{0}y", String(repeating: "ab中😀", count: 300)]
        for string in samples {
            #expect(string.utf16Units == Array(string.utf16), "\(string.debugDescription)")
        }
    }

    @Test func randomScalars() {
        var random = SampleFeed.SplitMix64(state: 7)
        for _ in 0..<300 {
            var string = ""
            for _ in 0..<random.below(40) {
                // Mostly ASCII and BMP, some supplementary planes; surrogates are not scalars.
                let value = switch random.below(4) {
                case 0: random.below(0x80)
                case 1: 0x80 + random.below(0x800 - 0x80)
                case 2: 0x800 + random.below(0xD800 - 0x800)
                default: 0x10000 + random.below(0x110000 - 0x10000)
                }
                string.unicodeScalars.append(Unicode.Scalar(UInt32(value))!)
            }
            #expect(string.utf16Units == Array(string.utf16))
        }
    }

    /// Random code units, lone and paired surrogates included, at every length up to 24.
    @Test func stringFromUnitsDecodesAsTheStandardLibrary() {
        var random = SampleFeed.SplitMix64(state: 11)
        let edges: [UInt16] = [0, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFD, 0xFFFF]
        for length in 0..<25 {
            for _ in 0..<400 {
                let units = (0..<length).map { _ -> UInt16 in
                    switch random.below(5) {
                    case 0: UInt16(random.below(0x80))
                    case 1: edges[random.below(edges.count)]
                    case 2: UInt16(0xD800 + random.below(0x800))  // surrogates, paired or not
                    default: UInt16(random.below(0x10000))
                    }
                }
                units.withUnsafeBufferPointer { units in
                    #expect(String(utf16Units: units) == String(decoding: units, as: UTF16.self), "\(Array(units))")
                    #expect(Array(String(utf16Units: units).utf8) == Array(String(decoding: units, as: UTF16.self).utf8))
                }
            }
        }
    }
}
