import Foundation
import Testing
@testable import TextKitLite

@Suite struct LayoutTests {
    static let samples = [
        "The quick brown fox jumps over the lazy dog. Pack my box with five dozen liquor jugs.",
        "这是一个很长的中文句子，用来测试换行：标点符号、引号「如此」以及数字123和English混排。",
        "Emoji 🎉👍🏽 mixed with 中文 and العربية and עברית, plus a URL https://example.com/x/y/z.",
        "Supercalifragilisticexpialidocious antidisestablishmentarianism pneumonoultramicroscopic",
    ]

    @Test(arguments: samples)
    func linesNeverExceedTheWidth(text: String) throws {
        for width in stride(from: 30.0, through: 400, by: 23) {
            let layout = try Fixtures.layout(text, size: 17, LayoutOptions(width: width))
            for line in layout.lines {
                let graphemes = String(decoding: layout.text.utf16[line.range], as: UTF16.self)
                    .trimmingCharacters(in: .whitespaces).count
                if graphemes > 1 { #expect(line.frame.width <= width + 1e-9, "width \(width): \(line.frame.width)") }
            }
        }
    }

    @Test(arguments: samples)
    func relayoutAtTheMeasuredWidthGivesTheSameLines(text: String) throws {
        for width in [80.0, 150, 237.5, 375] {
            for insets in [EdgeInsets.zero, EdgeInsets(top: 3, left: 7.3, bottom: 2, right: 11.1)] {
                let first = try Fixtures.layout(text, size: 17, LayoutOptions(width: width, insets: insets))
                let again = try Fixtures.layout(text, size: 17, LayoutOptions(width: first.measuredWidth, insets: insets))
                #expect(again.lines.map(\.range) == first.lines.map(\.range), "width \(width)")
                #expect(again.measuredWidth == first.measuredWidth)
                #expect(again.size.height == first.size.height)
            }
        }
    }

    /// Layouts encoded by earlier versions, whose options had a `measureOnly` field, decode.
    @Test func optionsEncodedWithMeasureOnlyStillDecode() throws {
        let data = try JSONEncoder().encode(LayoutOptions(width: 100, maxLines: 2))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["measureOnly"] == nil)
        object["measureOnly"] = false
        let decoded = try JSONDecoder().decode(LayoutOptions.self, from: try JSONSerialization.data(withJSONObject: object))
        #expect(decoded == LayoutOptions(width: 100, maxLines: 2))
    }

    @Test func heightIsLinesPlusSpacingPlusInsets() throws {
        let insets = EdgeInsets(top: 5, left: 4, bottom: 7, right: 3)
        let layout = try Fixtures.layout(Self.samples[2], size: 17,
                                         LayoutOptions(width: 200, lineSpacing: 4.5, insets: insets))
        #expect(layout.lineCount > 2)
        let sum = layout.lines.reduce(0) { $0 + $1.frame.height }
        let expected = insets.top + sum + 4.5 * Double(layout.lineCount - 1) + insets.bottom
        #expect(abs(layout.size.height - expected) < 1e-9)
        #expect(layout.size.width == 200)
        #expect(layout.lines[0].frame.y == insets.top)
        for line in layout.lines {
            #expect(line.frame.x >= insets.left - 1e-9)
            #expect(line.frame.maxX <= 200 - insets.right + 1e-9)
            #expect(line.baseline > line.frame.y && line.baseline < line.frame.maxY)
        }
    }

    @Test func alignmentOffsets() throws {
        let text = "Short line\nA somewhat longer line here"
        let width = 300.0
        let left = try Fixtures.layout(text, size: 17, LayoutOptions(width: width, alignment: .left))
        let center = try Fixtures.layout(text, size: 17, LayoutOptions(width: width, alignment: .center))
        let right = try Fixtures.layout(text, size: 17, LayoutOptions(width: width, alignment: .right))
        for i in 0..<2 {
            let w = left.lines[i].frame.width
            #expect(left.lines[i].frame.x == 0)
            #expect(abs(center.lines[i].frame.x - (width - w) / 2) < 1e-9)
            #expect(abs(right.lines[i].frame.maxX - width) < 1e-9)
            #expect(center.lines[i].runs[0].x == center.lines[i].frame.x)
        }
    }

    @Test func justifyStretchesAllButTheLastLine() throws {
        let width = 200.0
        for text in [Self.samples[0], Self.samples[1]] {
            let layout = try Fixtures.layout(text, size: 17, LayoutOptions(width: width, alignment: .justify))
            #expect(layout.lineCount > 2)
            for line in layout.lines.dropLast() {
                #expect(abs(line.frame.width - width) < 1e-6)
                let lastRun = line.runs.last!
                // The last visible glyph ends at the right edge (spaces hang past it).
                #expect(lastRun.x + lastRun.width >= width - 1e-6)
            }
            let last = layout.lines.last!
            #expect(last.frame.x == 0 && last.frame.width < width)
        }
    }

    @Test func maxLinesTruncatesWithTheDefaultToken() throws {
        let layout = try Fixtures.layout(Self.samples[0], size: 17, LayoutOptions(width: 150, maxLines: 2))
        #expect(layout.lineCount == 2)
        #expect(layout.isTruncated)
        let last = layout.lines[1]
        #expect(last.isTruncated)
        let token = try #require(last.runs.last)
        #expect(token.isTruncationToken)
        #expect(last.frame.width <= 150)
        // The token follows the last kept character directly: no space, no comma before it.
        let kept = String(decoding: layout.text.utf16[last.range], as: UTF16.self)
        #expect(!kept.hasSuffix(" ") && !kept.hasSuffix(","))
        #expect(!(try Fixtures.layout("short", size: 17, LayoutOptions(width: 150, maxLines: 2))).isTruncated)
    }

