import Testing
@testable import TextKitLite

@Suite struct ShapingTests {
    /// Where a piece's hanging white space starts: whole words, lone glyphs, all-space
    /// pieces, and parts cut from inside a word.
    @Test func pieceHangStart() throws {
        let shaped = try Fixtures.engine.shape("go  中　word  x")
        let pieces = shaped.pieces(ofParagraph: 0)
        let summary = pieces.map { "\($0.start)..<\($0.end) \($0.hangStart) \($0.isAllSpace)" }
        // "go  " (its spaces hang from 2), "中　" (no break before U+3000), "word  ", "x" (a
        // lone glyph without space).
        #expect(summary == ["0..<4 2 false", "4..<6 5 false", "6..<12 10 false", "12..<13 13 false"])
        // A lone glyph of white space: all space.
        let space = try #require(Fixtures.engine.shape(" x").pieces(ofParagraph: 0).first)
        #expect(space.word == nil && space.hangStart == 0 && space.isAllSpace && space.hang == space.width)
        let word = pieces[2]
        let (head, tail) = try #require(word.split(at: 11))
        #expect(head.hangStart == 10 && !head.isAllSpace && head.hang > 0)
        #expect(tail.hangStart == 11 && tail.isAllSpace && tail.hang == tail.width)
        let (letters, spaces) = try #require(word.split(at: 10))
        #expect(letters.hangStart == 10 && letters.hang == 0 && !letters.isAllSpace)
        #expect(spaces.hangStart == 10 && spaces.isAllSpace && abs(spaces.width + letters.width - word.width) < 1e-9)
    }

    @Test func ligatureGivesFewerGlyphsWithClustersMappedBack() throws {
        let layout = try Fixtures.layout("office")
        let run = try #require(layout.allRuns.first)
        // DejaVu Sans ligates "ffi": 6 characters, 4 glyphs.
        #expect(run.glyphs.count < 6)
        #expect(run.glyphs.count == 4)
        // o(0) ffi(1…3) c(4) e(5): the ligature glyph maps back to the cluster starting at "f".
        #expect(run.glyphs.map(\.cluster) == [0, 1, 4, 5])
        #expect(run.range == 0..<6)
    }

    /// Shaped-word keys are equal exactly when font, script, direction, language and text
    /// are, for short words (packed in the key) and long ones (kept beside it).
    @Test func shapedWordKeysCompareEveryField() {
        let seed: (UInt64, UInt64, UInt64, UInt64) = (1, 2, 3, 4)
        func key(_ text: String, font: Int = 0, script: UInt32 = 1, rtl: Bool = false, language: String? = nil) -> ShapeCache.Key {
            Array(text.utf16).withUnsafeBufferPointer {
                ShapeCache.Key(font: font, script: script, rightToLeft: rtl, language: language, text: $0, seed: seed)
            }
        }
        let long = "internationalization "
        #expect(key("word") == key("word") && key(long) == key(long) && key("词", language: "zh") == key("词", language: "zh"))
        #expect(key("word").hashValue == key("word").hashValue && key(long).hashValue == key(long).hashValue)
        let different = [key("word"), key("wore"), key("word", font: 1), key("word", script: 2), key("word", rtl: true),
                         key("word", language: "en"), key(long), key(long + "s"), key("word\u{0}"), key("")]
        for i in different.indices { for j in different.indices where i != j { #expect(different[i] != different[j]) } }
    }

    /// Every code point the script fast path answers itself gets HarfBuzz's answer.
    @Test func scriptFastPathAgreesWithHarfBuzz() {
        let covered = Array(0x00...0x7F) + Array(0x4E00...0x9FFF)
        let differing = covered.filter { Script(of: UInt32($0)) != Script.harfBuzzScript(of: UInt32($0)) }
        #expect(differing.isEmpty, "\(differing.prefix(8).map { String($0, radix: 16) })")
    }

    @Test func arabicJoins() throws {
        // Contextual forms: the initial, medial and final forms of BEH differ from the isolated one.
        let isolated = try #require(Fixtures.layout("ب").allRuns.first?.glyphs.first)
        let joined = try #require(Fixtures.layout("ببب").allRuns.first)
        #expect(joined.isRightToLeft)
        #expect(joined.glyphs.count == 3)
        #expect(!joined.glyphs.contains(isolated))
        #expect(Set(joined.glyphs).count == 3)
        // Visual order: the logically first letter is drawn rightmost.
        #expect(joined.glyphs.map(\.cluster) == [2, 1, 0])
        #expect(joined.glyphs.map(\.position).map(\.x) == joined.glyphs.map(\.position).map(\.x).sorted())
    }

    @Test func kerningPairIsNarrowerThanItsLetters() throws {
        let av = try Fixtures.layout("AV", size: 100).measuredWidth
        let a = try Fixtures.layout("A", size: 100).measuredWidth
        let v = try Fixtures.layout("V", size: 100).measuredWidth
        #expect(av < a + v - 1)
    }

    @Test func combiningMarksStayInTheirCluster() throws {
        let layout = try Fixtures.layout("e\u{301}")
        let run = try #require(layout.allRuns.first)
        #expect(Set(run.glyphs.map(\.cluster)) == [0])
    }

    @Test func shapedWordsAreReusedAcrossTextsAndSizes() throws {
        let engine = TextEngine(fonts: Fixtures.engine.fonts)
        _ = try engine.layout(AttributedText("hello world hello", style: TextStyle(size: 17)))
        let afterFirst = engine.shapeCache.shapingCount
        #expect(afterFirst == 3)  // "hello ", "world ", and "hello" (no trailing space)
        _ = try engine.layout(AttributedText("world hello world hello", style: TextStyle(size: 30)))
        #expect(engine.shapeCache.shapingCount == afterFirst)  // every word was shaped before, at another size
        #expect(engine.shapeCache.statistics.hits >= 3)
    }

    @Test func relayoutAtANewWidthDoesNotReshape() throws {
        let engine = TextEngine(fonts: Fixtures.engine.fonts)
        let shaped = try engine.shape("The quick brown fox jumps over the lazy dog. 敏捷的棕色狐狸跳过了懒狗。")
        let shapings = engine.shapeCache.shapingCount
        let lookups = engine.shapeCache.statistics.hits + engine.shapeCache.statistics.misses
        let narrow = try engine.layout(shaped, options: LayoutOptions(width: 120))
        let wide = try engine.layout(shaped, options: LayoutOptions(width: 400))
        #expect(narrow.lineCount > wide.lineCount)
        #expect(engine.shapeCache.shapingCount == shapings)
        #expect(engine.shapeCache.statistics.hits + engine.shapeCache.statistics.misses == lookups)
    }

    @Test func controlCharactersDrawNothing() throws {
        let layout = try Fixtures.layout("a\u{0}\u{1}b\tc")
        // NUL and U+0001 become hidden zero-width glyphs; no .notdef.
        #expect(!layout.allRuns.flatMap { $0.glyphs.map(\.id) }.contains(0))
    }
}
