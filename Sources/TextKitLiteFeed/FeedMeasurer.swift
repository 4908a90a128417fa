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
    /// several, in their order. A vertical text's is its width for a height: `{"id",
    /// "width", ...}` at one height.
    public struct Record: Sendable, Equatable, Encodable {
        public var id: JSONID
        /// One per width, in the measurer's order.
        public var layouts: [Layout]
        /// A vertical text's: the lengths measured at are heights, and what was measured is
        /// the width.
        public var vertical = false

        /// The measurement at one width (or, of a vertical text, one height).
        public struct Layout: Sendable, Equatable, Encodable {
            /// The width measured at (a vertical text's measured width).
            public var width: Double
            /// The measured height (the height a vertical text was measured at).
            public var height: Double
            /// The body's lines (of the text alone with `.text`).
            public var lines: Int
            /// Where each line starts, in Unicode scalars into the post's text.
            public var lineStarts: [Int]
            public var truncated: Bool
        }

        private enum CodingKeys: String, CodingKey { case id, layouts, height, lines, lineStarts, truncated, width }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            guard layouts.count == 1, let layout = layouts.first else {
                return try container.encode(layouts, forKey: .layouts)
            }
            if vertical {
                try container.encode(layout.width, forKey: .width)
            } else {
                try container.encode(layout.height, forKey: .height)
            }
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
    /// Balanced lines for a text alone (`.text`; `LayoutOptions.lineBalance`).
    public var lineBalance = false
    /// Shapes the lines of a text alone (`.text`) flow around (`LayoutOptions.exclusions`).
    public var exclusions: [ExclusionShape] = []
    /// The writing mode of a text alone (`.text`): vertical texts are measured at heights
    /// (the `widths` given are the column lengths), for their widths.
    public var writingMode: LayoutOptions.WritingMode = .horizontal

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
            var options = LayoutOptions(width: widths[0], maxLines: maxLines, lineSpacing: precomputer.style.lineSpacing, exclusions: exclusions,
                                        hyphenation: precomputer.style.hyphenation)
            if lineBalance { options.lineBalance = true }
            options.writingMode = writingMode
            measured = try precomputer.engine.measure(text, options: options, widths: widths).map { ($0, $0.height, $0.isTruncated) }
        }
        let scalarOffsets = ScalarOffsets(post.text)  // once for every width's line starts
        let vertical = subject == .text && writingMode == .vertical
        return Record(id: post.jsonID, layouts: zip(widths, measured).map { length, measured in
            // A vertical text's lines run down: its extent across them is its width.
            Record.Layout(width: vertical ? measured.height : length, height: vertical ? length : measured.height,
                          lines: measured.body?.lineCount ?? 0, lineStarts: scalarOffsets.of(measured.body?.lineStarts ?? []),
                          truncated: measured.truncated)
        }, vertical: vertical)
    }

    /// Measures one record of a JSON Lines feed: its post's measurement, or why the line is
    /// bad (the parser's reason, or the layout's for a post it refuses), with its number.
    public func measure(_ record: FeedRecord) -> Result<Record, FeedLineError> {
        record.result.flatMap { post in
            Result { try measure(post) }.mapError { FeedLineError(line: record.line, reason: "\($0)") }
        }
    }
}
