import Testing
@testable import TextKitLite
@testable import TextKitLiteFeed

/// Chinese and Japanese punctuation (full-width forms of marks shared with Latin, squeezed
/// adjacent marks) and regional CJK faces chosen by language.
@Suite struct CJKTypographyTests {
    /// Every glyph of a layout with its cluster's first scalar, font and advance (the next
    /// glyph's x, or the run's end), in visual order.
    static func glyphs(_ layout: TextLayout, _ string: String) -> [(scalar: Character, font: Font, advance: Double, glyph: UInt32)] {
        let units = Array(string.utf16)
        var result: [(Character, Font, Double, UInt32)] = []
        for run in layout.lines.flatMap(\.runs) {
            for k in run.glyphs.indices {
                let end = k + 1 < run.glyphs.count ? Double(run.glyphs[k + 1].position.x) : run.x + run.width
                let offset = Int(run.glyphs[k].cluster)
                let scalar = Character(String(decoding: units[offset...].prefix(1), as: UTF16.self))
                result.append((scalar, run.font, end - Double(run.glyphs[k].position.x), run.glyphs[k].id))
            }
        }
        return result
    }

    @Test func marksSharedWithLatinTakeTheCJKFontInChineseText() throws {
        let string = "他说“你好”…全文·一—二"
        let layout = try Fixtures.layout(string)
        for glyph in Self.glyphs(layout, string) {
            #expect(glyph.font == Fixtures.cjk, "\(glyph.scalar)")
        }
        // Each mark is full width in the CJK font (the em dash is 0.894 em there).
        let quote = try #require(Self.glyphs(layout, string).first { $0.scalar == "“" })
        #expect(abs(quote.advance - 17) < 0.01)
        // In Latin text they stay with the Latin font.
        let latin = "He said “hi”… a·b—c"
        for glyph in Self.glyphs(try Fixtures.layout(latin), latin) {
            #expect(glyph.font == Fixtures.sans, "\(glyph.scalar)")
        }
    }

    /// The itemizer's one-comparison filter lets every mark through, and each shared mark
    /// is its scalar's.
    @Test func markFilterKeepsEveryMark() {
        for scalar in UInt32(0)...0xFFFF where CJKPunctuation.SharedMark(scalar) != nil || CJKPunctuation.kind(scalar) != nil {
            #expect(CJKPunctuation.mayBeMark(scalar), "U+\(String(scalar, radix: 16))")
        }
        for mark in CJKPunctuation.SharedMark.allCases {
            #expect(CJKPunctuation.SharedMark(mark.scalar) == mark)
        }
    }

    /// A shared mark resolves to the CJK font the first time (a cmap lookup) and again from
    /// the chain's memo; with a preferred font, as that font's coverage says.
    @Test func sharedMarkResolutionIsRemembered() {
        let chain = FontFallbackChain(primary: Fixtures.sans, fallbacks: [Fixtures.cjk])  // a new, empty memo
        for mark in CJKPunctuation.SharedMark.allCases {
            #expect(chain.resolve(mark, preferred: nil) == 1, "\(mark)")
            #expect(chain.resolve(mark, preferred: nil) == 1, "\(mark)")
            #expect(chain.resolve(mark, preferred: Fixtures.cjk) == nil, "\(mark)")
            #expect(chain.resolve(mark, preferred: nil) == 1, "\(mark)")
        }
        let latinOnly = FontFallbackChain(primary: Fixtures.sans)
        for mark in CJKPunctuation.SharedMark.allCases {
            #expect(latinOnly.resolve(mark, preferred: nil) == 0, "\(mark)")
            #expect(latinOnly.resolve(mark, preferred: nil) == 0, "\(mark)")
        }
    }

    /// “）《” keeps half an em between the marks, not a whole one: the parenthesis takes
    /// its half-width form (the font's `halt`); “（《” squeezes the angle bracket; “（）”
    /// and a lone mark keep full widths.
    @Test func adjacentFullWidthMarksAreSqueezed() throws {
        // Every character here is one em (17 points) wide unless squeezed to half.
        for (string, squeezed) in [("文字）《书名》", 1), ("（《书》", 1), ("“好。”", 1), ("」（《", 2), ("（）", 0), ("文字）书", 0),
                                   ("文字）", 0), ("书名）。", 1)] {
            let width = try Fixtures.layout(string).lines[0].frame.width
            #expect(abs(width - 17 * (Double(string.count) - 0.5 * Double(squeezed))) < 0.01, "\(string)")
        }
        // The closing parenthesis loses its right half: its glyph stays in place, half as wide.
        let closing = try #require(Self.glyphs(try Fixtures.layout("文字）《书"), "文字）《书").first { $0.scalar == "）" })
        #expect(abs(closing.advance - 8.5) < 0.01)
        #expect(closing.font.path == Fixtures.cjk.path)
    }

