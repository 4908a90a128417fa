import Foundation
import Testing
@testable import TextKitLite

/// Installed fonts through fontconfig. The fonts these tests use come from Debian's
/// fonts-noto-cjk and fonts-thai-tlwg, which `scripts/setup.sh --test` (run by
/// scripts/test.sh) installs; a test whose fonts are absent is skipped, saying so.
@Suite struct SystemFontTests {
    static let hasNotoCJK = SystemFonts.face(family: "Noto Sans CJK KR") != nil
    static let hasThai = !SystemFonts.faces(covering: [0x0E20], language: "th", color: false).isEmpty
    static let cjkMissing = "Noto Sans CJK is not installed (apt-get install fonts-noto-cjk)"
    static let thaiMissing = "no installed font has Thai (apt-get install fonts-thai-tlwg)"

    static let twoFaces = Fixtures.testsDirectory.appendingPathComponent("Fixtures/TwoFaces.ttc").path

    @Test(.enabled(if: hasNotoCJK, Comment(rawValue: cjkMissing)))
    func familyNamesAnInstalledFaceWithItsStyle() throws {
        let regular = try #require(SystemFonts.face(family: "noto sans cjk jp"))
        #expect(regular.family.hasPrefix("Noto Sans CJK"))
        let bold = try #require(SystemFonts.font(family: "Noto Sans CJK JP", style: "Bold"))
        #expect(bold.isBold)
        #expect(bold.familyName.hasPrefix("Noto Sans CJK"))
    }

