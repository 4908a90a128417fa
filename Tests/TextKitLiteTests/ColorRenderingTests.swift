import Foundation
import Testing
@testable import TextKitLite
@testable import TextKitLiteFeed

/// Drawing in color: the one "over" rule on gray and RGBA bitmaps, colored runs, their
/// backgrounds and decorations, and colors that never change a measurement.
@Suite struct ColorRenderingTests {
    static let red = Color(red: 255, green: 0, blue: 0)

    /// A one-pixel mask of `coverage` blended with `ink` over a one-pixel RGBA bitmap of
    /// `background`.
    static func blended(coverage: UInt8, ink: Color, over background: Color) throws -> (UInt8, UInt8, UInt8, UInt8) {
        var bitmap = try Bitmap(width: 1, height: 1, format: .rgba8, background: background)
        let glyph = CachedGlyph.make(GlyphImage(width: 1, height: 1, left: 0, top: 0, coverage: [coverage], luminance: nil))
        let (width, height) = (bitmap.width, bitmap.height)
        bitmap.pixels.withUnsafeMutableBufferPointer {
            TextRenderer.blit(glyph, into: TextRenderer.Canvas(pixels: $0, width: width, height: height, format: .rgba8), x: 0, y: 0, ink: ink)
        }
        return bitmap.pixel(x: 0, y: 0)
    }

