import Foundation
import Testing
@testable import TextKitLite

/// Hyphenation (`LayoutOptions.hyphenation`, soft hyphens): libhyphen's US English patterns
/// (hyphen-en-us), the bundled sans, lines broken, measured, drawn and decoded.
@Suite struct HyphenationTests {
    static let english = "Internationalization and nationalization are characteristically extraordinary; hyphenation "
        + "makes narrow columns of representative, unquestionably uncharacteristic vocabulary considerably beautiful."

    static func options(width: Double, _ hyphenation: Hyphenation = .auto) -> LayoutOptions {
        LayoutOptions(width: width, hyphenation: hyphenation)
    }

    /// The layout's lines that end with a hyphen the breaker put there, with the hyphen's run.
    static func hyphenatedLines(_ layout: TextLayout) -> [(line: LayoutLine, run: GlyphRun)] {
        layout.lines.compactMap { line in
            guard let run = line.runs.last, run.glyphs.map(\.cluster).last.map({ Int($0) == line.range.upperBound }) == true else { return nil }
            return (line, run)
        }
    }

    /// The libhyphen points of the word around text offset `offset`, as UTF-16 offsets in
    /// the text (mapped here scalar by scalar, apart from the library's mapping).
    static func patternPoints(_ text: [UInt16], around offset: Int, before: Int = 2, after: Int = 2) throws -> Set<Int> {
        var start = offset, end = offset
        func isLetter(_ i: Int) -> Bool {
            let scalars = String(decoding: text[i..<min(text.count, i + 2)], as: UTF16.self).unicodeScalars
            return scalars.first.map { $0.properties.isAlphabetic } ?? false
        }
        while start > 0, isLetter(start - 1) || UTF16.isTrailSurrogate(text[start - 1]) { start -= 1 }
        while end < text.count, isLetter(end) || UTF16.isTrailSurrogate(text[end]) { end += 1 }
        let word = Array(String(decoding: text[start..<end], as: UTF16.self).unicodeScalars)
        let patterns = try #require(HyphenationPatterns.forLanguage("en"))
        let lower = word.map { $0.properties.lowercaseMapping.unicodeScalars.count == 1 ? $0.properties.lowercaseMapping.unicodeScalars.first! : $0 }
        var result: Set<Int> = []
        for index in patterns.breaks(in: lower, before: before, after: after) {
            result.insert(start + word[...index].reduce(0) { $0 + $1.utf16.count })
        }
        return result
    }

    @Test func patternsGiveTheDictionarysPoints() throws {
        let patterns = try #require(HyphenationPatterns.forLanguage("en-US"))
        #expect(HyphenationPatterns.forLanguage("en") === patterns)  // one dictionary, by its real file
        #expect(patterns.breaks(in: Array("hyphenation".unicodeScalars), before: 2, after: 2) == [1, 5])  // hy-phen-ation
        #expect(HyphenationPatterns.forLanguage("xx") == nil)
        #expect(HyphenationPatterns.forLanguage("fr") == nil)  // no French patterns installed
    }

    @Test func englishWordsSplitOnlyAtThePatternsPointsAboveTheMinimums() throws {
        let engine = Fixtures.engine
        let text = AttributedText(Self.english, style: TextStyle(size: 17))
        var hyphenated = 0
        for width in stride(from: 60.0, through: 260, by: 7) {
            let layout = try engine.layout(text, options: Self.options(width: width))
            for (line, _) in Self.hyphenatedLines(layout) {
                let b = line.range.upperBound
                #expect(try Self.patternPoints(text.utf16, around: b).contains(b), "width \(width): cut at \(b)")
                // At least 2 letters before the hyphen and 3 after (en-US's own right minimum).
                let units = text.utf16
                #expect(units[(b - 2)..<b].allSatisfy { Unicode.Scalar($0)!.properties.isAlphabetic })
                #expect(units[b..<(b + 3)].allSatisfy { Unicode.Scalar($0)!.properties.isAlphabetic })
                hyphenated += 1
            }
            // Never wider than the column (the hyphen included).
            #expect(layout.lines.allSatisfy { $0.frame.width <= width + 1e-6 }, "width \(width)")
        }
        #expect(hyphenated > 40)
    }

