import Testing
@testable import TextKitLite

@Suite struct LineBreakingTests {
    /// Lines' ranges are contiguous, in order, and cover the whole text exactly once.
    func expectEveryCharacterInOneLine(_ layout: TextLayout, sourceLocation: SourceLocation = #_sourceLocation) {
        var next = 0
        for line in layout.lines {
            #expect(line.range.lowerBound == next, sourceLocation: sourceLocation)
            next = line.range.upperBound
        }
        #expect(next == layout.text.utf16Count, sourceLocation: sourceLocation)
    }

    @Test func greedyFillBreaksAtSpacesAndSpacesHang() throws {
        let layout = try Fixtures.layout("The quick brown fox jumps over the lazy dog", size: 17, LayoutOptions(width: 120))
        let texts = Fixtures.lineTexts(layout)
        #expect(texts.count > 2)
        // Every line but the last ends with its (hanging) space; none starts with one.
        for text in texts.dropLast() { #expect(text.hasSuffix(" ")) }
        for text in texts { #expect(!text.hasPrefix(" ")) }
        for line in layout.lines {
            #expect(line.frame.width <= 120)
            if line.range.upperBound < layout.text.utf16Count { #expect(line.hangingWidth > 0) }
        }
        expectEveryCharacterInOneLine(layout)
    }

    @Test func trailingSpacesDoNotCountInWidth() throws {
        // "aaa " fits exactly when the trailing space hangs.
        let word = try Fixtures.layout("aaa", size: 17).measuredWidth
        let layout = try Fixtures.layout("aaa aaa", size: 17, LayoutOptions(width: word))
        #expect(Fixtures.lineTexts(layout) == ["aaa ", "aaa"])
        #expect(layout.lines[0].frame.width == word)
    }

    @Test func mandatoryBreaks() throws {
        let text = "one\ntwo\r\nthree\u{2028}four\u{2029}five\rsix"
        let layout = try Fixtures.layout(text, size: 17, LayoutOptions(width: 1000))
        #expect(Fixtures.lineTexts(layout) == ["one\n", "two\r\n", "three\u{2028}", "four\u{2029}", "five\r", "six"])
        #expect(layout.lines.allSatisfy { $0.isParagraphEnd })
        expectEveryCharacterInOneLine(layout)
    }

    @Test func emptyParagraphsKeepTheirLines() throws {
        let layout = try Fixtures.layout("a\n\nb\n", size: 17, LayoutOptions(width: 1000))
        #expect(Fixtures.lineTexts(layout) == ["a\n", "\n", "b\n"])
        #expect(layout.lines[1].frame.height > 0)
        expectEveryCharacterInOneLine(layout)
        #expect((try Fixtures.layout("")).lineCount == 0)
    }

    @Test func chinesePunctuationNeverStartsALine() throws {
        let text = "这是一个测试，我们看看标点符号。会不会出现在行首！当然不会？「引号」也是"
        for width in stride(from: 40.0, through: 200, by: 7) {
            let layout = try Fixtures.layout(text, size: 17, LayoutOptions(width: width))
            for line in Fixtures.lineTexts(layout) {
                let first = line.unicodeScalars.first!
                #expect(!"，。！？」、：；".unicodeScalars.contains(first), "line starts with \(first) at width \(width)")
                let last = line.unicodeScalars.last!
                #expect(last != "「", "line ends with an opening bracket at width \(width)")
            }
            expectEveryCharacterInOneLine(layout)
        }
    }

    @Test func chineseBreaksBetweenIdeographs() throws {
        let layout = try Fixtures.layout("一二三四五六七八九十", size: 20, LayoutOptions(width: 61))
        // Noto Sans SC ideographs are 1 em: three per 61-point line.
        #expect(Fixtures.lineTexts(layout) == ["一二三", "四五六", "七八九", "十"])
    }

    @Test func longURLBreaksAtItsOpportunities() throws {
        let url = "https://example.com/path/to/a/very/long/resource?query"
        let layout = try Fixtures.layout("See \(url) now", size: 17, LayoutOptions(width: 150))
        let texts = Fixtures.lineTexts(layout)
        #expect(texts.count >= 3)
        // UAX #14 breaks after "/" and "?" inside the URL, not in the middle of a word.
        for text in texts.dropFirst().dropLast() {
            #expect(text.hasSuffix("/") || text.hasSuffix("?") || text.hasSuffix(" "), "\(text)")
        }
        for line in layout.lines { #expect(line.frame.width <= 150) }
        expectEveryCharacterInOneLine(layout)
    }

    @Test func longWordBreaksAtGraphemeBoundaries() throws {
        let word = String(repeating: "abcdefghij", count: 10) + "e\u{301}" + "👍🏽"
        let layout = try Fixtures.layout(word, size: 17, LayoutOptions(width: 100))
        #expect(layout.lineCount > 5)
        for line in layout.lines { #expect(line.frame.width <= 100) }
        // No line splits the combining sequence or the emoji with its skin tone.
        for text in Fixtures.lineTexts(layout) {
            #expect(!text.unicodeScalars.first!.properties.isGraphemeExtend)
            #expect(text.unicodeScalars.first != "\u{1F3FD}")
        }
        expectEveryCharacterInOneLine(layout)
    }

    @Test func singleGraphemeWiderThanTheLineStillGetsALine() throws {
        let layout = try Fixtures.layout("W中😀", size: 40, LayoutOptions(width: 10))
        #expect(Fixtures.lineTexts(layout) == ["W", "中", "😀"])
        for line in layout.lines { #expect(line.frame.width > 10) }
    }

    @Test func arabicWrapsWordsInRightToLeftOrder() throws {
        let text = "مرحبا بالعالم هذا نص عربي طويل يلتف على عدة أسطر"
        let layout = try Fixtures.layout(text, size: 17, LayoutOptions(width: 120))
        #expect(layout.lineCount > 1)
        for line in layout.lines {
            #expect(line.frame.width <= 120)
            // Right-aligned (natural alignment of an RTL paragraph).
            #expect(abs(line.frame.maxX - 120) < 1e-6)
        }
        expectEveryCharacterInOneLine(layout)
    }
}