    @Test func unknownFamilyIsNoneAndALayoutErrorNamingIt() throws {
        #expect(SystemFonts.face(family: "No Such Family 1234") == nil)
        let text = AttributedText("abc", style: TextStyle(font: .family("No Such Family 1234")))
        #expect(throws: LayoutError.invalidOption(name: "font family", value: "\"No Such Family 1234\"",
                                                   reason: "no font of the chain and no installed font (fontconfig) has this family")) {
            try Fixtures.engine.layout(text)
        }
    }

    @Test(.enabled(if: hasNotoCJK, Comment(rawValue: cjkMissing)))
    func styleFamilyOutsideTheChainIsFoundByFontconfig() throws {
        let text = AttributedText("骨", style: TextStyle(font: .family("Noto Serif CJK JP")))
        let layout = try Fixtures.engine.layout(text)
        let font = try #require(layout.lines.first?.runs.first?.font)
        #expect(font.familyName.hasPrefix("Noto Serif CJK"))
    }

    /// Hangul and Thai are in no bundled font: with the system fallback they take an
    /// installed font's glyphs (fontconfig asked with the script's language), without it
    /// they are .notdef.
    @Test(.enabled(if: hasNotoCJK && hasThai, Comment(rawValue: cjkMissing + "; " + thaiMissing)))
    func systemFallbackDrawsWhatNoChainFontHas() throws {
        let chain = try BundledFonts.chain()
        let plain = TextEngine(fonts: chain), fallback = TextEngine(fonts: chain.withSystemFallback())
        #expect(chain.withSystemFallback() == chain.withSystemFallback())
        for sample in ["한국어", "ภาษาไทย"] {
            let before = try plain.layout(AttributedText(sample)).lines.flatMap(\.runs)
            let after = try fallback.layout(AttributedText(sample)).lines.flatMap(\.runs)
            #expect(before.allSatisfy { $0.glyphs.allSatisfy { $0.id == 0 } })
            #expect(after.allSatisfy { !$0.glyphs.contains { $0.id == 0 } && !chain.fonts.contains($0.font) }, "\(sample)")
        }
        let korean = try fallback.layout(AttributedText("한")).lines[0].runs[0].font
        #expect(korean.familyName.contains("KR") || korean.familyName.contains("Korean") || korean.familyName.contains("Nanum"),
                "fontconfig asked with lang=ko: \(korean)")
        // Covered text stays with the chain's fonts.
        let latin = try fallback.layout(AttributedText("abc 中文")).lines.flatMap(\.runs)
        #expect(latin.allSatisfy { chain.fonts.contains($0.font) })
    }

    /// A cluster no installed font has costs one fontconfig lookup, however often it
    /// recurs: misses are remembered (hostile text stays bounded).
    @Test func missesAreLookedUpOnce() throws {
        let chain = try FontFallbackChain(primary: Font.load(path: Self.twoFaces)).withSystemFallback()
        let engine = TextEngine(fonts: chain)
        let cluster = "\u{10FFFD}\u{301}"  // a private-use character and a combining mark
        _ = try engine.layout(AttributedText(cluster))
        let lookups = chain.systemLookups
        #expect(lookups >= 1)
        for _ in 0..<3 { _ = try engine.layout(AttributedText(cluster + " " + cluster)) }
        #expect(chain.systemLookups == lookups)
    }

    @Test(.enabled(if: hasNotoCJK, Comment(rawValue: cjkMissing)))
    func commandLineFontFamilyAndFallbackOptions() throws {
        let family = try TextRenderTool.run(["render", "骨 abc", "--font-family", "Noto Sans CJK JP:Bold", "--json"])
        #expect(family.status == 0, "\(family.stderr)")
        let unknown = try TextRenderTool.run(["render", "x", "--font-family", "No Such Family 1234", "--json"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no installed font family \"No Such Family 1234\""))
        // An unknown style is an error as an unknown family is (fontconfig would answer
        // with the family's regular face).
        let style = try TextRenderTool.run(["render", "x", "--font-family", "Noto Sans CJK JP:Heavy Slanted", "--json"])
        #expect(style.status == 1)
        #expect(style.stderr.contains(
            "Error: no style \"Heavy Slanted\" in installed font family \"Noto Sans CJK JP\" (--font-family; its styles: Bold, Regular)"),
            "\(style.stderr)")
        #expect(SystemFonts.face(family: "Noto Sans CJK JP", style: "Heavy Slanted") == nil)
        #expect(SystemFonts.face(family: "noto sans cjk jp", style: "bold") != nil)
        let none = try TextRenderTool.run(["render", "x", "--no-fallback", "--json"])
        #expect(none.status != 0)
        #expect(none.stderr.contains("--no-fallback needs --font or --font-family"))
    }

    /// A single --font keeps the bundled fonts behind it: Chinese and emoji are drawn (the
    /// ASCII-only font has neither); with --no-fallback they are .notdef boxes.
    @Test func singleFontKeepsTheBundledFallback() throws {
        let layout = try TextEngine(fonts: BundledFonts.chain(after: [Self.twoFaces])).layout(AttributedText("中文 😀 abc"))
        #expect(!layout.lines.flatMap(\.runs).flatMap { $0.glyphs.map(\.id) }.contains(0))
        #expect(layout.lines[0].runs.last?.font.path == Self.twoFaces)
        func image(_ extra: [String]) throws -> Data {
            let path = Fixtures.temporaryPath("single-font.png")
            let result = try TextRenderTool.run(["render", "中文 😀", "--font", Self.twoFaces, "--output", path] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
        let withFallback = try image([]), alone = try image(["--no-fallback"])
        let expected = try image(["--font", BundledFonts.path(BundledFonts.cjk), "--font", BundledFonts.path(BundledFonts.emoji), "--no-fallback"])
        #expect(withFallback == expected)
        #expect(withFallback != alone)
    }

    /// A layout drawn with an installed font names it by family and style, never by the
    /// encoding machine's path, and decodes to the same font through fontconfig; a bundled
    /// font is named by its file alone.
    @Test(.enabled(if: hasNotoCJK, Comment(rawValue: cjkMissing)))
    func encodedLayoutsNameFontsNotPaths() throws {
        let face = try #require(SystemFonts.face(family: "Noto Sans CJK JP"))
        let chain = try FontFallbackChain.load(specs: [face.spec, BundledFonts.path("DejaVuSans.ttf")])
        let layout = try TextEngine(fonts: chain).layout(AttributedText("日本語 and Latin", style: TextStyle(size: 20)),
                                                        options: LayoutOptions(width: 300))
        let json = String(decoding: try JSONEncoder().encode(layout), as: UTF8.self)
        #expect(!json.contains(face.path) && !json.contains("/fonts/") && !json.contains(#""path""#), "\(json.prefix(600))")
        #expect(json.contains(#""family":"Noto Sans CJK JP""#))
        let decoded = try JSONDecoder().decode(TextLayout.self, from: Data(json.utf8))
        #expect(decoded.lines.flatMap(\.runs).map(\.font.path) == layout.lines.flatMap(\.runs).map(\.font.path))
        let a = try TextRenderer().render(layout, options: RenderOptions(scale: 1)).bitmap
        let b = try TextRenderer().render(decoded, options: RenderOptions(scale: 1)).bitmap
        #expect(a?.pixels == b?.pixels)
    }
}
