import Foundation
@testable import SampleFeed
import Testing
@testable import TextKitLite
@testable import TextKitLiteFeed

/// Words of one unit held by value (`LoneGlyphTable`) must lay out and draw exactly as the
/// same words held by reference from the word cache.
@Suite struct LoneGlyphTableTests {
    /// Texts that mix lone glyphs (Chinese characters, kana, lone Latin letters and spaces,
    /// CJK punctuation) with words: breaks, hanging spaces, justification, truncation.
    static let texts = [
        "敏捷的棕色狐狸跳过了懒狗。「引号」里的字，还有、顿号！",
        "The quick brown fox jumps over the lazy dog. 敏捷的棕色狐狸 a b c 跳过了懒狗 x",
        "ひらがなとカタカナ、漢字。ー々〆 〜 全角スペース　の後",
        "a   」 b 中 文 \t 字  ",
        "Mixed 中文 with emoji 😀 and عربي مع 中文 inside",
        "行" + String(repeating: "很长的中文段落没有空格也没有标点", count: 12),
    ]

    static let optionSets: [LayoutOptions] = [
        LayoutOptions(width: 200),
        LayoutOptions(width: 97, alignment: .justify),
        LayoutOptions(width: 150, maxLines: 2),
        LayoutOptions(width: 80, maxLines: 1, truncation: .middle),
        LayoutOptions(width: 31, alignment: .center),
    ]

    @Test func layoutsMatchTheWordCacheAlone() throws {
        let withTables = TextEngine(fonts: Fixtures.engine.fonts, shapeCache: ShapeCache(loneTables: 16))
        let without = TextEngine(fonts: Fixtures.engine.fonts, shapeCache: ShapeCache(loneTables: 0))
        for text in Self.texts {
            for size in [13.0, 17] {
                for options in Self.optionSets {
                    let attributed = AttributedText(text, style: TextStyle(size: size))
                    // Twice: the first pass fills the tables, the second reads them.
                    for _ in 0..<2 {
                        let a = try withTables.layout(attributed, options: options)
                        let b = try without.layout(attributed, options: options)
                        try Self.expectIdentical(a, b, "\(text) at \(size) pt, \(options)")
                    }
                }
            }
        }
        #expect(without.shapeCache.statistics.hits + without.shapeCache.statistics.misses > 0)
        // Every lookup is counted, by the table or the cache: both engines saw the same.
        #expect(withTables.shapeCache.statistics.hits == without.shapeCache.statistics.hits)
        #expect(withTables.shapeCache.shapingCount == without.shapeCache.shapingCount)
    }

    @Test func cellPixelsMatchTheWordCacheAlone() throws {
        let posts = SampleFeed.posts(count: 40, seed: 7)
        var pixels: [[[UInt8]]] = []
        for tables in [16, 0] {
            let engine = TextEngine(fonts: Fixtures.engine.fonts, shapeCache: ShapeCache(loneTables: tables))
            let precomputer = FeedPrecomputer(engine: engine)
            pixels.append(try posts.map { post in
                let cell = try precomputer.layout(post, width: 320)
                return try #require(try CellRenderer().render(cell, options: RenderOptions(scale: 1))).pixels
            })
        }
        #expect(pixels[0] == pixels[1])
    }

