import Foundation
@testable import SampleFeed
import Testing
@testable import TextKitLite
@testable import TextKitLiteFeed

/// Measurement lines and layouts.jsonl lines, which `JSONLines.append` writes directly,
/// equal `JSONEncoder`'s, byte for byte.
@Suite struct JSONLinesTests {
    /// The plain path: `JSONEncoder` as `JSONLines` sets it up, and the line's newline.
    static func appendThroughEncoder(_ value: some Encodable, to bytes: inout [UInt8]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        bytes += try encoder.encode(value)
        bytes.append(0x0A)
    }

    /// Random records: string ids over every control character, quotes, backslashes,
    /// slashes and non-ASCII text, integer ids at the 64-bit limits, numbers of every
    /// magnitude (integral, tiny, huge, negative zero), one width and several.
    @Test func measurementLinesEqualJSONEncoders() throws {
        var generator = SystemRandomNumberGenerator()
        let characters: [Character] = (0..<0x20).map { Character(Unicode.Scalar($0)!) } + ["\"", "\\", "/", "a", "é", "中", "😀", "\u{2028}", "\u{7F}"]
        let numbers: [Double] = [0, -0.0, 1, 200, 320, 768, 153.3359375, 73.84800000000001, 1e15 - 1, 1e15, 1e15 + 1, 4503599627370496, 1e16,
                                 1.2345678901234568e17, 1e-5, .leastNonzeroMagnitude, 2.5e20, -320]
        func number() -> Double {
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: numbers.randomElement(using: &generator)!
            case 1: Double(Int.random(in: -2_000_000...2_000_000, using: &generator))  // whole numbers: widths
            default: Double.random(in: -1e6...1e6, using: &generator) * [1, 1e-9, 1e12].randomElement()!
            }
        }
        for k in 0..<4000 {
            let id = k % 3 == 0
                ? JSONID(String([Int64.min, Int64.max, 0, Int64(k)].randomElement(using: &generator)!), isInteger: true)
                : JSONID(String((0..<Int.random(in: 0...12, using: &generator)).map { _ in characters.randomElement(using: &generator)! }), isInteger: false)
            let layouts = (0..<[1, 1, 2, 4].randomElement(using: &generator)!).map { _ in
                FeedMeasurer.Record.Layout(width: number(), height: number(), lines: Int.random(in: 0...1000, using: &generator),
                                           lineStarts: (0..<Int.random(in: 0...5, using: &generator)).map { _ in Int.random(in: 0...Int.max, using: &generator) },
                                           truncated: Bool.random(using: &generator))
            }
            let record = FeedMeasurer.Record(id: id, layouts: layouts)
            var direct: [UInt8] = [], encoded: [UInt8] = []
            try JSONLines.append(record, to: &direct)
            try Self.appendThroughEncoder(record, to: &encoded)
            #expect(direct == encoded, "\(String(decoding: direct, as: UTF8.self)) vs \(String(decoding: encoded, as: UTF8.self))")
        }
    }

    /// Integers written digit by digit (line counts and starts) read as `JSONEncoder` writes
    /// them, at every magnitude and sign.
    @Test func integersAreWrittenAsDecimal() throws {
        var generator = SystemRandomNumberGenerator()
        let values = [0, 1, 9, 10, 99, 100, -1, -10, Int.max, Int.min, Int.min + 1]
            + (0..<2000).map { _ in Int.random(in: .min ... .max, using: &generator) >> Int.random(in: 0...63, using: &generator) }
        for value in values {
            let record = FeedMeasurer.Record(id: JSONID("p", isInteger: false), layouts: [
                FeedMeasurer.Record.Layout(width: 375, height: 20, lines: value, lineStarts: [value, 0, value], truncated: false),
            ])
            var direct: [UInt8] = [], encoded: [UInt8] = []
            try JSONLines.append(record, to: &direct)
            try Self.appendThroughEncoder(record, to: &encoded)
            #expect(direct == encoded, "\(value)")
        }
    }

    /// The cells of generated posts (highlights, truncated bodies, quotes, image grids,
    /// right-to-left cells, integer and string ids), at two scales, some with the whole cell.
    @Test func cellRecordsEqualJSONEncoders() throws {
        let precomputer = FeedPrecomputer(engine: TextEngine(fonts: Fixtures.engine.fonts))
        var highlights = 0
        for index in 0..<600 {
            var post = SampleFeed.post(index)
            post.idIsInteger = index % 2 == 0
            if index % 2 == 0 { post.id = String(index) }
            let cell = try precomputer.layout(post, width: [375, 320, 414][index % 3], scale: index % 5 == 0 ? 3 : 2)
            let name = FeedPost.fileName(forID: post.id)
            let record = CellRecord(cell, id: post.jsonID, file: name, full: index % 10 == 0)
            highlights += record.elements.reduce(0) { $0 + ($1.highlights?.count ?? 0) }
            try Self.expectDirectEqualsEncoder(record)
        }
        #expect(highlights > 100)
    }

    /// Records with odd strings everywhere a string goes, odd numbers everywhere a number
    /// goes, and every optional field present or not.
    @Test func oddCellRecordsEqualJSONEncoders() throws {
        var generator = SystemRandomNumberGenerator()
        let characters: [Character] = (0..<0x20).map { Character(Unicode.Scalar($0)!) } + ["\"", "\\", "/", "a", "é", "中", "😀", "\u{2028}", "\u{7F}"]
        func text() -> String { String((0..<Int.random(in: 0...8, using: &generator)).map { _ in characters.randomElement(using: &generator)! }) }
        let numbers: [Double] = [0, -0.0, 1, 153.3359375, 73.84800000000001, 1e16, 1e-5, .leastNonzeroMagnitude, 2.5e20, -12.5]
        func rect() -> Rect { Rect(x: numbers.randomElement()!, y: numbers.randomElement()!, width: numbers.randomElement()!, height: numbers.randomElement()!) }
        for _ in 0..<2000 {
            let isText = Bool.random(using: &generator)
            let elements = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                CellRecord.Element(id: text(), kind: text(), frame: rect(), lines: isText ? Int.random(in: 0...9) : nil,
                                   truncated: isText ? Bool.random() : nil,
                                   highlights: isText ? (0..<Int.random(in: 0...2)).map { _ in
                                       HighlightReport(kind: text(), value: text(), range: [Int.random(in: 0...99), Int.random(in: 100...999)],
                                                       rects: (0..<Int.random(in: 0...2)).map { _ in rect() },
                                                       truncationToken: Bool.random() ? true : nil)
                                   } : nil, src: !isText && Bool.random() ? text() : nil)
            }
            let id = Bool.random() ? JSONID(String(Int64.random(in: .min ... .max)), isInteger: true) : JSONID(text(), isInteger: false)
            let file = FeedPost.fileName(forID: text(), extension: "png")
            try Self.expectDirectEqualsEncoder(CellRecord(id: id, height: numbers.randomElement()!, elements: elements,
                                                          truncated: Bool.random(), file: file))
        }
    }

    /// The direct line equals `JSONEncoder`'s.
    static func expectDirectEqualsEncoder(_ record: CellRecord) throws {
        var direct: [UInt8] = Array("x\n".utf8), encoded: [UInt8] = Array("x\n".utf8)
        try JSONLines.append(record, to: &direct)
        try appendThroughEncoder(record, to: &encoded)
        #expect(direct == encoded, "\(String(decoding: direct, as: UTF8.self)) vs \(String(decoding: encoded, as: UTF8.self))")
    }
}
