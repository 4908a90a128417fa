import Foundation
import Testing
@testable import TextKitLite

/// Start and middle truncation with several lines shown: start truncation shows the text's
/// last lines, the token starting the first of them; middle truncation shows the first
/// lines as they break and, on the last, its start, the token and its paragraph's end.
@Suite struct TruncationPositionTests {
    static let text = "The quick brown fox jumps over the lazy dog and keeps running through the forest until the very end of the story, file.txt"

    static func layout(_ string: String = text, lines: Int, _ truncation: TruncationMode, width: Double = 200,
                       direction: ParagraphDirection = .auto) throws -> (TextLayout, TextMeasurement) {
        let options = LayoutOptions(width: width, maxLines: lines, truncation: truncation, insets: EdgeInsets(all: 3), direction: direction)
        let text = AttributedText(string, style: TextStyle(size: 17))
        return (try Fixtures.engine.layout(text, options: options), try Fixtures.engine.measure(text, options: options))
    }

    /// The text a line's glyph runs show, in visual order, the token as "…".
    static func shown(_ layout: TextLayout, _ line: LayoutLine) -> String {
        line.runs.sorted { $0.x < $1.x }.map { run in
            run.isTruncationToken ? "…" : String(decoding: layout.text.utf16[run.range], as: UTF16.self)
        }.joined()
    }

    /// `text` truncated to `lines` lines (checked: truncated, that many lines, measured
    /// alike), and all its lines as they break.
    static func truncated(lines: Int, _ truncation: TruncationMode) throws -> (layout: TextLayout, greedy: TextLayout) {
        let (layout, measured) = try layout(lines: lines, truncation)
        #expect(layout.isTruncated && layout.lineCount == lines)
        #expect(measured == TextMeasurement(layout))
        return (layout, try Self.layout(lines: 0, .end).0)
    }

    @Test(arguments: [2, 3])
    func middleKeepsTheFirstLinesAndTheEnd(_ lines: Int) throws {
        let (layout, greedy) = try Self.truncated(lines: lines, .middle)
        // The lines before the last are the greedy ones.
        #expect(layout.lines.dropLast().map(\.range) == greedy.lines.prefix(lines - 1).map(\.range))
        let last = try #require(layout.lines.last)
        #expect(last.isTruncated && last.range == greedy.lines[lines - 1].range.lowerBound..<Self.text.utf16.count)
        let shown = Self.shown(layout, last)
        let head = String(decoding: layout.text.utf16[greedy.lines[lines - 1].range], as: UTF16.self)
        let parts = shown.split(separator: "…", omittingEmptySubsequences: false)
        #expect(parts.count == 2, "\(shown)")
        #expect(!parts[0].isEmpty && head.hasPrefix(parts[0]), "\(shown)")
        #expect(Self.text.hasSuffix(parts[1]) && parts[1].hasSuffix("file.txt"), "\(shown)")
        #expect(last.frame.width <= 200 - 6 + 1e-6)
        // The token hits where the text was cut: the end of the head.
        let token = try #require(last.runs.first { $0.isTruncationToken })
        let cut = layout.characterIndex(at: Point(x: token.x + token.width / 2, y: last.baseline - 2))
        #expect(cut == greedy.lines[lines - 1].range.lowerBound + parts[0].utf16.count)
    }

    @Test(arguments: [2, 3])
    func startShowsTheLastLinesAfterTheToken(_ lines: Int) throws {
        let (layout, greedy) = try Self.truncated(lines: lines, .start)
        // The lines after the first are the greedy breaking's last ones; the text's end is shown.
        #expect(layout.lines.dropFirst().map(\.range) == greedy.lines.suffix(lines - 1).map(\.range))
        #expect(layout.lines.last?.range.upperBound == Self.text.utf16.count)
        let first = layout.lines[0]
        let cutLine = greedy.lines[greedy.lineCount - lines]
        #expect(first.isTruncated && !layout.lines.dropFirst().contains(where: \.isTruncated))
        #expect(first.range.upperBound == cutLine.range.upperBound && first.range.lowerBound >= cutLine.range.lowerBound)
        let shown = Self.shown(layout, first)
        #expect(shown.hasPrefix("…") && shown.dropFirst() == Substring(String(decoding: layout.text.utf16[first.range], as: UTF16.self)))
        #expect(first.frame.width <= 200 - 6 + 1e-6)
        #expect(Fixtures.lineTexts(layout).joined().hasSuffix("end of the story, file.txt"))
        // The token hits where the text was cut: the first line's start.
        let token = try #require(first.runs.first { $0.isTruncationToken })
        #expect(token.x <= first.runs.filter { !$0.isTruncationToken }.map(\.x).min()!)
        #expect(layout.characterIndex(at: Point(x: token.x + token.width / 2, y: first.baseline - 2)) == first.range.lowerBound)
    }

    /// Middle truncation keeps the end of the last line's paragraph; later paragraphs are
    /// left out. A right-to-left text puts the token at its visual start.
    @Test func paragraphsAndDirections() throws {
        let (middle, measured) = try Self.layout(Self.text + "\nA second paragraph", lines: 2, .middle)
        #expect(middle.isTruncated && measured == TextMeasurement(middle))
        #expect(Self.shown(middle, middle.lines[1]).hasSuffix("file.txt"))
        let (start, startMeasured) = try Self.layout(Self.text + "\nA second paragraph", lines: 2, .start)
        #expect(startMeasured == TextMeasurement(start))
        #expect(Fixtures.lineTexts(start).last == "A second paragraph")
        let arabic = "مرحبا بالعالم، هذا نص عربي طويل بما يكفي ليلتف على عدة أسطر في هذا العرض الضيق جدا"
        for mode in [TruncationMode.start, .middle] {
            let (layout, measured) = try Self.layout(arabic, lines: 2, mode, width: 150)
            #expect(layout.isTruncated && measured == TextMeasurement(layout), "\(mode)")
            let line = mode == .start ? layout.lines[0] : layout.lines[1]
            #expect(line.isTruncated && line.frame.maxX <= 150 - 3 + 1e-6)
            if mode == .start {  // the token starts the line: rightmost in a right-to-left paragraph
                let token = try #require(line.runs.first { $0.isTruncationToken })
                #expect(token.x >= line.runs.filter { !$0.isTruncationToken }.map(\.x).max()!)
            }
        }
    }

    /// A text that fits the lines is not truncated and breaks as with end truncation.
    @Test(arguments: [TruncationMode.start, .middle])
    func textThatFitsIsUntouched(_ mode: TruncationMode) throws {
        let (layout, measured) = try Self.layout(lines: 8, mode)
        let (end, _) = try Self.layout(lines: 8, .end)
        #expect(!layout.isTruncated && measured == TextMeasurement(layout))
        #expect(layout.lines.map(\.range) == end.lines.map(\.range))
    }

    /// Truncated layouts decode and draw the same pixels.
    @Test(arguments: [TruncationMode.start, .middle, .end])
    func truncatedLayoutsRoundTrip(_ mode: TruncationMode) throws {
        let (layout, _) = try Self.layout(lines: 3, mode)
        let decoded = try JSONDecoder().decode(TextLayout.self, from: JSONEncoder().encode(layout))
        #expect(decoded.lines.map(\.range) == layout.lines.map(\.range))
        let drawn = try #require(try TextRenderer().render(layout, options: RenderOptions(scale: 2)).bitmap)
        #expect(try TextRenderer().render(decoded, options: RenderOptions(scale: 2)).bitmap == drawn)
    }
}