    /// Squeezing changes only widths: line breaks, measurement and hit testing agree.
    @Test func squeezedTextMeasuresAsItLaysOut() throws {
        let string = String(repeating: "他说：“你好”，（《书名》）。「引用」『二重』，", count: 12)
        for width in [60.0, 101, 187, 320] {
            let options = LayoutOptions(width: width, maxLines: 0)
            let layout = try Fixtures.engine.layout(AttributedText(string), options: options)
            let measured = try Fixtures.engine.measure(AttributedText(string), options: options)
            #expect(measured == TextMeasurement(layout), "width \(width)")
            #expect(layout.lines.allSatisfy { $0.frame.width <= width + 0.001 })
        }
    }

    static let notoCJK = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
    static let hasNotoCJK = (try? Font.load(path: notoCJK)) != nil

    /// A language picks the face of its region from the CJK font's collection: 骨 is drawn
    /// with Noto Sans CJK JP's glyph in Japanese text, TC's in Traditional Chinese.
    @Test(.enabled(if: hasNotoCJK, "Noto Sans CJK is not installed (apt-get install fonts-noto-cjk)"))
    func languagePicksTheRegionalFaceOfACollection() throws {
        let chain = try FontFallbackChain.load(specs: [BundledFonts.path(BundledFonts.sans), Self.notoCJK + "#2"])
        let engine = TextEngine(fonts: chain)
        func run(_ language: String?) throws -> GlyphRun {
            try #require(engine.layout(AttributedText("骨直", style: TextStyle(language: language))).lines.first?.runs.first)
        }
        #expect(try run(nil).font.familyName == "Noto Sans CJK SC")
        #expect(try run("zh-Hans").font.familyName == "Noto Sans CJK SC")
        #expect(try run("ja").font.familyName == "Noto Sans CJK JP")
        #expect(try run("ja-JP").font.familyName == "Noto Sans CJK JP")
        #expect(try run("zh-Hant").font.familyName == "Noto Sans CJK TC")
        #expect(try run("ko").font.familyName == "Noto Sans CJK KR")
        #expect(try run("zh-HK").font.familyName == "Noto Sans CJK HK")
        #expect(try run("ja").glyphs != run("zh-Hans").glyphs)
        // Latin in a Japanese run keeps the Latin font.
        let mixed = try engine.layout(AttributedText("abc骨", style: TextStyle(language: "ja"))).lines[0].runs
        #expect(mixed.first?.font == chain.primary)
        // Measured as laid out.
        let text = AttributedText(String(repeating: "骨直 abc。", count: 20), style: TextStyle(language: "ja"))
        let options = LayoutOptions(width: 120)
        #expect(try engine.measure(text, options: options) == TextMeasurement(engine.layout(text, options: options)))
    }

    /// A post's language reaches every text of its cell; a post differing only in its
    /// language is another cell (and another height-cache entry), measured as laid out.
    @Test(.enabled(if: hasNotoCJK, "Noto Sans CJK is not installed (apt-get install fonts-noto-cjk)"))
    func postLanguageStylesItsCell() throws {
        let chain = try FontFallbackChain.load(specs: [BundledFonts.path(BundledFonts.sans), Self.notoCJK + "#2"])
        let precomputer = FeedPrecomputer(engine: TextEngine(fonts: chain))
        let chinese = FeedPost(id: "1", author: "直子", text: String(repeating: "骨直，（《书》）。", count: 9))
        var japanese = chinese
        japanese.language = "ja"
        for post in [chinese, japanese] {
            let cell = try precomputer.layout(post, width: 320)
            let families = Set(["author", "body"].flatMap { id in
                cell.element(id)?.text?.lines.flatMap(\.runs).map(\.font.familyName) ?? []
            })
            #expect(families == [post.language == "ja" ? "Noto Sans CJK JP" : "Noto Sans CJK SC"])
            let measured = try precomputer.measure(post, width: 320)
            #expect(measured.height == cell.height)
        }
        #expect(precomputer.layoutCount == 2)
    }

    @Test func commandLineLanguage() throws {
        let ok = try TextRenderTool.run(["render", "骨", "--lang", "ja", "--json"])
        #expect(ok.status == 0, "\(ok.stderr)")
        let bad = try TextRenderTool.run(["render", "骨", "--lang", "ja_JP!", "--json"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("invalid --lang \"ja_JP!\""))
    }

    @Test func regionsOfLanguageTags() {
        #expect(CJKRegion(language: "ja") == .japan)
        #expect(CJKRegion(language: "zh") == .simplifiedChinese)
        #expect(CJKRegion(language: "zh-CN") == .simplifiedChinese)
        #expect(CJKRegion(language: "zh_TW") == .traditionalChinese)
        #expect(CJKRegion(language: "zh-Hant-HK") == .hongKong)
        #expect(CJKRegion(language: "ko-KR") == .korea)
        #expect(CJKRegion(language: "en") == nil)
        #expect(CJKRegion(family: "Noto Serif CJK TC") == .traditionalChinese)
        #expect(CJKRegion(family: "DejaVu Sans") == nil)
    }
}
