import Foundation
import TextKitLite

/// What `textrender measure` and the HTTP service answer for one post: the cell's (or the
/// text's) height, the body's line count and line starts in Unicode scalars, and whether it
/// was truncated. One type, so every front end measures and encodes alike.
public struct FeedMeasurer: Sendable {
    /// What is measured: the whole feed cell, or the post's text alone at the full width.
    public enum Subject: String, Sendable, CaseIterable {
        case cell, text
    }

    /// One post's measurement, as one JSON line: `{"id", "height", "lines", "lineStarts",
    /// "truncated"}` at one width, `{"id", "layouts": [{"width", "height", ...}, ...]}` at
    /// several, in their order.
    public struct Record: Sendable, Equatable, Encodable {
        public var id: JSONID
        /// One per width, in the measurer's order.
        public var layouts: [Layout]

        /// The measurement at one width.
        public struct Layout: Sendable, Equatable, Encodable {
            public var width: Double
            public var height: Double
            /// The body's lines (of the text alone with `.text`).
            public var lines: Int
            /// Where each line starts, in Unicode scalars into the post's text.
            public var lineStarts: [Int]
            public var truncated: Bool
        }

        private enum CodingKeys: String, CodingKey { case id, layouts, height, lines, lineStarts, truncated }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            guard layouts.count == 1, let layout = layouts.first else {
                return try container.encode(layouts, forKey: .layouts)
            }
            try container.encode(layout.height, forKey: .height)
            try container.encode(layout.lines, forKey: .lines)
            try container.encode(layout.lineStarts, forKey: .lineStarts)
            try container.encode(layout.truncated, forKey: .truncated)
        }
    }

    public let precomputer: FeedPrecomputer
    public let subject: Subject
    /// The widths measured at, in output order (never empty).
    public let widths: [Double]
    private let maxLines: Int
    /// The style of a text alone (`.text`).
    public let textStyle: TextStyle

    /// A measurer of posts through a precomputer.
    ///
    /// - Parameters:
    ///   - precomputer: measures the posts (its engine, cell style, emoticons and caches).
    ///   - subject: the whole cell, or the post's text alone.
    ///   - widths: the cell widths (`.cell`) or the text widths (`.text`), in points, in
    ///     output order; at several, each post is itemized and shaped once for all.
    ///   - maxLines: lines of a text alone before truncation (0: all); a cell's body takes
    ///     its limit from the precomputer's style.
    ///   - textStyle: the style of a text alone (weight, slant, letter spacing, features,
    ///     and the language of posts that give none); nil for the cell style's body size and
    ///     nothing else. A cell's texts take their styles from the precomputer's style.
    /// - Precondition: `widths` is not empty.
    public init(precomputer: FeedPrecomputer, subject: Subject, widths: [Double], maxLines: Int = 0, textStyle: TextStyle? = nil) {
        precondition(!widths.isEmpty, "FeedMeasurer needs a width")
        self.precomputer = precomputer
        self.subject = subject
        self.widths = widths
        self.maxLines = maxLines
        self.textStyle = textStyle ?? TextStyle(size: precomputer.style.bodySize)
    }

    /// A measurer at one width (see `init(precomputer:subject:widths:maxLines:textStyle:)`).
    public init(precomputer: FeedPrecomputer, subject: Subject, width: Double, maxLines: Int = 0, textStyle: TextStyle? = nil) {
        self.init(precomputer: precomputer, subject: subject, widths: [width], maxLines: maxLines, textStyle: textStyle)
    }

    /// Measures one post at every width.
    ///
    /// - Throws: what the layout throws for it (`LayoutError`).
    public func measure(_ post: FeedPost) throws -> Record {
        let measured: [(body: TextMeasurement?, height: Double, truncated: Bool)]
        switch subject {
        case .cell:
            measured = try precomputer.measure(post, widths: widths).map { ($0.text("body"), $0.height, $0.isTruncated) }
        case .text:
            var style = textStyle
            style.language = post.language ?? textStyle.language
            let text = precomputer.emoticons.attributed(AttributedText(post.text, style: style))
            let options = LayoutOptions(width: widths[0], maxLines: maxLines, lineSpacing: precomputer.style.lineSpacing)
            measured = try precomputer.engine.measure(text, options: options, widths: widths).map { ($0, $0.height, $0.isTruncated) }
        }
        let scalarOffsets = ScalarOffsets(post.text)  // once for every width's line starts
        return Record(id: post.jsonID, layouts: zip(widths, measured).map { width, measured in
            Record.Layout(width: width, height: measured.height, lines: measured.body?.lineCount ?? 0,
                          lineStarts: scalarOffsets.of(measured.body?.lineStarts ?? []),
                          truncated: measured.truncated)
        })
    }

    /// Measures one record of a JSON Lines feed: its post's measurement, or why the line is
    /// bad (the parser's reason, or the layout's for a post it refuses), with its number.
    public func measure(_ record: FeedRecord) -> Result<Record, FeedLineError> {
        record.result.flatMap { post in
            Result { try measure(post) }.mapError { FeedLineError(line: record.line, reason: "\($0)") }
        }
    }
}

