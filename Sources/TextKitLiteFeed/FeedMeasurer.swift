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

    /// One post's measurement, as one JSON line.
    public struct Record: Sendable, Equatable, Encodable {
        public var id: JSONID
        public var height: Double
        public var lines: Int
        public var lineStarts: [Int]
        public var truncated: Bool
    }

    public let precomputer: FeedPrecomputer
    public let subject: Subject
    public let width: Double
    private let textOptions: LayoutOptions
    private let textStyle: TextStyle

    /// - Parameters:
    ///   - width: the cell width (`.cell`) or the text width (`.text`), in points.
    ///   - maxLines: lines of a text alone before truncation (0: all); a cell's body takes
    ///     its limit from the precomputer's style.
    public init(precomputer: FeedPrecomputer, subject: Subject, width: Double, maxLines: Int = 0) {
        self.precomputer = precomputer
        self.subject = subject
        self.width = width
        textOptions = LayoutOptions(width: width, maxLines: maxLines, lineSpacing: precomputer.style.lineSpacing)
        textStyle = TextStyle(size: precomputer.style.bodySize)
    }

    /// Measures one post.
    ///
    /// - Throws: what the layout throws for it (`LayoutError`).
    public func measure(_ post: FeedPost) throws -> Record {
        let measured: TextMeasurement?, height: Double, truncated: Bool
        switch subject {
        case .cell:
            let cell = try precomputer.measure(post, width: width)
            (measured, height, truncated) = (cell.text("body"), cell.height, cell.isTruncated)
        case .text:
            let text = try precomputer.engine.measure(precomputer.emoticons.attributed(AttributedText(post.text, style: textStyle)), options: textOptions)
            (measured, height, truncated) = (text, text.height, text.isTruncated)
        }
        return Record(id: post.jsonID, height: height, lines: measured?.lineCount ?? 0,
                      lineStarts: post.text.scalarOffsets(utf16Offsets: measured?.lineStarts ?? []),
                      truncated: truncated)
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

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
