import Dispatch
import Testing
@testable import TextKitLite

/// `String.utf16Units` and `String(utf16Units:)` against the standard library's own
/// conversions, on every length of ASCII, two-, three- and four-byte scalars around the
/// eight-byte chunks, and on random mixes.
@Suite struct UTF16TranscodingTests {
    static let pieces = ["a", " ", "~", "é", "ß", "ع", "中", "。", "\u{FFFD}", "\u{FFFF}", "😀", "𠀀", "\u{10FFFF}", "\u{7F}", "\u{80}", "\u{7FF}", "\u{800}"]

    @Test func utf16UnitsAreTheUTF16View() {
        var random = SystemRandomNumberGenerator()
        var strings = [""]
        for piece in Self.pieces {
            for length in 0...20 { strings.append(String(repeating: "x", count: length) + piece + String(repeating: "y", count: 20 - length)) }
        }
        for _ in 0..<500 {
            strings.append((0..<Int.random(in: 0...40, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined())
        }
        for string in strings {
            #expect(string.utf16Units == Array(string.utf16), "\(string.unicodeScalars.map(\.value))")
            let units = Array(string.utf16)
            let back = units.withUnsafeBufferPointer { String(utf16Units: $0) }
            #expect(back == string && back.utf8.elementsEqual(string.utf8))
        }
    }

    /// `String.scalarOffsets(utf16Offsets:)` (with or without scalars beyond the BMP) against
    /// counting the scalars of each prefix through the standard library's views, offsets
    /// outside the string clamped.
    @Test func scalarOffsetsCountTheScalarsBefore() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let string = (0..<Int.random(in: 0...40, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            let count = string.utf16.count
            // Ascending offsets from before the start to past the end, at scalar boundaries.
            var offsets = [-3]
            var index = string.startIndex
            while index < string.endIndex {
                if Bool.random(using: &random) { offsets.append(string.utf16.distance(from: string.startIndex, to: index)) }
                index = string.unicodeScalars.index(after: index)
            }
            offsets += [count, count + 2]
            let expected = offsets.map { offset in
                string.unicodeScalars[..<string.utf16.index(string.startIndex, offsetBy: min(max(offset, 0), count))].count
            }
            #expect(string.scalarOffsets(utf16Offsets: offsets) == expected, "\(string.unicodeScalars.map(\.value)) \(offsets)")
            #expect(string.scalarOffsets(utf16Offsets: Array(offsets.dropFirst().dropLast())) == Array(expected.dropFirst().dropLast()))
        }
    }

    /// Many threads transcoding at once, empty strings among them (the empty array is shared
    /// storage: the sanitized suites run this under ThreadSanitizer).
    @Test func transcodingFromManyThreadsAtOnce() {
        let strings = ["", "a", "", "中文", "", "😀x", ""]
        DispatchQueue.concurrentPerform(iterations: 64) { k in
            for string in strings { precondition(string.utf16Units == Array(string.utf16), "\(k)") }
        }
    }

    @Test func loneSurrogatesBecomeReplacementCharacters() {
        let cases: [[UInt16]] = [[0xD800], [0xDC00], [0x61, 0xD83D], [0xDE00, 0x61], [0xD83D, 0xD83D, 0xDE00], [0xDBFF, 0xDFFF, 0xDC00], []]
        for units in cases {
            let ours = units.withUnsafeBufferPointer { String(utf16Units: $0) }
            let theirs = String(decoding: units, as: UTF16.self)
            #expect(Array(ours.utf8) == Array(theirs.utf8), "\(units)")
        }
    }
}