    @Test func customTokenFitsAtTheEndOfTheLastLine() throws {
        var token = AttributedText("…全文", style: TextStyle(size: 17, ink: 80))
        token.setHighlights([AttributedText.Highlight(kind: .expand, value: "more", range: 0..<3)])
        for width in [120.0, 160, 210, 333] {
            let layout = try Fixtures.layout(Self.samples[1] + Self.samples[0], size: 17,
                                             LayoutOptions(width: width, maxLines: 3, truncationToken: token))
            #expect(layout.lineCount == 3)
            let last = layout.lines[2]
            #expect(last.frame.width <= width + 1e-9)
            let tokenRuns = last.runs.filter { $0.isTruncationToken }
            // One run: "…" takes the CJK font's full-width form in Chinese text, as "全文" does.
            #expect(tokenRuns.count == 1)
            #expect(tokenRuns.allSatisfy { $0.font == Fixtures.cjk })
            #expect(tokenRuns.allSatisfy { $0.style.ink == 80 })
            #expect(layout.highlights.map(\.highlight) == [AttributedText.Highlight(kind: .expand, value: "more", range: 0..<3)])
            let kept = String(decoding: layout.text.utf16[last.range], as: UTF16.self)
            let lastScalar = kept.unicodeScalars.last!
            #expect(!lastScalar.properties.isWhitespace)
            #expect(!"，。、,:;".unicodeScalars.contains(lastScalar))
        }
    }

    @Test func truncationNeverLeavesPunctuationBeforeTheToken() throws {
        // Whatever the width, the cut never leaves "," or " " right before "…".
        for width in stride(from: 60.0, through: 200, by: 3) {
            let layout = try Fixtures.layout("Hello, world, how are you, my friend?", size: 17,
                                             LayoutOptions(width: width, maxLines: 1))
            guard layout.isTruncated else { continue }
            let kept = String(decoding: layout.text.utf16[layout.lines[0].range], as: UTF16.self)
            #expect(!kept.hasSuffix(",") && !kept.hasSuffix(" "), "\(kept)")
            #expect(layout.lines[0].frame.width <= width + 1e-9)
        }
    }

    @Test func startAndMiddleTruncationOfASingleLine() throws {
        let text = "0123456789 abcdefghij ABCDEFGHIJ"
        let start = try Fixtures.layout(text, size: 17, LayoutOptions(width: 120, maxLines: 1, truncation: .start))
        #expect(start.isTruncated && start.lineCount == 1)
        #expect(start.lines[0].runs.first!.isTruncationToken)
        #expect(start.lines[0].range.upperBound == text.utf16.count)
        #expect(start.lines[0].frame.width <= 120)

        let middle = try Fixtures.layout(text, size: 17, LayoutOptions(width: 120, maxLines: 1, truncation: .middle))
        let runs = middle.lines[0].runs
        #expect(!runs.first!.isTruncationToken && !runs.last!.isTruncationToken)
        #expect(runs.contains { $0.isTruncationToken })
        #expect(middle.lines[0].frame.width <= 120)
        let shown = runs.flatMap { $0.isTruncationToken ? [] : $0.glyphs.map(\.cluster) }
        #expect(shown.contains(0) && shown.contains(Int32(text.utf16.count - 1)))
    }

    @Test func uniformLineHeightEvensMixedScripts() throws {
        let text = "Latin line then 中文 line then 😀 emoji line then plain"
        let natural = try Fixtures.layout(text, size: 17, LayoutOptions(width: 90))
        #expect(Set(natural.lines.map(\.frame.height)).count > 1)
        let uniform = try Fixtures.layout(text, size: 17, LayoutOptions(width: 90, lineHeightMode: .uniform))
        #expect(Set(uniform.lines.map(\.frame.height)).count == 1)
        let spacing = zip(uniform.lines, uniform.lines.dropFirst()).map { $1.baseline - $0.baseline }
        #expect(spacing.allSatisfy { abs($0 - spacing[0]) < 1e-9 })
        let fixed = try Fixtures.layout(text, size: 17, LayoutOptions(width: 90, lineHeightMode: .fixed(30)))
        #expect(fixed.lines.allSatisfy { $0.frame.height == 30 })
        #expect(abs(fixed.size.height - 30 * Double(fixed.lineCount)) < 1e-9)
    }

    @Test func lineHeightMultipleScalesLineBoxes() throws {
        let one = try Fixtures.layout("a\nb", size: 17, LayoutOptions(width: 100))
        let two = try Fixtures.layout("a\nb", size: 17, LayoutOptions(width: 100, lineHeightMultiple: 2))
        #expect(abs(two.size.height - 2 * one.size.height) < 1e-9)
    }

    @Test func invalidOptionsAreErrorsNamingTheValue() throws {
        for width in [0.0, -5, .nan] {
            #expect(throws: LayoutError.self) { try Fixtures.layout("x", size: 17, LayoutOptions(width: width)) }
        }
        #expect(throws: LayoutError.self) { try Fixtures.layout("x", size: 17, LayoutOptions(maxLines: -1)) }
        #expect(throws: LayoutError.self) { try Fixtures.layout("x", size: 0) }
        #expect(throws: LayoutError.self) { try Fixtures.layout("x", size: -3) }
        #expect(throws: LayoutError.self) { try Fixtures.layout("x", size: .infinity) }
        do {
            _ = try Fixtures.layout("x", size: 17, LayoutOptions(width: -5))
        } catch {
            #expect("\(error)".contains("width") && "\(error)".contains("-5"))
        }
        // Unbounded width is valid: one line per paragraph.
        #expect((try Fixtures.layout("a b c d e f", size: 17, LayoutOptions(width: .infinity))).lineCount == 1)
    }
}
