import Foundation
import Testing
@testable import TextKitLite

/// Weight, slant and OpenType features: real faces where the chain has them, synthesized
/// otherwise, each a font of its own for every cache.
@Suite struct TextStyleTests {
    static let engine = Fixtures.engine

    private func layout(_ string: String, _ style: TextStyle) throws -> TextLayout {
        try Self.engine.layout(AttributedText(string, style: style), options: LayoutOptions(width: .infinity))
    }

    private func ink(_ layout: TextLayout) throws -> Int {
        let bitmap = try #require(try TextRenderer().render(layout, options: RenderOptions(scale: 2)).bitmap)
        return bitmap.pixels.reduce(0) { $0 + Int(255 - $1) }
    }

    @Test func boldLatinUsesTheBundledBoldFaceAndIsWider() throws {
        let regular = try layout("Hello, bold world", TextStyle(size: 20))
        let bold = try layout("Hello, bold world", TextStyle(size: 20, weight: .bold))
        let font = try #require(bold.allRuns.first?.font)
        #expect(font.path.hasSuffix(BundledFonts.sansBold))
        #expect(font.isBold && !font.isSyntheticBold)
        #expect(bold.measuredWidth > regular.measuredWidth + 5)
        #expect(try ink(bold) > ink(regular) * 5 / 4)
    }

    @Test func boldChineseIsEmboldenedWithWidenedAdvances() throws {
        let text = "中文粗体字"
        let regular = try layout(text, TextStyle(size: 24))
        let bold = try layout(text, TextStyle(size: 24, weight: .bold))
        let font = try #require(bold.allRuns.first?.font)
        #expect(font.isSyntheticBold && font.path.hasSuffix(BundledFonts.cjk))
        // Each glyph is em/24 wider, in whole font units.
        let widening = (Double(font.unitsPerEm) / 24).rounded() / Double(font.unitsPerEm) * 24
        #expect(abs(bold.measuredWidth - regular.measuredWidth - 5 * widening) < 1e-9)
        #expect(try ink(bold) > ink(regular) * 6 / 5)
    }

    @Test func italicIsSlantedWhenTheChainHasNoItalicFace() throws {
        let regular = try layout("Italic I", TextStyle(size: 30))
        let italic = try layout("Italic I", TextStyle(size: 30, isItalic: true))
        let font = try #require(italic.allRuns.first?.font)
        #expect(font.isSyntheticItalic && !font.isSyntheticBold)
        #expect(italic.measuredWidth == regular.measuredWidth)  // slant changes no advance
        let a = try #require(try TextRenderer().render(regular, options: RenderOptions()).bitmap)
        let b = try #require(try TextRenderer().render(italic, options: RenderOptions()).bitmap)
        #expect(a.pixels != b.pixels)
        // The top of the last "I" leans right: its topmost ink row starts further right.
        func firstInkColumn(_ bitmap: Bitmap, row: Int) -> Int? {
            (0..<bitmap.width).last { bitmap.pixels[row * bitmap.width + $0] < 128 }
        }
        let row = Int(regular.lines[0].baseline) - 18
        #expect(try #require(firstInkColumn(b, row: row)) > #require(firstInkColumn(a, row: row)))
    }

    @Test func boldItalicUsesTheBoldFaceSlanted() throws {
        let font = try #require(try layout("Both", TextStyle(weight: .bold, isItalic: true)).allRuns.first?.font)
        #expect(font.isBold && !font.isSyntheticBold && font.isSyntheticItalic)
    }

    @Test func boldEmojiAreEmboldenedButNeverSlanted() throws {
        let regular = try layout("👋🎉", TextStyle(size: 30))
        let bold = try layout("👋🎉", TextStyle(size: 30, weight: .bold, isItalic: true))
        let font = try #require(bold.allRuns.first?.font)
        #expect(font.isColor && font.isSyntheticBold && !font.isSyntheticItalic)
        let widening = (Double(font.unitsPerEm) / 24).rounded() / Double(font.unitsPerEm) * 30
        #expect(abs(bold.measuredWidth - regular.measuredWidth - 2 * widening) < 1e-9)
        #expect(try ink(bold) > ink(regular))
    }

    @Test func featuresReachHarfBuzz() throws {
        // DejaVu Sans forms "fi" and "ffi" ligatures by default.
        let ligated = try layout("office fit", TextStyle())
        let plain = try layout("office fit", TextStyle(features: [FontFeature("-liga")!]))
        #expect(plain.allRuns.reduce(0) { $0 + $1.glyphs.count } > ligated.allRuns.reduce(0) { $0 + $1.glyphs.count })
        #expect(plain.allRuns.first?.font.features == [FontFeature("-liga")!])
    }

    @Test func stylesShareOneWordCacheWithoutMixingUp() throws {
        let engine = TextEngine(fonts: Self.engine.fonts)
        let text = AttributedText([("same words ", TextStyle()), ("same words ", TextStyle(weight: .bold)),
                                   ("same words", TextStyle(features: [FontFeature("-kern")!]))])
        let layout = try engine.layout(text, options: LayoutOptions(width: .infinity))
        let fonts = Set(layout.allRuns.map { ObjectIdentifier($0.font) })
        #expect(fonts.count == 3)
        // Variants are made once per font and setting.
        let again = try engine.layout(text, options: LayoutOptions(width: .infinity))
        #expect(Set(again.allRuns.map { ObjectIdentifier($0.font) }) == fonts)
    }