    /// Exact premultiplied results: each channel moves toward the ink's by coverage × ink
    /// alpha, rounded to nearest; alpha toward 255.
    @Test func coverageInkAndBackgroundTriples() throws {
        // Opaque over opaque: (d × (255 − k) + s × k + 127) / 255 per channel.
        #expect(try Self.blended(coverage: 128, ink: Color(red: 200, green: 100, blue: 50), over: Color(red: 10, green: 20, blue: 30))
            == (105, 60, 40, 255))
        #expect(try Self.blended(coverage: 255, ink: Color(red: 29, green: 155, blue: 240), over: .white) == (29, 155, 240, 255))
        #expect(try Self.blended(coverage: 0, ink: .black, over: Color(red: 1, green: 2, blue: 3)) == (1, 2, 3, 255))
        // Over transparent: the premultiplied ink at that coverage.
        #expect(try Self.blended(coverage: 128, ink: Color(red: 255, green: 0, blue: 0), over: .transparent) == (128, 0, 0, 128))
        #expect(try Self.blended(coverage: 255, ink: Color(red: 255, green: 255, blue: 255, alpha: 128), over: .transparent)
            == (128, 128, 128, 128))
        // Translucent ink: coverage 255 × alpha 51 / 255 = 51.
        #expect(try Self.blended(coverage: 255, ink: Color(red: 0, green: 0, blue: 0, alpha: 51), over: .white) == (204, 204, 204, 255))
        // Translucent over translucent (premultiplied 0, 0, 100 of alpha 100).
        #expect(try Self.blended(coverage: 102, ink: Color(red: 250, green: 0, blue: 0), over: Color(red: 0, green: 0, blue: 255, alpha: 100))
            == (100, 0, 60, 162))
    }

    /// Gray ink on an RGBA bitmap gives, in each color channel, exactly the gray bitmap's
    /// level: one rule for both formats, and gray output as it always was (color glyphs
    /// aside: an RGBA bitmap draws them in color).
    @Test func grayInkInRGBAEqualsTheGrayBitmap() throws {
        let layout = try Fixtures.layout("Gray text, 灰色文字 and عربي, in several lines.", size: 15, LayoutOptions(width: 200))
        let gray = try #require(TextRenderer().render(layout, options: RenderOptions(scale: 2)).bitmap)
        let rgba = try #require(TextRenderer().render(layout, options: RenderOptions(scale: 2, format: .rgba8)).bitmap)
        #expect(rgba.format == .rgba8 && rgba.width == gray.width && rgba.height == gray.height)
        #expect(rgba.pixels.count == 4 * gray.pixels.count)
        var differing = 0
        for y in 0..<gray.height {
            for x in 0..<gray.width {
                let level = gray[x, y], pixel = rgba.pixel(x: x, y: y)
                if pixel != (level, level, level, 255) { differing += 1 }
            }
        }
        #expect(differing == 0)
    }

    /// Colored runs are drawn in their colors; a gray bitmap draws each as its luma.
    @Test func coloredRunsAndTheirGrayLevels() throws {
        let red = Color(red: 220, green: 20, blue: 20), blue = Color(red: 20, green: 20, blue: 220)
        var text = AttributedText("RRRR BBBB", style: TextStyle(size: 30, ink: red))
        text.updateStyles(in: [5..<9]) { $0.ink = blue }
        let layout = try Fixtures.engine.layout(text, options: LayoutOptions())
        let bitmap = try #require(TextRenderer().render(layout, options: RenderOptions(format: .rgba8)).bitmap)
        let half = bitmap.width / 2
        var reds = 0, blues = 0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap.pixel(x: x, y: y)
                guard p.alpha == 255, Int(p.red) + Int(p.green) + Int(p.blue) < 500 else { continue }  // inked
                if x < half { #expect(p.red >= p.blue); reds += 1 } else { #expect(p.blue >= p.red); blues += 1 }
            }
        }
        #expect(reds > 50 && blues > 50)
        let gray = try #require(TextRenderer().render(layout).bitmap)
        #expect(gray.pixels.min() == red.grayLevel || gray.pixels.min() == blue.grayLevel)
    }

    /// A run's background is line-tall and continuous across runs of other inks; the
    /// decoration takes its own color.
    @Test func backgroundsAndDecorationColors() throws {
        let yellow = Color(red: 255, green: 230, blue: 0), green = Color(red: 0, green: 160, blue: 0)
        var text = AttributedText("plain tapped here plain", style: TextStyle(size: 20))
        text.updateStyles(in: [6..<12]) { $0.background = yellow }
        text.updateStyles(in: [12..<17]) { $0.background = yellow; $0.ink = Color(red: 0, green: 0, blue: 200) }
        text.updateStyles(in: [18..<23]) { $0.underline = true; $0.decorationColor = green }
        let layout = try Fixtures.engine.layout(text, options: LayoutOptions())
        let bitmap = try #require(TextRenderer().render(layout, options: RenderOptions(format: .rgba8, inkOverflow: .clip)).bitmap)
        let runs = layout.lines[0].runs
        let start = try #require(runs.first { $0.range.contains(6) }).x, end = try #require(runs.first { $0.range.contains(16) })
        let left = Int(start.rounded()) + 1, right = Int((end.x + end.width).rounded()) - 1
        // The top rows of the line, across both runs, are all background.
        for y in [0, 1] {
            for x in left..<right { #expect(bitmap.pixel(x: x, y: y) == (255, 230, 0, 255), "x \(x) y \(y)") }
        }
        // Outside the span, the top row is white.
        #expect(bitmap.pixel(x: 1, y: 0) == (255, 255, 255, 255))
        // The underline of the last word is green, not the ink.
        let underlined = (0..<bitmap.height).flatMap { y in (0..<bitmap.width).map { bitmap.pixel(x: $0, y: y) } }
            .filter { $0 == (0, 160, 0, 255) }
        #expect(underlined.count > 20)
    }

    /// Colors are not shaping attributes: a highlight's color changes no line, no position and
    /// shapes nothing again.
    @Test func aHighlightColorChangesNoMeasurementAndNoLine() throws {
        let engine = TextEngine(fonts: Fixtures.engine.fonts)
        let string = "Meet @someone at #话题# and see https://example.com/a/long/path today, @other."
        func layout(_ style: HighlightStyle) throws -> TextLayout {
            try engine.layout(Highlighter().attributed(string, style: TextStyle(size: 16), highlightStyle: style),
                              options: LayoutOptions(width: 180))
        }
        let gray = try layout(HighlightStyle(ink: 70))
        let misses = engine.shapeCache.statistics.misses
        let colored = try layout(HighlightStyle(ink: Color(red: 0x1d, green: 0x9b, blue: 0xf0), kindInks: [.topic: Self.red],
                                                background: Color(red: 200, green: 220, blue: 255)))
        #expect(engine.shapeCache.statistics.misses == misses)
        #expect(colored.lines.map(\.range) == gray.lines.map(\.range))
        #expect(colored.size == gray.size)
        #expect(colored.lines.flatMap(\.runs).map { $0.glyphs.map(\.position) } == gray.lines.flatMap(\.runs).map { $0.glyphs.map(\.position) })
        let measured = try engine.measure(Highlighter().attributed(string, style: TextStyle(size: 16),
                                                                  highlightStyle: HighlightStyle(ink: Self.red)),
                                          options: LayoutOptions(width: 180))
        #expect(measured.height == gray.size.height && measured.lineCount == gray.lineCount)
        let topic = try #require(colored.text.highlights.first { $0.kind == .topic })
        #expect(colored.text.style(at: topic.range.lowerBound).ink == Self.red)
    }

    /// The dark theme changes pixels, not one frame, and is measured once for both themes.
    @Test func theDarkThemeChangesPixelsButNotOneFrame() throws {
        let heights = HeightCache()
        let engine = TextEngine(fonts: Fixtures.engine.fonts)
        var darkStyle = FeedCellStyle()
        darkStyle.theme = .dark
        let light = FeedPrecomputer(engine: engine, heightCache: heights)
        let dark = FeedPrecomputer(engine: engine, style: darkStyle, heightCache: heights)
        let post = FeedPost(id: "9", author: "Mia", text: "Dark mode @everyone #夜间模式# https://example.com 🌙", quote: "quoted", images: 2)
        let measuredLight = try light.measure(post, width: 375)
        let measuredDark = try dark.measure(post, width: 375)
        #expect(dark.measurementCount == 0 && measuredDark == measuredLight)  // a height-cache hit
        let a = try light.layout(post, width: 375), b = try dark.layout(post, width: 375)
        #expect(a.height == b.height && a.elements.map(\.frame) == b.elements.map(\.frame))
        #expect(a.elements.map(\.id) == b.elements.map(\.id))
        let options = RenderOptions(scale: 1, format: .rgba8)
        var lightOptions = options, darkOptions = options
        lightOptions.background = FeedTheme.light.background
        darkOptions.background = FeedTheme.dark.background
        let lightBitmap = try #require(try CellRenderer().render(a, options: lightOptions))
        let darkBitmap = try #require(try CellRenderer().render(b, options: darkOptions))
        #expect(lightBitmap.width == darkBitmap.width && lightBitmap.height == darkBitmap.height)
        let background = FeedTheme.dark.background
        #expect(darkBitmap.pixel(x: 0, y: 0) == (background.red, background.green, background.blue, 255))
        #expect(lightBitmap.pixel(x: 0, y: 0) == (255, 255, 255, 255))
    }

    /// A COLRv0 glyph is drawn as its layers, bottom first, each in its palette color (the
    /// foreground layer in the run's ink) on an RGBA bitmap; a gray bitmap draws its own
    /// outline in the ink, as before colors.
    @Test func colrLayersInTheirPaletteColorsAndOrder() throws {
        let font = try Font.load(path: Fixtures.testsDirectory.appendingPathComponent("Fixtures/ColorLayers.ttf").path)
        let ink = Color(red: 200, green: 0, blue: 200)
        let text = AttributedText("\u{E000}", style: TextStyle(font: .font(font), size: 100, ink: ink))
        let layout = try Fixtures.engine.layout(text, options: LayoutOptions())
        let outcome = try TextRenderer().render(layout, options: RenderOptions(format: .rgba8, inkOverflow: .clip))
        let bitmap = try #require(outcome.bitmap)
        let baseline = Int(layout.lines[0].baseline.rounded()), pen = Double(layout.lines[0].runs[0].glyphs.map(\.position)[0].x)
        // A point in font units (1000 per em at 100 px: a tenth of a pixel each).
        func pixel(_ x: Double, _ y: Double) -> (UInt8, UInt8, UInt8, UInt8) {
            bitmap.pixel(x: Int((pen + x / 10).rounded(.down)), y: baseline - Int((y / 10).rounded(.up)))
        }
        #expect(pixel(150, 50) == (0xe0, 0x30, 0x1a, 255))  // the big square only: red
        #expect(pixel(300, 200) == (0x20, 0xa0, 0x40, 255))  // the middle one over it: green
        #expect(pixel(430, 330) == (24, 104, 128, 255))  // half-transparent blue over the green
        #expect(pixel(500, 400) == (200, 0, 200, 255))  // the foreground dot: the ink
        let gray = try #require(TextRenderer().render(layout, options: RenderOptions(inkOverflow: .clip)).bitmap)
        #expect(gray[Int(pen) + 15, baseline - 5] == ink.grayLevel && gray[Int(pen) + 50, baseline - 40] == ink.grayLevel)
    }

    /// A color emoji is drawn in color at every size: 👍's inked pixels are clearly more
    /// red than blue, none is clipped.
    @Test(arguments: [12.0, 15, 17, 40])
    func colorEmojiAtSizes(_ size: Double) throws {
        let layout = try Fixtures.layout("👍", size: size)
        let outcome = try TextRenderer().render(layout, options: RenderOptions(scale: 2, format: .rgba8, background: .transparent))
        let bitmap = try #require(outcome.bitmap)
        var red = 0, blue = 0, inked = 0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap.pixel(x: x, y: y)
                guard p.alpha > 128 else { continue }
                (red, blue, inked) = (red + Int(p.red), blue + Int(p.blue), inked + 1)
                #expect(p.red <= p.alpha && p.green <= p.alpha && p.blue <= p.alpha)
            }
        }
        #expect(inked > Int(size * size))
        #expect(Double(red) / Double(inked) > Double(blue) / Double(inked) + 60)
        // The edges of the bitmap are clear: nothing was cut (the bitmap grows to the ink).
        for x in 0..<bitmap.width { #expect(bitmap.pixel(x: x, y: 0).alpha < 255 && bitmap.pixel(x: x, y: bitmap.height - 1).alpha < 255) }
    }

    /// Colors are part of a layout's Codable form; a gray ink is still written as its level.
    @Test func colorsRoundTripThroughCodable() throws {
        var text = AttributedText("gray and colored", style: TextStyle(size: 15, ink: 70))
        text.updateStyles(in: [9..<16]) {
            $0.ink = Color(red: 29, green: 155, blue: 240)
            $0.background = Color(red: 255, green: 230, blue: 0, alpha: 128)
            $0.decorationColor = Self.red
            $0.underline = true
        }
        let layout = try Fixtures.engine.layout(text, options: LayoutOptions(width: 300))
        let data = try JSONEncoder().encode(layout)
        let json = String(decoding: data, as: UTF8.self)
        #expect(json.contains(#""ink":70"#) && json.contains(##""ink":"#1d9bf0""##) && json.contains(##""background":"#ffe60080""##)
                && json.contains(##""decorationColor":"#ff0000""##))
        let decoded = try JSONDecoder().decode(TextLayout.self, from: data)
        #expect(decoded.lines.flatMap(\.runs).map(\.style) == layout.lines.flatMap(\.runs).map(\.style))
        let drawn = try TextRenderer().render(layout, options: RenderOptions(format: .rgba8)).bitmap
        #expect(try TextRenderer().render(decoded, options: RenderOptions(format: .rgba8)).bitmap == drawn)
    }

    /// Fills and strokes blend translucent colors over what is there, and replace with opaque ones.
    @Test func translucentFills() throws {
        var bitmap = try Bitmap(width: 4, height: 4, format: .rgba8, background: Color(red: 0, green: 0, blue: 200))
        bitmap.fill(x: 1, y: 1, width: 2, height: 2, color: Color(red: 255, green: 0, blue: 0, alpha: 128))
        #expect(bitmap.pixel(x: 1, y: 1) == (128, 0, 100, 255))
        #expect(bitmap.pixel(x: 0, y: 0) == (0, 0, 200, 255))
        bitmap.strokeRectangle(x: 0, y: 0, width: 4, height: 4, color: Color(red: 0, green: 0, blue: 0, alpha: 128))
        // Each outline pixel is blended once, corners included.
        #expect(bitmap.pixel(x: 0, y: 0) == (0, 0, 100, 255) && bitmap.pixel(x: 3, y: 3) == (0, 0, 100, 255))
        var gray = try Bitmap(width: 2, height: 1, fill: 100)
        gray.fill(x: 0, y: 0, width: 1, height: 1, color: Color(red: 255, green: 255, blue: 255, alpha: 51))
        #expect(gray.pixels == [131, 100])
        #expect(try Bitmap(width: 1, height: 1, format: .gray8, background: Color(gray: 0).withAlpha(128)).pixels == [127])
    }
}

extension Color {
    fileprivate func withAlpha(_ alpha: UInt8) -> Color { Color(red: red, green: green, blue: blue, alpha: alpha) }
}
