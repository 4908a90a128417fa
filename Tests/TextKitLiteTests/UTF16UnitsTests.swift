import Testing
@testable import TextKitLite

/// The UTF-8 → UTF-16 transcoder behind `AttributedText` agrees with the standard library.
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
}