    @Test func encodedLayoutsKeepSynthesisAndFeatures() throws {
        let text = AttributedText([("粗体 bold ", TextStyle(weight: .bold, isItalic: true)), ("office", TextStyle(features: [FontFeature("-liga")!]))])
        let layout = try Self.engine.layout(text, options: LayoutOptions(width: 300))
        let decoded = try JSONDecoder().decode(TextLayout.self, from: JSONEncoder().encode(layout))
        #expect(decoded.allRuns.map(\.font) == layout.allRuns.map(\.font))
        #expect(decoded.text.runs.map(\.style) == text.runs.map(\.style))
        let a = try TextRenderer().render(layout, options: RenderOptions(scale: 2)).bitmap
        #expect(try TextRenderer().render(decoded, options: RenderOptions(scale: 2)).bitmap == a)
    }

    @Test func underlineSitsWhereTheFontSays() throws {
        let plain = try self.layout("mmmm", TextStyle(size: 40))
        let underlined = try self.layout("mmmm", TextStyle(size: 40, underline: true))
        let a = try #require(try TextRenderer().render(plain, options: RenderOptions()).bitmap)
        let b = try #require(try TextRenderer().render(underlined, options: RenderOptions()).bitmap)
        // Rows where the two differ are the underline's: one band, below the baseline, as thick
        // and as low as DejaVu Sans's post table says (snapped to pixels).
        let rows = (0..<a.height).filter { row in (0..<a.width).contains { a.pixels[row * a.width + $0] != b.pixels[row * b.width + $0] } }
        let metrics = Fixtures.sans.decorationMetrics(size: 40)
        let baseline = underlined.lines[0].baseline.rounded()
        let thickness = max(1, metrics.underlineThickness.rounded())
        let top = (baseline + metrics.underlineOffset - thickness / 2).rounded()
        #expect(rows == Array(Int(top)..<Int(top + thickness)))
        #expect(metrics.underlineOffset > 0 && metrics.underlineOffset < 40 * 0.3)
        // The stroke spans the run: every pixel of the band is ink.
        #expect((0..<Int(underlined.lines[0].frame.width.rounded(.down))).allSatisfy { b.pixels[Int(top) * b.width + $0] == 0 })
    }

    @Test func strikethroughCrossesAboveTheBaseline() throws {
        let metrics = Fixtures.cjk.decorationMetrics(size: 20)
        #expect(metrics.strikethroughOffset < 0 && metrics.strikethroughOffset > -20 * 0.5)
        #expect(metrics.strikethroughThickness > 0)
    }

    @Test func decorationsAreContinuousAcrossFontsAndSizes() throws {
        var text = AttributedText("under 中文 line", style: TextStyle(size: 16, underline: true))
        text.updateStyle(in: 6..<8) { $0.size = 24 }
        text.updateStyle(in: 9..<13) { $0.ink = 90 }
        let layout = try Self.engine.layout(text, options: LayoutOptions(width: .infinity))
        let strokes = Decorations.strokes(layout.lines[0], .underline)
        #expect(layout.lines[0].runs.count >= 3)
        #expect(Set(strokes.map(\.offset)).count == 1 && Set(strokes.map(\.thickness)).count == 1)
        #expect(strokes.map(\.ink) == [0, 90])
        #expect(abs(strokes[0].x + strokes[0].width - strokes[1].x) < 1e-9)
        #expect(abs(strokes.last!.x + strokes.last!.width - layout.lines[0].runs.last!.x - layout.lines[0].runs.last!.width) < 1e-9)
    }

    @Test func letterSpacingAddsItsAmountAfterEachCluster() throws {
        let string = "Tofu e\u{301}x 中文"  // 9 clusters: T o f u ␠ é x ␠ 中 文 → 10
        let plain = try layout(string, TextStyle(size: 20))
        let spaced = try layout(string, TextStyle(size: 20, letterSpacing: 1.5))
        #expect(spaced.measuredWidth == plain.measuredWidth + 10 * 1.5)
        // Each cluster's first glyph moves right by the spacing of the clusters before it.
        let plainGlyphs = plain.allRuns.flatMap { run in zip(run.glyphs.map(\.cluster), run.glyphs.map(\.position)).map { ($0, $1.x) } }
        let spacedGlyphs = spaced.allRuns.flatMap { run in zip(run.glyphs.map(\.cluster), run.glyphs.map(\.position)).map { ($0, $1.x) } }
        #expect(plainGlyphs.map(\.0) == spacedGlyphs.map(\.0))
        let clusterStarts = Array(Set(plainGlyphs.map(\.0))).sorted()
        for (p, s) in zip(plainGlyphs, spacedGlyphs) {
            let before = clusterStarts.firstIndex(of: p.0)!
            #expect(abs(Double(s.1 - p.1) - 1.5 * Double(before)) < 1e-3)
        }
    }

