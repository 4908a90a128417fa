import Foundation
import Testing
@testable import TextKitLite

/// Balanced lines (`LayoutOptions.lineBalance`) and the narrowest width that keeps a text
/// within a number of lines (`TextEngine.narrowestWidth`), both found from a shaped text's
/// break units without shaping again.
@Suite struct LineBalanceTests {
    static let headlines = [
        "Scientists discover a new species of deep-sea fish that glows in the dark",
        "City council approves the new bike lanes after a long and heated debate",
        "Local bakery wins the national award for the best sourdough bread of the year",
        "科学家在深海发现一种会在黑暗中发光的新鱼类，研究成果发表于本周的自然杂志",
        "مجلس المدينة يوافق على مسارات الدراجات الجديدة بعد نقاش طويل وحاد",
    ]

    static func options(width: Double, balanced: Bool, maxLines: Int = 0, insets: Double = 0) -> LayoutOptions {
        var options = LayoutOptions(width: width, maxLines: maxLines, alignment: .center, insets: EdgeInsets(all: insets))
        options.lineBalance = balanced
        return options
    }

    static func spread(_ layout: TextLayout) -> Double {
        let widths = layout.lines.map(\.frame.width)
        return widths.max()! - widths.min()!
    }

    /// Balanced lines: as many as greedy breaking gives, their lengths closer to each other,
    /// no wider than the greedy ones, still centred in the full width; measuring gives the
    /// layout's height and line starts, streamed, shaped and at several widths.
    @Test(arguments: headlines)
    func balancedLinesAreEvenAndKeepTheirCount(_ headline: String) throws {
        let engine = Fixtures.engine
        let text = AttributedText(headline, style: TextStyle(size: 24))
        var evener = 0
        for width in [180.0, 240, 300, 420] {
            let greedy = try engine.layout(text, options: Self.options(width: width, balanced: false, insets: 6))
            let options = Self.options(width: width, balanced: true, insets: 6)
            let balanced = try engine.layout(text, options: options)
            #expect(balanced.lineCount == greedy.lineCount, "\(width)")
            #expect(Self.spread(balanced) <= Self.spread(greedy) + 1e-9, "\(width): \(Self.spread(balanced)) vs \(Self.spread(greedy))")
            if Self.spread(balanced) < Self.spread(greedy) - 1 { evener += 1 }
            #expect(balanced.measuredWidth <= greedy.measuredWidth + 1e-9)
            #expect(balanced.size.width == width)
            for line in balanced.lines {  // centred in the full content width
                #expect(line.frame.width <= width - 12 + 1e-6)
                #expect(abs(line.frame.x - 6 - (width - 12 - line.frame.width) / 2) < 1e-6)
            }
            let measured = try engine.measure(text, options: options)
            #expect(measured == TextMeasurement(balanced), "\(width)")
            #expect(try engine.measure(try engine.shape(text), options: options) == measured)
            #expect(try engine.measure(text, options: options, widths: [width, 500])[0] == measured)
            // The lines are those greedy breaking gives at the narrowest width for their count.
            let narrowest = try #require(try engine.narrowestWidth(of: try engine.shape(text), lines: greedy.lineCount,
                                                                   options: Self.options(width: width, balanced: false, insets: 6)))
            let atNarrowest = try engine.layout(text, options: Self.options(width: narrowest, balanced: false, insets: 6))
            #expect(atNarrowest.lines.map(\.range) == balanced.lines.map(\.range))
            #expect(abs(balanced.measuredWidth - narrowest) < 1e-9)
        }
        // Greedy lines are sometimes balanced already (the last line as long as the others).
        #expect(evener >= 1, "balancing evened out the lines at \(evener) widths of 4")
    }

    /// A text cut at `maxLines` is not balanced (its lines are the greedy ones); one that
    /// fits them is.
    @Test func truncatedTextIsNotBalanced() throws {
        let text = AttributedText(Self.headlines[0], style: TextStyle(size: 24))
        let greedy = try Fixtures.engine.layout(text, options: Self.options(width: 300, balanced: false, maxLines: 2))
        let balanced = try Fixtures.engine.layout(text, options: Self.options(width: 300, balanced: true, maxLines: 2))
        #expect(greedy.isTruncated && balanced.isTruncated)
        #expect(balanced.lines.map(\.range) == greedy.lines.map(\.range))
        let roomy = try Fixtures.engine.layout(text, options: Self.options(width: 300, balanced: true, maxLines: 4))
        #expect(!roomy.isTruncated && roomy.lineCount == 4)
        #expect(Self.spread(roomy) < Self.spread(try Fixtures.engine.layout(text, options: Self.options(width: 300, balanced: false))))
    }

    /// The narrowest width keeps the text within N lines and one point less does not; one
    /// line gives the natural width; more paragraphs than lines give nil.
    @Test func narrowestWidthKeepsTheLineCount() throws {
        let engine = Fixtures.engine
        for headline in Self.headlines {
            let shaped = try engine.shape(AttributedText(headline, style: TextStyle(size: 17)))
            let natural = try engine.layout(shaped, options: LayoutOptions()).measuredWidth
            #expect(try engine.narrowestWidth(of: shaped, lines: 1) == natural)
            for lines in 1...5 {
                for insets in [0.0, 8] {
                    let options = LayoutOptions(insets: EdgeInsets(all: insets))
                    let width = try #require(try engine.narrowestWidth(of: shaped, lines: lines, options: options))
                    let fits = try engine.layout(shaped, options: options.at(width: width))
                    #expect(fits.lineCount <= lines, "\(headline.prefix(12)) \(lines) lines at \(width)")
                    #expect(abs(fits.measuredWidth - width) < 1e-9)
                    if width - 1 > 2 * insets {
                        let narrower = try engine.layout(shaped, options: options.at(width: width - 1))
                        #expect(narrower.lineCount > lines, "\(headline.prefix(12)) \(lines) lines at \(width) - 1")
                    }
                }
            }
        }
        let twoParagraphs = try engine.shape(AttributedText("Title\nSubtitle", style: TextStyle(size: 17)))
        #expect(try engine.narrowestWidth(of: twoParagraphs, lines: 1) == nil)
        #expect(try engine.narrowestWidth(of: twoParagraphs, lines: 2) != nil)
        let capped = try engine.narrowestWidth(of: try engine.shape(AttributedText(Self.headlines[0])), lines: 1,
                                               options: LayoutOptions(width: 100))
        #expect(capped == nil)
        #expect(throws: LayoutError.self) { try engine.narrowestWidth(of: twoParagraphs, lines: 0) }
    }

    /// Balancing and the narrowest width break the shaped text again: nothing is shaped,
    /// nothing is even looked up in the shaped-word cache.
    /// A word too long for a line, cut over lines at the width (emergency breaks), keeps its
    /// line count when balanced. The search records each cut's width as it was compared:
    /// the line's own sum can round a few ulps past the width, and such a line once counted
    /// as none that fit, so the search ended at the last line's width (11 lines became 35).
    @Test func aWordCutOverLinesKeepsItsLineCount() throws {
        let text = AttributedText(String(repeating: "K", count: 103) + "\u{0}", style: TextStyle(size: 29.985))
        let greedy = try Fixtures.engine.layout(text, options: Self.options(width: 201, balanced: false))
        let options = Self.options(width: 201, balanced: true)
        let balanced = try Fixtures.engine.layout(text, options: options)
        #expect(greedy.lineCount == 11)
        #expect(balanced.lineCount == greedy.lineCount)
        #expect(balanced.measuredWidth <= greedy.measuredWidth)
        #expect(try Fixtures.engine.measure(text, options: options) == TextMeasurement(balanced))
    }

    @Test func noTextIsShapedAgain() throws {
        let engine = TextEngine(fonts: Fixtures.engine.fonts)
        let shaped = try engine.shape(AttributedText(Self.headlines[0] + " " + Self.headlines[3], style: TextStyle(size: 20)))
        let shapings = engine.shapeCache.shapingCount, lookups = engine.shapeCache.statistics
        #expect(shapings > 0)
        for width in [150.0, 260, 333] {
            let options = Self.options(width: width, balanced: true)
            let layout = try engine.layout(shaped, options: options)
            #expect(try engine.measure(shaped, options: options) == TextMeasurement(layout))
            _ = try engine.narrowestWidth(of: shaped, lines: layout.lineCount)
        }
        #expect(engine.shapeCache.shapingCount == shapings)
        #expect(engine.shapeCache.statistics == lookups)
    }

    /// With automatic hyphenation, the widths at which a hyphenation point's part fits count
    /// in the search too: the balanced width is the narrowest, so that laying the text out
    /// again at its measured width keeps its lines (a fuzzer find: a point's part narrower
    /// than the width tried was never compared, and the search stopped at 330 points where
    /// 290 keep three lines).
    @Test func hyphenationPointsCountInTheSearch() throws {
        let text = AttributedText("\0\0\0\0\0\u{02}\0\u{FFFD}{\"id\":1,\"autr\"oh:\"a\",\"htt//:pstext\":\"hi 🎉 @x #t#\u{301}ttps://g.co\u{01}"
                                  + "Collectionte\":\"q 世界\",\"images\"Q1}", style: TextStyle(size: 17.05))
        var options = Self.options(width: 361, balanced: true)
        options.hyphenation = Hyphenation(mode: .auto)
        let balanced = try Fixtures.engine.layout(text, options: options)
        var again = options
        again.width = balanced.measuredWidth
        let relaid = try Fixtures.engine.layout(text, options: again)
        #expect(balanced.lineCount == 3)
        #expect(relaid.lines.map(\.range) == balanced.lines.map(\.range))
        #expect(balanced.measuredWidth < 300)
    }

    /// Several paragraphs are broken at one width: the narrowest that keeps the text's lines.
    @Test func paragraphsShareTheBalancedWidth() throws {
        let text = AttributedText("Breaking news\n" + Self.headlines[1] + "\n" + Self.headlines[2], style: TextStyle(size: 18))
        let greedy = try Fixtures.engine.layout(text, options: Self.options(width: 330, balanced: false))
        let options = Self.options(width: 330, balanced: true)
        let balanced = try Fixtures.engine.layout(text, options: options)
        #expect(balanced.lineCount == greedy.lineCount)
        #expect(balanced.measuredWidth < greedy.measuredWidth)
        #expect(try Fixtures.engine.measure(text, options: options) == TextMeasurement(balanced))
        let narrowest = try #require(try Fixtures.engine.narrowestWidth(of: try Fixtures.engine.shape(text), lines: greedy.lineCount))
        let atNarrowest = try Fixtures.engine.layout(text, options: LayoutOptions(width: narrowest))
        #expect(atNarrowest.lines.map(\.range) == balanced.lines.map(\.range))
        #expect(Fixtures.lineTexts(balanced)[0] == "Breaking news\n")
    }

    /// `lineBalance` is encoded only when on (options without it encode as before), decodes
    /// back, and a balanced layout decoded draws the same pixels.
    @Test func balancedLayoutsRoundTrip() throws {
        let plain = try JSONEncoder().encode(LayoutOptions(width: 200))
        #expect(!String(decoding: plain, as: UTF8.self).contains("lineBalance"))
        let text = AttributedText(Self.headlines[0], style: TextStyle(size: 22))
        let layout = try Fixtures.engine.layout(text, options: Self.options(width: 300, balanced: true, insets: 4))
        let data = try JSONEncoder().encode(layout)
        #expect(String(decoding: data, as: UTF8.self).contains("\"lineBalance\":true"))
        let decoded = try JSONDecoder().decode(TextLayout.self, from: data)
        #expect(decoded.options.lineBalance && decoded.options == layout.options)
        #expect(decoded.lines.map(\.range) == layout.lines.map(\.range))
        let drawn = try #require(try TextRenderer().render(layout, options: RenderOptions(scale: 2)).bitmap)
        #expect(try TextRenderer().render(decoded, options: RenderOptions(scale: 2)).bitmap == drawn)
        var off = LayoutOptions(width: 200)
        off.lineBalance = true
        off.lineBalance = false
        #expect(off == LayoutOptions(width: 200))
    }
}
