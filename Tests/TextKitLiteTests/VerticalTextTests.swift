import Foundation
import Testing
@testable import TextKitLite

/// Vertical text (`LayoutOptions.WritingMode.vertical`): columns right to left, CJK upright
/// in its vertical forms, Latin turned sideways; measured, drawn, hit-tested and Codable.
@Suite struct VerticalTextTests {
    static func vertical(_ length: Double, maxLines: Int = 0) -> LayoutOptions {
        LayoutOptions(width: length, maxLines: maxLines, writingMode: .vertical)
    }

    static func layout(_ string: String, size: Double = 20, _ options: LayoutOptions) throws -> TextLayout {
        try Fixtures.engine.layout(AttributedText(string, style: TextStyle(size: size)), options: options)
    }

    /// The box of the inked pixels of a bitmap drawn black on white.
    static func inkBox(_ bitmap: Bitmap) -> (width: Int, height: Int)? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap.pixels[y * bitmap.width + x] < 128 {
                (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
            }
        }
        return maxX < 0 ? nil : (maxX - minX + 1, maxY - minY + 1)
    }

    /// A column's glyphs advance by the font's vertical advances (an ideograph's is one em in
    /// Noto Sans CJK's `vmtx`; an emoji's differs from its horizontal one), and stand upright; the columns
    /// stack right to left, the layout's width is theirs and its height the column length.
    @Test func columnsAdvanceByVerticalAdvances() throws {
        let layout = try Self.layout("一二三四五六", size: 20, Self.vertical(70))
        #expect(layout.lines.count == 2)
        let run = try #require(layout.lines.first?.runs.first)
        #expect(run.isUpright)
        let xs = run.glyphs.map(\.position).map { Double($0.x) }
        #expect(zip(xs, xs.dropFirst()).allSatisfy { abs($1 - $0 - 20) < 1e-3 }, "\(xs)")
        #expect(layout.size.height == 70)
        #expect(abs(layout.size.width - layout.lines.reduce(0) { $0 + $1.frame.height }) < 1e-9)
        // Noto Color Emoji's 😀 advances 2,500 units down (vmtx) and 2,550 across (hmtx), per 2,048.
        let emoji = try #require(try Self.layout("😀😀😀", size: 20, Self.vertical(200)).lines.first?.runs.first)
        let down = emoji.glyphs.map(\.position).map { Double($0.x) }
        #expect(emoji.isUpright && zip(down, down.dropFirst()).allSatisfy { abs($1 - $0 - 20 * 2500 / 2048) < 1e-3 }, "\(down)")
        // Horizontal text's lines are not upright.
        let horizontal = try Self.layout("一二三", size: 20, LayoutOptions(width: 200))
        #expect(horizontal.lines[0].runs.allSatisfy { !$0.isUpright })
    }

    /// 「」。， take their vertical forms (the font's `vert` glyphs), other glyphs stay.
    @Test func punctuationTakesItsVerticalForms() throws {
        let marks = "「」。，"
        let upright = try Self.layout(marks, Self.vertical(300)).lines[0].runs.flatMap { $0.glyphs.map(\.id) }
        let flat = try Self.layout(marks, LayoutOptions(width: 300)).lines[0].runs.flatMap { $0.glyphs.map(\.id) }
        #expect(upright.count == 4 && flat.count == 4)
        #expect(zip(upright, flat).allSatisfy { $0 != $1 }, "\(upright) \(flat)")
        let ideographs = "明月"
        #expect(try Self.layout(ideographs, Self.vertical(300)).lines[0].runs.flatMap { $0.glyphs.map(\.id) }
                == (try Self.layout(ideographs, LayoutOptions(width: 300)).lines[0].runs.flatMap { $0.glyphs.map(\.id) }))
    }

    /// A Latin word in a column is turned sideways: its run is not upright, advances by its
    /// horizontal advances, and its drawn ink is taller than wide (wider than tall when
    /// horizontal).
    @Test func latinIsTurnedSideways() throws {
        let layout = try Self.layout("明月minimum明月", size: 20, Self.vertical(400))
        let runs = layout.lines[0].runs
        #expect(runs.map(\.isUpright) == [true, false, true])
        let flat = try Self.layout("minimum", size: 20, LayoutOptions(width: 400))
        #expect(abs(runs[1].width - flat.lines[0].runs[0].width) < 1e-9)
        let word = try Self.layout("minimum", size: 20, Self.vertical(400))
        let drawn = try #require(try TextRenderer().render(word, options: RenderOptions(scale: 2, format: .gray8)).bitmap)
        let flatDrawn = try #require(try TextRenderer().render(flat, options: RenderOptions(scale: 2, format: .gray8)).bitmap)
        let ink = try #require(Self.inkBox(drawn)), flatInk = try #require(Self.inkBox(flatDrawn))
        #expect(ink.height > 3 * ink.width, "\(ink)")
        #expect(ink.height == flatInk.width && ink.width == flatInk.height, "\(ink) \(flatInk)")
        let bounds = try #require(word.inkBounds)
        #expect(bounds.height > 3 * bounds.width)
    }

    /// Latin letters after an upright neutral (©, U in UAX #50) turn sideways again, and
    /// ideographs after a sideways neutral stand upright: runs split where orientation does.
    @Test func orientationSplitsRunsAfterNeutrals() throws {
        for (text, upright) in [("a©bcdefg", [false, true, false]), ("©abc", [true, false]), ("明 月明月", [true, false, true])] {
            let runs = try Self.layout(text, Self.vertical(400)).lines[0].runs
            #expect(runs.map(\.isUpright) == upright, "\(text): \(runs.map { ($0.range, $0.isUpright) })")
        }
    }

    /// Hit testing finds characters by column (x) and position down it (y); a range's rect
    /// lies in its column.
    @Test func hitTestingFindsCharactersInColumns() throws {
        let layout = try Self.layout("一二三四五六", size: 20, Self.vertical(70))  // 一二三 | 四五六
        let columnWidth = layout.lines[0].frame.height
        let right = layout.size.width - columnWidth / 2, left = columnWidth / 2
        #expect(layout.characterIndex(at: Point(x: right, y: 4)) == 0)
        #expect(layout.characterIndex(at: Point(x: right, y: 26)) == 1)
        #expect(layout.characterIndex(at: Point(x: right, y: 56)) == 3)  // past the column's middle of 三: its end
        #expect(layout.characterIndex(at: Point(x: left, y: 4)) == 3)
        #expect(layout.characterIndex(at: Point(x: left, y: 46)) == 5)
        let rects = layout.rects(for: 1..<2)
        #expect(rects.count == 1)
        let rect = try #require(rects.first)
        #expect(abs(rect.x - (layout.size.width - columnWidth)) < 1e-9 && abs(rect.width - columnWidth) < 1e-9)
        #expect(abs(rect.y - 20) < 1e-3 && abs(rect.height - 20) < 1e-3, "\(rect)")
    }

    /// Measuring equals layout: the measured height is the layout's width; line starts agree.
    @Test func measuringEqualsLayout() throws {
        let text = AttributedText("床前明月光，疑是地上霜。Moonlight before my bed. 举头望明月，低头思故乡。", style: TextStyle(size: 18))
        for length in [60.0, 120, 250, .infinity] {
            for maxLines in [0, 2] {
                let options = Self.vertical(length, maxLines: maxLines)
                let layout = try Fixtures.engine.layout(text, options: options)
                let measured = try Fixtures.engine.measure(text, options: options)
                #expect(measured == TextMeasurement(layout), "\(length) \(maxLines)")
                #expect(measured.height == layout.size.width)
                let shaped = try Fixtures.engine.shape(text, writingMode: .vertical)
                #expect(try Fixtures.engine.measure(shaped, options: options) == measured)
            }
        }
        // Several lengths at once equal each alone.
        let lengths = [80.0, 160, 320]
        #expect(try Fixtures.engine.measure(text, options: Self.vertical(100), widths: lengths)
                == lengths.map { try Fixtures.engine.measure(text, options: Self.vertical($0)) })
    }

    /// A vertical layout round-trips through Codable and draws the same pixels from the
    /// decoded layout; horizontal options encode as they always did (no writing mode).
    @Test func codableRoundTripDrawsTheSamePixels() throws {
        let layout = try Self.layout("縦書き、Latin 123。「引用」です！😀", size: 18, Self.vertical(160, maxLines: 2))
        let data = try JSONEncoder().encode(layout)
        let decoded = try JSONDecoder().decode(TextLayout.self, from: data)
        #expect(decoded.isVertical && decoded.lines.flatMap(\.runs).map(\.isUpright) == layout.lines.flatMap(\.runs).map(\.isUpright))
        for format in [Bitmap.PixelFormat.gray8, .rgba8] {
            let options = RenderOptions(scale: 2, format: format)
            let a = try TextRenderer().render(layout, options: options), b = try TextRenderer().render(decoded, options: options)
            #expect(a.bitmap == b.bitmap && a.originX == b.originX && a.originY == b.originY)
        }
        let horizontal = String(decoding: try JSONEncoder().encode(LayoutOptions(width: 100)), as: UTF8.self)
        #expect(!horizontal.contains("writingMode"))
    }

    /// Drawing into a bitmap equals rendering: the async path (`DisplayTask`) and `render`
    /// make the same pixels, and the ink lies inside the frame they made.
    @Test func drawingAtAnOriginEqualsRendering() throws {
        let layout = try Self.layout("静夜思 床前明月光，疑是地上霜。", size: 16, Self.vertical(90))
        let options = RenderOptions(scale: 2, format: .gray8)
        let rendered = try #require(try TextRenderer().render(layout, options: options).bitmap)
        var bitmap = try Bitmap(width: rendered.width, height: rendered.height, format: .gray8, background: .white)
        let outcome = try TextRenderer().render(layout, options: options)
        TextRenderer().draw(layout, into: &bitmap, x: Double(outcome.originX) / 2, y: Double(outcome.originY) / 2, options: options)
        #expect(bitmap == rendered)
    }

    /// What vertical text cannot take is refused by name: exclusion shapes, and a text
    /// shaped for the other writing mode.
    @Test func refusals() throws {
        var options = Self.vertical(100)
        options.exclusions = [.circle(center: Point(x: 10, y: 10), radius: 5)]
        #expect(throws: LayoutError.self) { try options.validate() }
        // Refused for being vertical before the shapes are counted.
        let ring = (0..<600).map { Point(x: 50 + 40 * cos(Double($0) / 100), y: 50 + 40 * sin(Double($0) / 100)) }
        options.exclusions = [.polygon(ring), .polygon(ring)]
        #expect {
            try options.validate()
        } throws: { ($0 as? LayoutError)?.description.contains("vertical text takes none") == true }
        let shaped = try Fixtures.engine.shape(AttributedText("一二三"))
        #expect {
            try Fixtures.engine.layout(shaped, options: Self.vertical(100))
        } throws: { ($0 as? LayoutError)?.description.contains("writingMode") == true }
    }

    /// Upright characters at an odd bidi level (neutrals in a right-to-left paragraph, here
    /// U+FFFD) make a right-to-left word, its glyphs in visual order as any right-to-left
    /// word's: one longer than the column is cut at its grapheme clusters. (Their glyphs came
    /// top to bottom while read as visual order, and the whole word went on one column 238
    /// points long for 161; found by the layout fuzzer.)
    @Test func uprightRightToLeftWordsAreCutToTheColumn() throws {
        var options = Self.vertical(161)
        options.direction = .rightToLeft
        let text = AttributedText(String(repeating: "\u{FFFD}", count: 12), style: TextStyle(size: 17))
        let layout = try Fixtures.engine.layout(text, options: options)
        #expect(layout.lines.count == 2)
        for line in layout.lines {
            #expect(line.frame.width <= 161 + 1e-9, "column \(line.range) is \(line.frame.width) long")
        }
        let runs = layout.lines.flatMap(\.runs)
        #expect(!runs.isEmpty && runs.allSatisfy { $0.isUpright && $0.isRightToLeft })
        for run in runs {
            #expect(zip(run.glyphs.map(\.cluster), run.glyphs.map(\.cluster).dropFirst()).allSatisfy { $0 > $1 }, "clusters \(run.glyphs.map(\.cluster)) not in visual order")
        }
        #expect(try Fixtures.engine.measure(text, options: options) == TextMeasurement(layout))
        // The word reads upwards: the top of the first column is where its part ends.
        #expect(layout.characterIndex(at: Point(x: layout.size.width - 1, y: 1)) == layout.lines[0].range.upperBound)
    }
}