    @Test func letterSpacingNeverSplitsAJoinedArabicWord() throws {
        let string = "مرحبا بالعالم"
        let plain = try layout(string, TextStyle(size: 20))
        let spaced = try layout(string, TextStyle(size: 20, letterSpacing: 3))
        #expect(spaced.measuredWidth == plain.measuredWidth + 2 * 3)  // after each word only
        // Within each word the glyphs keep their joined positions.
        let a = plain.allRuns.flatMap { $0.glyphs.map(\.position.x) }, b = spaced.allRuns.flatMap { $0.glyphs.map(\.position.x) }
        #expect(a.count == b.count)
        let shifts = zip(a, b).map { Double($1 - $0) }
        #expect(Set(shifts.map { ($0 * 100).rounded() / 100 }).count <= 3)
    }

    /// Fuzz crash 38b8f94e: spacing more negative than a cluster's advance made lines
    /// narrower than their prefixes, so a relayout at the measured width broke differently.
    @Test func negativeLetterSpacingStopsAtZeroAdvance() throws {
        let strings = ["hi 🎉 @x #t# https://e.com q 世界 bc\td e f g", "ilil iiii ....  ,,,,", "مرحبا بالعالم 123"]
        for string in strings {
            for size in [2.955, 8, 17] {
                let text = AttributedText(string, style: TextStyle(size: size, weight: .bold, letterSpacing: -0.75))
                let wide = try Self.engine.layout(text, options: LayoutOptions(width: .infinity))
                // No cluster advances backwards.
                for run in wide.allRuns { for (a, b) in zip(run.glyphs.map(\.position), run.glyphs.map(\.position).dropFirst()) where b.x < a.x { #expect(run.isRightToLeft) } }
                for width in [10.0, 35, 173] {
                    let layout = try Self.engine.layout(text, options: LayoutOptions(width: width))
                    guard layout.measuredWidth <= width else { continue }  // a cluster wider than the box: its own line
                    let again = try Self.engine.layout(text, options: LayoutOptions(width: layout.measuredWidth))
                    #expect(again.lines.map(\.range) == layout.lines.map(\.range), "\(string) \(size) \(width)")
                    #expect(try Self.engine.measure(text, options: LayoutOptions(width: width)) == TextMeasurement(layout))
                }
            }
        }
        // A cluster narrower than the negative spacing ends at zero advance, not below.
        let narrow = try layout("ii", TextStyle(size: 4, letterSpacing: -10))
        #expect(narrow.measuredWidth == 0)
    }

    @Test func letterSpacingTurnsOffOptionalLigatures() throws {
        let spaced = try layout("office", TextStyle(letterSpacing: 1))
        #expect(spaced.allRuns.reduce(0) { $0 + $1.glyphs.count } == 6)
    }

    @Test func letterSpacedTextBreaksAndCutsWithTheSpacing() throws {
        let style = TextStyle(size: 15, letterSpacing: 2)
        let text = AttributedText("Supercalifragilisticexpialidocious and more words here", style: style)
        for width in [40.0, 90, 150] {
            let layout = try Self.engine.layout(text, options: LayoutOptions(width: width))
            for line in layout.lines { #expect(line.frame.width <= width + 1e-9) }
            #expect(try Self.engine.measure(text, options: LayoutOptions(width: width)) == TextMeasurement(layout))
        }
    }

    @Test func truncationTokensAreShapedPerStyle() throws {
        let engine = TextEngine(fonts: Self.engine.fonts)
        let text = AttributedText(String(repeating: "word ", count: 40), style: TextStyle())
        func tokenFont(_ style: TextStyle) throws -> Font? {
            let layout = try engine.layout(text, options: LayoutOptions(width: 120, maxLines: 1,
                                                                        truncationToken: AttributedText("…more", style: style)))
            return layout.allRuns.last { $0.isTruncationToken }?.font
        }
        let regular = try tokenFont(TextStyle(ink: 90))
        let bold = try tokenFont(TextStyle(ink: 90, weight: .bold))
        let underlined = try tokenFont(TextStyle(ink: 30, underline: true))
        #expect(regular != bold && bold?.isBold == true)
        #expect(underlined == regular)  // ink and decorations do not reshape
    }

    @Test func featureListsParse() {
        #expect(FontFeature.list("tnum, -liga,+kern,ss01=2")?.map(\.description) == ["tnum", "-liga", "kern", "ss01=2"])
        #expect(FontFeature.list("toolong") == nil)
        #expect(FontFeature.list("liga,") == nil)
        #expect(FontFeature("-ss01=2") == nil)
    }

    @Test func boldAndRegularFacesOfOneFamilyMakeAStyleFace() throws {
        let chain = Self.engine.fonts
        #expect(chain.styleFaces.map { $0.path.hasSuffix(BundledFonts.sansBold) } == [true])
        #expect(!chain.fonts.contains { $0.path.hasSuffix(BundledFonts.sansBold) })
    }
}
