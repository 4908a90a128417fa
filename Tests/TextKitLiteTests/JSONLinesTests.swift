import Foundation
import Testing
@testable import TextKitLiteFeed

/// Measurement lines written directly equal `JSONEncoder`'s, byte for byte.
@Suite struct JSONLinesTests {
    /// The generic `JSONLines.append`, through `JSONEncoder`.
    static func appendThroughEncoder(_ value: some Encodable, to bytes: inout [UInt8]) throws {
        try JSONLines.append(value, to: &bytes)
    }

    /// Random records: string ids over every control character, quotes, backslashes,
    /// slashes and non-ASCII text, integer ids at the 64-bit limits, numbers of every
    /// magnitude (integral, tiny, huge, negative zero), one width and several.
    @Test func measurementLinesEqualJSONEncoders() throws {
        var generator = SystemRandomNumberGenerator()
        let characters: [Character] = (0..<0x20).map { Character(Unicode.Scalar($0)!) } + ["\"", "\\", "/", "a", "é", "中", "😀", "\u{2028}", "\u{7F}"]
        let numbers: [Double] = [0, -0.0, 1, 200, 153.3359375, 73.84800000000001, 1e15, 1e16, 1.2345678901234568e17, 1e-5, .leastNonzeroMagnitude, 2.5e20]
        func number() -> Double {
            Bool.random(using: &generator) ? numbers.randomElement(using: &generator)! : Double.random(in: -1e6...1e6, using: &generator) * [1, 1e-9, 1e12].randomElement()!
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
            JSONLines.append(record, to: &direct)
            try Self.appendThroughEncoder(record, to: &encoded)
            #expect(direct == encoded, "\(String(decoding: direct, as: UTF8.self)) vs \(String(decoding: encoded, as: UTF8.self))")
        }
    }
}
