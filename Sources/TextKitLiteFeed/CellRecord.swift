import Foundation
import TextKitLite

/// What `textrender feed` records of a drawn cell, one line of its layouts.jsonl: `{"id",
/// "height", "elements": [{"id", "kind", "frame", "lines", "truncated", "highlights", "src"}],
/// "truncated", "file"}`, a text element's highlights with their rects in the cell's
/// coordinates. Encoded by `JSONLines.append(_:to:)`.
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