/// The JSON Lines encoding of every output: sorted keys (stable, diffable), slashes as
/// they are, one value per line.
public enum JSONLines {
    /// Appends `value` as one JSON line (with its final newline) to `bytes`.
    public static func append(_ value: some Encodable, to bytes: inout [UInt8]) throws {
        bytes += try encoder.encode(value)
        bytes.append(0x0A)
    }

    /// Appends a measurement as one JSON line, byte for byte as `append(_:to:)` writes it
    /// through `JSONEncoder` (sorted keys, numbers and escapes as it writes them), written
    /// directly: encoding took more time than measuring at several widths.
    public static func append(_ record: FeedMeasurer.Record, to bytes: inout [UInt8]) {
        func key(_ name: StaticString) { Self.key(name, to: &bytes) }
        func measurement(_ layout: FeedMeasurer.Record.Layout, width: Bool) {
            key("height")
            number(layout.height, to: &bytes)
            bytes.append(0x2C)
            if !width {
                key("id")
                id(record.id, to: &bytes)
                bytes.append(0x2C)
            }
            key("lineStarts")
            integers(layout.lineStarts, to: &bytes)
            bytes.append(0x2C)
            key("lines")
            integer(layout.lines, to: &bytes)
            bytes.append(0x2C)
            key("truncated")
            boolean(layout.truncated, to: &bytes)
            if width {
                bytes.append(0x2C)
                key("width")
                number(layout.width, to: &bytes)
            }
        }
        bytes.append(0x7B)
        if record.layouts.count == 1 {
            measurement(record.layouts[0], width: false)
        } else {
            key("id")
            id(record.id, to: &bytes)
            bytes.append(0x2C)
            key("layouts")
            bytes.append(0x5B)
            for (k, layout) in record.layouts.enumerated() {
                if k > 0 { bytes.append(0x2C) }
                bytes.append(0x7B)
                measurement(layout, width: true)
                bytes.append(0x7D)
            }
            bytes.append(0x5D)
        }
        bytes.append(contentsOf: [0x7D, 0x0A])
    }

    /// An object key and its colon: `"name":`.
    static func key(_ name: StaticString, to bytes: inout [UInt8]) {
        bytes.append(0x22)
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(0x22)
        bytes.append(0x3A)
    }

    /// A number as `JSONEncoder` writes it: the shortest form that reads back the same,
    /// without a ".0" ending. (A finite one: `JSONEncoder` refuses the others.)
    static func number(_ value: Double, to bytes: inout [UInt8]) {
        // A whole number below 1e15 (a width) is written as its description less ".0".
        if value.sign == .plus, value < 1e15, value.rounded(.towardZero) == value { return integer(Int(value), to: &bytes) }
        var text = value.description
        text.withUTF8 { utf8 in
            let wholeDigits = utf8.count > 2 && utf8[utf8.count - 2] == UInt8(ascii: ".") && utf8[utf8.count - 1] == UInt8(ascii: "0")
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[..<(utf8.count - (wholeDigits ? 2 : 0))]))
        }
    }

    static func boolean(_ value: Bool, to bytes: inout [UInt8]) {
        let text: StaticString = value ? "true" : "false"
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// An array of integers: `[0,17,34]`.
    static func integers(_ values: [Int], to bytes: inout [UInt8]) {
        bytes.append(0x5B)
        for k in values.indices {
            if k > 0 { bytes.append(0x2C) }
            integer(values[k], to: &bytes)
        }
        bytes.append(0x5D)
    }

    /// An integer in decimal, its digits written in place (no string made per number: a
    /// measure line is mostly line starts).
    static func integer(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(0x2D) }
        if value >= 0, value < 10 { return bytes.append(0x30 + UInt8(value)) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in  // 20: UInt64.max
            var magnitude = value.magnitude
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = 0x30 + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: digits[start...])
        }
    }

    static func id(_ id: JSONID, to bytes: inout [UInt8]) {
        guard !id.isInteger else { return bytes.append(contentsOf: id.text.utf8) }
        string(id.text, to: &bytes)
    }

    /// A string as `JSONEncoder` writes it without escaping slashes: quotes, backslashes and
    /// control characters escaped (`\n`, `\u001f`), everything else as its UTF-8 bytes.
    static func string(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(0x22)
        for byte in text.utf8 {
            switch byte {
            case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
            case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
            case 0x08: bytes.append(contentsOf: [0x5C, 0x62])
            case 0x0C: bytes.append(contentsOf: [0x5C, 0x66])
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(0x22)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
