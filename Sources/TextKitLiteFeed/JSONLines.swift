import Foundation
import TextKitLite

/// The JSON Lines encoding of every output: sorted keys (stable, diffable), slashes as
/// they are, one value per line.
public enum JSONLines {
    /// Appends `value` as one JSON line (with its final newline) to `bytes`, as `JSONEncoder`
    /// writes it with sorted keys and slashes unescaped.
    ///
    /// A measurement (`FeedMeasurer.Record`) and a layouts.jsonl record (`CellRecord`) are
    /// written directly, byte for byte as the encoder writes them (numbers and escapes as it
    /// writes them; they hold finite numbers only, so they never throw): through the encoder,
    /// a whole `textrender measure` process ran 29% more instructions over generated posts
    /// (15% over diverse ones), and a `textrender feed --scale 1 --gray` process 21% more.
    ///
    /// - Throws: what `JSONEncoder` throws (a number that is not finite).
    public static func append(_ value: some Encodable, to bytes: inout [UInt8]) throws {
        switch value {
        case let record as FeedMeasurer.Record: line(record, to: &bytes)
        case let record as CellRecord: line(record, to: &bytes)
        default:
            bytes += try encoder.encode(value)
            bytes.append(0x0A)
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A measurement's line, written directly: encoding took more time than measuring at
    /// several widths.
    private static func line(_ record: FeedMeasurer.Record, to bytes: inout [UInt8]) {
        func key(_ name: StaticString) { Self.key(name, to: &bytes) }
        // One layout gives its measured extent alone: the height, or a vertical text's width.
        func measurement(_ layout: FeedMeasurer.Record.Layout, width: Bool) {
            if width || !record.vertical {
                key("height")
                number(layout.height, to: &bytes)
                bytes.append(0x2C)
            }
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
            if width || record.vertical {
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

    /// A cell record's line, written directly: so that a worker can encode its cells' lines
    /// cheaply and the thread that orders the output only appends them. The whole cell
    /// (`--layouts full`) goes through the encoder.
    private static func line(_ record: CellRecord, to bytes: inout [UInt8]) {
        func key(_ name: StaticString) { Self.key(name, to: &bytes) }
        func comma() { bytes.append(0x2C) }
        func rect(_ rect: Rect) {
            bytes.append(0x7B)
            key("height")
            number(rect.height, to: &bytes)
            comma()
            key("width")
            number(rect.width, to: &bytes)
            comma()
            key("x")
            number(rect.x, to: &bytes)
            comma()
            key("y")
            number(rect.y, to: &bytes)
            bytes.append(0x7D)
        }
        func boolean(_ value: Bool) { Self.boolean(value, to: &bytes) }
        func list<Element>(_ elements: [Element], _ write: (Element) -> Void) {
            bytes.append(0x5B)
            for (k, element) in elements.enumerated() {
                if k > 0 { comma() }
                write(element)
            }
            bytes.append(0x5D)
        }
        func highlight(_ highlight: HighlightReport) {
            bytes.append(0x7B)
            key("kind")
            string(highlight.kind, to: &bytes)
            comma()
            key("range")
            integers(highlight.range, to: &bytes)
            comma()
            key("rects")
            list(highlight.rects, rect)
            comma()
            if let token = highlight.truncationToken {
                key("truncationToken")
                boolean(token)
                comma()
            }
            key("value")
            string(highlight.value, to: &bytes)
            bytes.append(0x7D)
        }
        func element(_ element: CellRecord.Element) {
            bytes.append(0x7B)
            key("frame")
            rect(element.frame)
            comma()
            if let highlights = element.highlights {
                key("highlights")
                list(highlights, highlight)
                comma()
            }
            key("id")
            string(element.id, to: &bytes)
            comma()
            key("kind")
            string(element.kind, to: &bytes)
            if let lines = element.lines {
                comma()
                key("lines")
                integer(lines, to: &bytes)
            }
            if let src = element.src {
                comma()
                key("src")
                string(src, to: &bytes)
            }
            if let truncated = element.truncated {
                comma()
                key("truncated")
                boolean(truncated)
            }
            bytes.append(0x7D)
        }
        bytes.append(0x7B)
        if let cell = record.cell {
            key("cell")
            // A cell holds finite numbers only (its layouts are validated): encoding cannot fail.
            bytes += (try? encoder.encode(cell)) ?? Data("null".utf8)
            comma()
        }
        key("elements")
        list(record.elements, element)
        comma()
        key("file")
        string(record.file, to: &bytes)
        comma()
        key("height")
        number(record.height, to: &bytes)
        comma()
        key("id")
        id(record.id, to: &bytes)
        comma()
        key("truncated")
        boolean(record.truncated)
        bytes.append(contentsOf: [0x7D, 0x0A])
    }

    /// An object key and its colon: `"name":`.
    private static func key(_ name: StaticString, to bytes: inout [UInt8]) {
        bytes.append(0x22)
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(0x22)
        bytes.append(0x3A)
    }

    /// A number as `JSONEncoder` writes it: the shortest form that reads back the same,
    /// without a ".0" ending. (A finite one: `JSONEncoder` refuses the others.)
    private static func number(_ value: Double, to bytes: inout [UInt8]) {
        // A whole number below 1e15 (a width) is written as its description less ".0".
        if value.sign == .plus, value < 1e15, value.rounded(.towardZero) == value { return integer(Int(value), to: &bytes) }
        var text = value.description
        text.withUTF8 { utf8 in
            let wholeDigits = utf8.count > 2 && utf8[utf8.count - 2] == UInt8(ascii: ".") && utf8[utf8.count - 1] == UInt8(ascii: "0")
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[..<(utf8.count - (wholeDigits ? 2 : 0))]))
        }
    }

    private static func boolean(_ value: Bool, to bytes: inout [UInt8]) {
        let text: StaticString = value ? "true" : "false"
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// An array of integers: `[0,17,34]`.
    private static func integers(_ values: [Int], to bytes: inout [UInt8]) {
        bytes.append(0x5B)
        for k in values.indices {
            if k > 0 { bytes.append(0x2C) }
            integer(values[k], to: &bytes)
        }
        bytes.append(0x5D)
    }

    /// An integer in decimal, its digits written in place (no string made per number: a
    /// measure line is mostly line starts).
    private static func integer(_ value: Int, to bytes: inout [UInt8]) {
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

    private static func id(_ id: JSONID, to bytes: inout [UInt8]) {
        guard !id.isInteger else { return bytes.append(contentsOf: id.text.utf8) }
        string(id.text, to: &bytes)
    }

    /// A string as `JSONEncoder` writes it without escaping slashes: quotes, backslashes and
    /// control characters escaped (`\n`, `\u001f`), everything else as its UTF-8 bytes.
    private static func string(_ text: String, to bytes: inout [UInt8]) {
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
}
