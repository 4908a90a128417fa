import Foundation
import TextKitLite

/// What `textrender feed` records of a drawn cell, one line of its layouts.jsonl: `{"id",
/// "height", "elements": [{"id", "kind", "frame", "lines", "truncated", "highlights", "src"}],
/// "truncated", "file"}`, a text element's highlights with their rects in the cell's
/// coordinates. Encoded by `JSONEncoder` (sorted keys) or, byte for byte the same, by
/// `JSONLines.append(_:to:)`.
package struct CellRecord: Sendable, Encodable {
    package var id: JSONID
    package var height: Double
    package var elements: [Element]
    package var truncated: Bool
    /// The cell image's file name.
    package var file: String
    /// The whole drawable cell (`CellLayout`'s Codable form: frames, glyph runs, fonts by
    /// name), for a client that draws it without shaping (`feed --layouts full`); nil for
    /// the summary alone.
    package var cell: CellLayout?

    /// One element of the cell; `lines`, `truncated` and `highlights` only for a text, `src`
    /// (the picture's source as the post gives it) only for a picture.
    package struct Element: Sendable, Encodable {
        package var id: String
        package var kind: String
        package var frame: Rect
        package var lines: Int?
        package var truncated: Bool?
        package var highlights: [HighlightReport]?
        package var src: String?
    }
}

extension CellRecord {
    /// The record of a cell, its image named `file`.
    package init(_ cell: CellLayout, id: JSONID, file: String, full: Bool = false) {
        self.init(id: id, height: cell.height, elements: cell.elements.map(Element.init), truncated: cell.isTruncated, file: file,
                  cell: full ? cell : nil)
    }

    /// How `CellLayout` is encoded inside a record, as `JSONEncoder` (sorted keys, slashes
    /// unescaped) writes it there.
    package static func encodedCell(_ cell: CellLayout) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A cell holds finite numbers only (its layouts are validated): encoding cannot fail.
        return (try? Array(encoder.encode(cell))) ?? Array("null".utf8)
    }
}

extension CellRecord.Element {
    /// The record of an element, its highlights' rects moved into the cell's coordinates.
    package init(_ element: CellElement) {
        self.init(id: element.id, kind: element.kind.rawValue, frame: element.frame, lines: element.text?.lineCount,
                  truncated: element.text?.isTruncated, highlights: element.text.map { text in
            HighlightReport.reports(text.highlights.map { $0.offsetBy(dx: element.frame.x, dy: element.frame.y) }, in: text)
        }, src: element.picture?.source)
    }
}

extension JSONLines {
    /// Appends a cell record as one JSON line, byte for byte as `append(_:to:)` writes it
    /// through `JSONEncoder` (sorted keys; numbers and escapes as it writes them), written
    /// directly: so that a worker can encode its cells' lines cheaply and the thread that
    /// orders the output only appends them.
    ///
    /// - Returns: where the file name (without its quotes) lies in `bytes`, so that another
    ///   name may take its place; a name of letters, digits, "-", "_", "." and "+" (every
    ///   image name `textrender feed` gives) is written as it is.
    @discardableResult
    package static func append(_ record: CellRecord, to bytes: inout [UInt8]) -> Range<Int> {
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
            bytes += CellRecord.encodedCell(cell)
            comma()
        }
        key("elements")
        list(record.elements, element)
        comma()
        key("file")
        let nameStart = bytes.count + 1
        string(record.file, to: &bytes)
        let name = nameStart..<(bytes.count - 1)
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
        return name
    }
}