    @Test func minimumsAreHonoured() throws {
        let engine = Fixtures.engine
        let text = AttributedText("hyphenation hyphenation", style: TextStyle(size: 17))
        // "hyphenation" has 11 letters: hyphenated with a minimum of 11, not with 12.
        let eleven = try engine.layout(text, options: Self.options(width: 70, Hyphenation(mode: .auto, minimumWordLength: 11)))
        let twelve = try engine.layout(text, options: Self.options(width: 70, Hyphenation(mode: .auto, minimumWordLength: 12)))
        #expect(!Self.hyphenatedLines(eleven).isEmpty)
        #expect(Self.hyphenatedLines(twelve).isEmpty)
        #expect(twelve.lines.map(\.range) == (try engine.layout(text, options: Self.options(width: 70, .none))).lines.map(\.range))
        // Six letters before the hyphen at least: "hyphen-ation" only.
        let six = try engine.layout(text, options: Self.options(width: 300, Hyphenation(mode: .auto, minimumBefore: 6)))
        let narrow = try engine.layout(text, options: Self.options(width: 60, Hyphenation(mode: .auto, minimumBefore: 6)))
        #expect(Self.hyphenatedLines(six).isEmpty)  // fits: no hyphen
        #expect(Self.hyphenatedLines(narrow).allSatisfy { $0.line.range.upperBound == 6 || $0.line.range.upperBound == 18 })
        #expect(throws: LayoutError.self) { try engine.layout(text, options: Self.options(width: 60, Hyphenation(mode: .auto, minimumAfter: 0))) }
    }

    @Test func theHyphenIsDrawnCountedAndHitTestable() throws {
        let engine = Fixtures.engine
        let text = AttributedText("Hyphenation", style: TextStyle(size: 20))
        let layout = try engine.layout(text, options: Self.options(width: 95))
        let (line, run) = try #require(Self.hyphenatedLines(layout).first)
        #expect(line.range == 0..<6)  // "Hyphen-" / "ation"
        let hyphen = try #require(Fixtures.sans.harfBuzz.glyph(for: 0x2010))
        #expect(run.glyphs.last?.id == hyphen)
        // Counted: the line is as wide as its glyphs, the hyphen's advance included.
        let alone = try engine.layout(AttributedText("\u{2010}", style: TextStyle(size: 20)), options: LayoutOptions())
        let advance = alone.lines[0].frame.width
        let hyphenX = Double(run.glyphs.map(\.position).last!.x)
        #expect(advance > 3 && abs(line.frame.maxX - (hyphenX + advance)) < 0.5)
        let plain = try engine.layout(AttributedText("Hyphen", style: TextStyle(size: 20)), options: LayoutOptions())
        #expect(line.frame.width > plain.lines[0].frame.width + advance * 0.5)
        // Drawn: ink in the hyphen's box at mid x-height, none there when the word fits.
        let bitmap = try #require(try TextRenderer().render(layout, options: RenderOptions(scale: 2, format: .gray8)).bitmap)
        let y = Int(((line.baseline - 20 * 0.27) * 2).rounded())
        let inked = (Int(hyphenX * 2)..<Int((hyphenX + advance) * 2)).contains { bitmap[$0, y] < 128 }
        #expect(inked)
        // Hit testing: a point on the hyphen gives the offset of the break.
        #expect(layout.characterIndex(at: Point(x: hyphenX + advance * 0.7, y: line.frame.midY)) == 6)
    }