    @Test func threadsFillingOneTableAgree() throws {
        let texts = SampleFeed.posts(count: 60, seed: 3).map(\.text)
        let reference = TextEngine(fonts: Fixtures.engine.fonts, shapeCache: ShapeCache(loneTables: 0))
        let expected = try texts.map { try reference.layout(AttributedText($0, style: TextStyle(size: 15)), options: LayoutOptions(width: 180)) }
        let shared = TextEngine(fonts: Fixtures.engine.fonts)  // cold: both threads fill its tables at once
        let results = Locked<[Int: [TextLayout]]>([:])
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            let order = thread == 0 ? Array(texts.indices) : texts.indices.reversed()
            var layouts = [TextLayout?](repeating: nil, count: texts.count)
            for i in order {
                layouts[i] = try? shared.layout(AttributedText(texts[i], style: TextStyle(size: 15)), options: LayoutOptions(width: 180))
            }
            results.withLock { $0[thread] = layouts.compactMap { $0 } }
        }
        for thread in 0..<2 {
            let layouts = try #require(results.withLock { $0[thread] })
            try #require(layouts.count == texts.count)
            for (a, b) in zip(layouts, expected) { try Self.expectIdentical(a, b, "thread \(thread)") }
        }
    }

    @Test func onlyOnePlainGlyphIsLone() throws {
        let table = LoneGlyphTable(fontID: 1, script: 0)
        #expect(table.entry(0x4E2D).isUnknown)
        let engine = TextEngine(fonts: Fixtures.engine.fonts, shapeCache: ShapeCache(loneTables: 0))
        let shaped = try engine.shape(AttributedText("中 e\u{301}", style: TextStyle(size: 17)))
        let words = shaped.pieces(ofParagraph: 0).compactMap(\.word)
        let han = try #require(words.first { $0.length == 1 && $0.glyphCount == 1 })
        guard case .lone(let glyph) = table.remember(han, for: 0x4E2D) else {
            Issue.record("a Chinese character is one plain glyph")
            return
        }
        #expect(glyph.id == han.glyphs[0] && glyph.advance == han.advances[0])
        guard case .lone(let again) = table.entry(0x4E2D) else {
            Issue.record("remembered")
            return
        }
        #expect(again.id == glyph.id && again.advance == glyph.advance)
        let cluster = try #require(words.first { $0.length == 2 })  // "e" and a combining mark
        if case .notLone = table.remember(cluster, for: 0x65) {} else { Issue.record("two units are not lone") }
        if case .notLone = table.entry(0x65) {} else { Issue.record("not-lone is remembered") }
        #expect(table.entry(0x66).isUnknown)  // same page, never seen
    }

    @Test func removeAllDropsTheTables() throws {
        let engine = TextEngine(fonts: Fixtures.engine.fonts)
        _ = try engine.layout(AttributedText("中文", style: TextStyle(size: 17)))
        #expect(engine.shapeCache.shapingCount == 2)
        engine.shapeCache.removeAll()
        _ = try engine.layout(AttributedText("中文", style: TextStyle(size: 17)))
        #expect(engine.shapeCache.shapingCount == 4)  // shaped again, not answered by a table
    }

    static func expectIdentical(_ a: TextLayout, _ b: TextLayout, _ context: String) throws {
        #expect(a.size == b.size, "\(context)")
        #expect(a.isTruncated == b.isTruncated, "\(context)")
        try #require(a.lines.count == b.lines.count, "\(context)")
        for (x, y) in zip(a.lines, b.lines) {
            #expect(x.range == y.range && x.frame == y.frame && x.baseline == y.baseline, "\(context)")
            #expect(x.hangingWidth == y.hangingWidth && x.ascent == y.ascent && x.descent == y.descent, "\(context)")
            try #require(x.runs.count == y.runs.count, "\(context)")
            for (r, s) in zip(x.runs, y.runs) {
                #expect(r.font === s.font && r.fontSize == s.fontSize && r.range == s.range, "\(context)")
                #expect(r.glyphs == s.glyphs && r.glyphs.map(\.cluster) == s.glyphs.map(\.cluster) && r.x == s.x && r.width == s.width, "\(context)")
                #expect(r.glyphs.map(\.position).map(\.x) == s.glyphs.map(\.position).map(\.x), "\(context)")
                #expect(r.glyphs.map(\.position).map { $0.y.bitPattern } == s.glyphs.map(\.position).map { $0.y.bitPattern }, "\(context)")
            }
        }
    }
}

extension LoneGlyphTable.Entry {
    var isUnknown: Bool {
        if case .unknown = self { return true }
        return false
    }
}
