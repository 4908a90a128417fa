import Foundation
import Testing
@testable import TextKitLite

@Suite struct FontTests {
    @Test func bundledFontsLoadWithNamesAndMetrics() throws {
        let chain = Fixtures.engine.fonts
        #expect(chain.fonts.map(\.familyName) == ["DejaVu Sans", "Noto Sans CJK SC", "Noto Color Emoji"])
        let metrics = Fixtures.sans.metrics(size: 20)
        #expect(metrics.ascent > 15 && metrics.ascent < 20)
        #expect(metrics.descent > 3 && metrics.descent < 6)
        #expect(Fixtures.sans.metrics(size: 40).ascent == metrics.ascent * 2)
        #expect(Fixtures.emoji.isColor)
        #expect(!Fixtures.sans.isColor)
        #expect(Fixtures.sans.unitsPerEm == 2048)
        #expect(Fixtures.cjk.unitsPerEm == 1000)
    }

    @Test func loadingTwiceSharesOneFont() throws {
        let a = try Font.load(path: BundledFonts.path(BundledFonts.sans))
        let b = try Font.load(path: BundledFonts.path(BundledFonts.sans))
        #expect(a === b)
    }

    @Test func missingFileIsATypedError() {
        #expect(throws: FontError(path: "/nonexistent/x.ttf", reason: .notFound)) {
            try Font.load(path: "/nonexistent/x.ttf")
        }
    }

    @Test func directoryIsATypedError() {
        let directory = BundledFonts.directory
        #expect(throws: FontError(path: directory, reason: .isDirectory)) { try Font.load(path: directory) }
    }

    @Test func emptyAndNonFontFilesAreTypedErrors() throws {
        let empty = Fixtures.temporaryPath("empty.ttf")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        #expect(throws: FontError(path: empty, reason: .empty)) { try Font.load(path: empty) }

        let text = Fixtures.temporaryPath("text.ttf")
        _ = FileManager.default.createFile(atPath: text, contents: Data("not a font at all".utf8))
        do {
            _ = try Font.load(path: text)
            Issue.record("a text file loaded as a font")
        } catch {
            guard case .notAFont = error.reason else { Issue.record("unexpected \(error)"); return }
            #expect(error.description.contains(text))
        }
    }

    @Test func truncatedFontIsATypedError() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: BundledFonts.path(BundledFonts.sans)))
        let path = Fixtures.temporaryPath("truncated.ttf")
        _ = FileManager.default.createFile(atPath: path, contents: bytes.prefix(4000))
        do {
            let font = try Font.load(path: path)
            Issue.record("truncated font loaded: \(font)")
        } catch {
            guard case .notAFont = error.reason else { Issue.record("unexpected \(error)"); return }
        }
    }

    @Test func faceIndexOutOfRange() {
        let path = BundledFonts.path(BundledFonts.sans)
        #expect(throws: FontError(path: path, reason: .faceIndexOutOfRange(index: 3, faceCount: 1))) {
            try Font.load(path: path, faceIndex: 3)
        }
        #expect(throws: FontError.self) { try Font.load(path: path, faceIndex: -1) }
    }

    @Test func fontSpecParsesFaceIndex() throws {
        #expect(try FontFallbackChain.parse(spec: "/a/b.ttc#2") == ("/a/b.ttc", 2))
        #expect(try FontFallbackChain.parse(spec: "/a/b.ttf") == ("/a/b.ttf", 0))
        #expect(throws: FontError.self) { try FontFallbackChain.parse(spec: "/a/b.ttc#x") }
    }

    @Test func collectionFacesLoadByIndex() throws {
        // A real two-face collection built from the bundled fonts (see Fixtures/README.md).
        let path = Fixtures.testsDirectory.appendingPathComponent("Fixtures/TwoFaces.ttc").path
        let regular = try Font.load(path: path, faceIndex: 0)
        let bold = try Font.load(path: path, faceIndex: 1)
        #expect(regular.styleName == "Book" || regular.styleName == "Regular")
        #expect(bold.styleName == "Bold")
        #expect(throws: FontError(path: path, reason: .faceIndexOutOfRange(index: 2, faceCount: 2))) {
            try Font.load(path: path, faceIndex: 2)
        }
    }
}

@Suite struct FallbackTests {
    private func fonts(of string: String) throws -> [String] {
        let layout = try Fixtures.layout(string)
        return layout.allRuns.map(\.font.familyName)
    }

    @Test func eachClusterGoesToTheFirstCoveringFont() throws {
        #expect(try fonts(of: "abc") == ["DejaVu Sans"])
        #expect(try fonts(of: "中文") == ["Noto Sans CJK SC"])
        #expect(try fonts(of: "😀") == ["Noto Color Emoji"])
        #expect(try fonts(of: "مرحبا") == ["DejaVu Sans"])
        #expect(try fonts(of: "שלום") == ["DejaVu Sans"])
        #expect(try fonts(of: "ab中文cd😀") == ["DejaVu Sans", "Noto Sans CJK SC", "DejaVu Sans", "Noto Color Emoji"])
    }

    @Test func emojiPresentationPrefersTheColorFont() throws {
        // U+2764 HEAVY BLACK HEART is covered by DejaVu Sans; with VS16 it is an emoji.
        #expect(try fonts(of: "\u{2764}\u{FE0F}") == ["Noto Color Emoji"])
        #expect(try fonts(of: "\u{2764}") == ["DejaVu Sans"])
        // A ZWJ sequence and a skin tone stay one cluster in one font.
        let family = try Fixtures.layout("👨‍👩‍👧 👍🏽")
        #expect(family.allRuns.contains { $0.font.isColor && $0.glyphs.count == 1 && $0.range.count == 8 })
    }

    @Test func uncoveredCharacterDrawsThePrimaryNotdef() throws {
        // U+1D11E MUSICAL SYMBOL G CLEF: in no bundled font.
        let layout = try Fixtures.layout("a\u{1D11E}b")
        let runs = layout.allRuns
        #expect(runs.allSatisfy { $0.font == Fixtures.sans })
        #expect(runs.flatMap { $0.glyphs.map(\.id) }.contains(0))
        let outcome = try TextRenderer().render(layout)
        #expect(outcome.bitmap != nil)
    }

    @Test func explicitFontAndFamilyComeFirst() throws {
        let bold = try Font.load(path: BundledFonts.path(BundledFonts.sansBold))
        var text = AttributedText("Bold 中", style: TextStyle(font: .font(bold)))
        text.append(" plain", style: TextStyle())
        let layout = try Fixtures.engine.layout(text)
        let families = layout.allRuns.map { "\($0.font.familyName) \($0.font.styleName)" }
        #expect(families == ["DejaVu Sans Bold", "Noto Sans CJK SC Regular", "DejaVu Sans Book"])

        let cjkFirst = try Fixtures.engine.layout(AttributedText("(1)", style: TextStyle(font: .family("noto sans cjk sc"))))
        #expect(cjkFirst.allRuns.map(\.font) == [Fixtures.cjk])
    }
}