    @Test func noHyphenWhenTheWordFits() throws {
        let engine = Fixtures.engine
        let text = AttributedText(Self.english, style: TextStyle(size: 17))
        let wide = try engine.layout(text, options: Self.options(width: 2000))
        #expect(Self.hyphenatedLines(wide).isEmpty)
        let plain = try engine.layout(text, options: Self.options(width: 2000, .none))
        #expect(wide.lines.map { $0.runs.map(\.glyphs) } == plain.lines.map { $0.runs.map(\.glyphs) })
        // A language without patterns: today's lines.
        let french = AttributedText(Self.english, style: TextStyle(size: 17, language: "fr"))
        for width in [90.0, 150] {
            #expect(try engine.layout(french, options: Self.options(width: width)).lines.map(\.range)
                    == engine.layout(french, options: Self.options(width: width, .none)).lines.map(\.range))
        }
    }

    @Test func softHyphenShowsOnlyAtATakenBreak() throws {
        let engine = Fixtures.engine
        for mode in [Hyphenation.none, .auto] {
            let text = AttributedText("Un\u{AD}break\u{AD}able sen\u{AD}tences", style: TextStyle(size: 17))
            // Wide: no hyphen glyph anywhere; the soft hyphens take no room.
            let wide = try engine.layout(text, options: Self.options(width: 1000, mode))
            let hyphen = try #require(Fixtures.sans.harfBuzz.glyph(for: 0x2010))
            #expect(!wide.lines.flatMap(\.runs).flatMap { $0.glyphs.map(\.id) }.contains(hyphen))
            let bare = try engine.layout(AttributedText("Unbreakable sentences", style: TextStyle(size: 17)), options: LayoutOptions())
            #expect(abs(wide.lines[0].frame.width - bare.lines[0].frame.width) < 1e-6)
            // Narrow: broken after a soft hyphen, which shows as a hyphen at the line's end.
            let narrow = try engine.layout(text, options: Self.options(width: 70, mode))
            let ends = Self.hyphenatedLines(narrow)
            #expect(!ends.isEmpty, "\(mode)")
            for (line, run) in ends {
                #expect(text.utf16[line.range.upperBound - 1] == 0xAD)
                #expect(run.glyphs.last?.id == hyphen)
                #expect(line.frame.width <= 70 + 1e-6)
            }
            // Lines not ending at a soft hyphen show none.
            let hyphenCount = narrow.lines.flatMap(\.runs).flatMap { $0.glyphs.map(\.id) }.filter { $0 == hyphen }.count
            #expect(hyphenCount == ends.count)
        }
    }

    @Test func measuringEqualsLayout() throws {
        let engine = TextEngine(fonts: Fixtures.engine.fonts)
        let texts = [Self.english, "Un\u{AD}break\u{AD}able hy\u{AD}phen\u{AD}ation, " + Self.english,
                     "𝐡ypothetically naïveté Überrepresentation coöperation " + Self.english]
        for string in texts {
            let text = AttributedText(string, style: TextStyle(size: 16))
            for options in [LayoutOptions(hyphenation: .auto),
                            LayoutOptions(maxLines: 3, lineHeightMode: .uniform, hyphenation: .auto),
                            LayoutOptions(alignment: .justify, hyphenation: Hyphenation(mode: .auto, minimumWordLength: 6))] {
                let shaped = try engine.shape(text)
                let widths = stride(from: 40.0, through: 320, by: 9.5).map { $0 }
                let several = try engine.measure(text, options: options, widths: widths)
                for (w, width) in widths.enumerated() {
                    var options = options
                    options.width = width
                    let layout = try engine.layout(text, options: options)
                    let measured = try engine.measure(text, options: options)
                    #expect(measured == TextMeasurement(layout), "width \(width)")
                    #expect(try engine.measure(shaped, options: options) == measured, "shaped, width \(width)")
                    #expect(several[w] == measured, "several widths, width \(width)")
                    #expect(try engine.layout(shaped, options: options).lines.map(\.range) == layout.lines.map(\.range))
                }
            }
        }
    }

    @Test func nonASCIIWordsMapBackToTheirOffsets() throws {
        let engine = Fixtures.engine
        let text = AttributedText("𝐡ypothetically coöperation", style: TextStyle(size: 17))
        var hyphenated = 0
        for width in stride(from: 50.0, through: 140, by: 5) {
            for (line, _) in Self.hyphenatedLines(try engine.layout(text, options: Self.options(width: width))) {
                let b = line.range.upperBound
                #expect(try Self.patternPoints(text.utf16, around: b).contains(b), "width \(width): cut at \(b)")
                hyphenated += 1
            }
        }
        #expect(hyphenated > 0)
    }

    @Test func codableRoundTripDrawsPixelIdentical() throws {
        let engine = Fixtures.engine
        let text = AttributedText("Un\u{AD}break\u{AD}able " + Self.english, style: TextStyle(size: 17))
        let layout = try engine.layout(text, options: Self.options(width: 110))
        #expect(!Self.hyphenatedLines(layout).isEmpty)
        let data = try JSONEncoder().encode(layout)
        let decoded = try JSONDecoder().decode(TextLayout.self, from: data)
        #expect(decoded.options.hyphenation == .auto)
        let renderer = TextRenderer()
        let a = try #require(try renderer.render(layout, options: RenderOptions(scale: 2)).bitmap)
        let b = try #require(try renderer.render(decoded, options: RenderOptions(scale: 2)).bitmap)
        #expect(a == b)
        // Options without hyphenation encode as before: no key.
        let plain = try JSONEncoder().encode(LayoutOptions(width: 100))
        #expect(!String(decoding: plain, as: UTF8.self).contains("hyphenation"))
        let options = try JSONDecoder().decode(LayoutOptions.self, from: try JSONEncoder().encode(Self.options(width: 90, Hyphenation(mode: .auto, minimumAfter: 3))))
        #expect(options.hyphenation == Hyphenation(mode: .auto, minimumAfter: 3))
    }

    @Test func truncationReplacesTheHyphen() throws {
        let engine = Fixtures.engine
        let text = AttributedText("Hyphenation hyphenation hyphenation", style: TextStyle(size: 20))
        let layout = try engine.layout(text, options: LayoutOptions(width: 80, maxLines: 1, hyphenation: .auto))
        #expect(layout.isTruncated)
        let hyphen = try #require(Fixtures.sans.harfBuzz.glyph(for: 0x2010))
        #expect(!layout.lines[0].runs.flatMap { $0.glyphs.map(\.id) }.contains(hyphen))
        #expect(try engine.measure(text, options: LayoutOptions(width: 80, maxLines: 1, hyphenation: .auto)) == TextMeasurement(layout))
    }
}
