import Foundation
import Testing
@testable import TextKitLite

/// Ink bounds (`TextLayout.inkBounds`) and rendering ink outside the layout's box
/// (`RenderOptions.inkOverflow`): nothing inked is cut by default, `.clip` keeps the box.
@Suite struct InkBoundsTests {
    /// Texts whose ink reaches past their box, or close to it, in every style that changes ink.
    static let cases: [(name: String, text: String, style: TextStyle, options: LayoutOptions)] = [
        ("arabic stacked marks 40", "بِسْمِ اللَّهِ", TextStyle(size: 40), LayoutOptions()),
        ("arabic 17", "مرحبا بالعالم", TextStyle(size: 17), LayoutOptions()),
        ("italic overhang left", "jump", TextStyle(size: 40, isItalic: true), LayoutOptions()),
        ("italic overhang right", "fjord", TextStyle(size: 40, isItalic: true), LayoutOptions(alignment: .right)),
        ("emoji", "😀🎉", TextStyle(size: 40), LayoutOptions(width: 90)),
        ("bold emoji and Chinese", "粗体😀", TextStyle(size: 30, weight: .bold), LayoutOptions(width: 160, alignment: .right)),
        ("bold italic", "Bold jig", TextStyle(size: 30, weight: .bold, isItalic: true), LayoutOptions(alignment: .right)),
        ("underlined", "under jig", TextStyle(size: 20, underline: true, strikethrough: true), LayoutOptions(width: 120)),
        ("latin 17", "The quick brown fox jumps over the lazy dog.", TextStyle(size: 17), LayoutOptions(width: 200)),
    ]

    static func layout(_ c: (name: String, text: String, style: TextStyle, options: LayoutOptions)) throws -> TextLayout {
        try Fixtures.engine.layout(AttributedText(c.text, style: c.style), options: c.options)
    }

    /// Pixels of `bitmap` darker than the background, in the coordinates of a bitmap whose
    /// layout origin is at (originX, originY).
    static func inked(_ bitmap: Bitmap, originX: Int, originY: Int) -> [(x: Int, y: Int)] {
        var pixels: [(x: Int, y: Int)] = []
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap[x, y] != 255 { pixels.append((x - originX, y - originY)) }
        }
        return pixels
    }

    /// The layout drawn into a bitmap with `margin` pixels of room on every side: every
    /// pixel it can ink, with nothing cut.
    static func generous(_ layout: TextLayout, scale: Double, margin: Int = 60) throws -> Bitmap {
        let options = RenderOptions(scale: scale, inkOverflow: .clip)
        var bitmap = try Bitmap(width: options.pixels(layout.size.width) + 2 * margin,
                                height: options.pixels(layout.size.height) + 2 * margin)
        TextRenderer().draw(layout, into: &bitmap, x: 0, y: 0, shiftX: margin, shiftY: margin, options: options,
                            isCancelled: { false }, lineDrawn: { _ in })
        return bitmap
    }

    @Test(arguments: [1.0, 2.0, 3.0])
    func theDefaultBitmapHoldsEveryInkedPixel(scale: Double) throws {
        for c in Self.cases {
            let layout = try Self.layout(c)
            let outcome = try TextRenderer().render(layout, options: RenderOptions(scale: scale))
            let bitmap = try #require(outcome.bitmap)
            let margin = 60
            let all = try Self.generous(layout, scale: scale, margin: margin)
            let everything = Self.inked(all, originX: margin, originY: margin)
            #expect(!everything.isEmpty, "\(c.name)")
            // The default bitmap is the generous one cut to the box and the ink, pixel for pixel.
            for y in 0..<bitmap.height {
                for x in 0..<bitmap.width {
                    let (gx, gy) = (x - outcome.originX + margin, y - outcome.originY + margin)
                    guard all[gx, gy] == bitmap[x, y] else {
                        Issue.record("\(c.name) at \(scale)×: pixel (\(x), \(y)) differs from the generous render")
                        return
                    }
                }
            }
            let darker = Self.inked(bitmap, originX: outcome.originX, originY: outcome.originY)
            #expect(darker.count == everything.count, "\(c.name) at \(scale)×: \(everything.count - darker.count) inked pixels cut")
            // No wider than it must be: the box, or ink on each side beyond it.
            let box = TextRenderer().box(of: layout, options: RenderOptions(scale: scale))
            let minX = everything.map(\.x).min()!, maxX = everything.map(\.x).max()!
            let minY = everything.map(\.y).min()!, maxY = everything.map(\.y).max()!
            #expect(outcome.originX == max(0, -minX) && outcome.originY == max(0, -minY), "\(c.name) at \(scale)×")
            #expect(bitmap.width == max(box.maxX, maxX + 1) + outcome.originX, "\(c.name) at \(scale)×")
            #expect(bitmap.height == max(box.maxY, maxY + 1) + outcome.originY, "\(c.name) at \(scale)×")
        }
    }

    /// The layout's ink bounds (unhinted, in points) hold every inked pixel to within two
    /// pixels of hinting and snapping.
    @Test(arguments: [1.0, 2.0])
    func inkBoundsHoldEveryInkedPixel(scale: Double) throws {
        for c in Self.cases {
            let layout = try Self.layout(c)
            let ink = try #require(layout.inkBounds, "\(c.name)")
            let margin = 60
            let pixels = Self.inked(try Self.generous(layout, scale: scale, margin: margin), originX: margin, originY: margin)
            let slack = 2.0  // pixels: hinting (under one), baseline and offset rounding (half each)
            let outside = pixels.filter { p in
                Double(p.x) < ink.x * scale - slack || Double(p.x + 1) > ink.maxX * scale + slack
                    || Double(p.y) < ink.y * scale - slack || Double(p.y + 1) > ink.maxY * scale + slack
            }
            #expect(outside.isEmpty, "\(c.name) at \(scale)×: \(outside.count) inked pixels outside \(ink), e.g. \(outside.prefix(3))")
            // And they are not much larger than the ink, for outlines drawn upright (a slanted
            // glyph's sheared box and a color bitmap's box, with its transparent margin, are).
            guard !c.style.isItalic, !c.text.unicodeScalars.contains(where: \.properties.isEmojiPresentation) else { continue }
            let minX = Double(pixels.map(\.x).min()!), maxX = Double(pixels.map(\.x).max()! + 1)
            let minY = Double(pixels.map(\.y).min()!), maxY = Double(pixels.map(\.y).max()! + 1)
            #expect(ink.x * scale > minX - 2 && ink.maxX * scale < maxX + 2 && ink.y * scale > minY - 2 && ink.maxY * scale < maxY + 2,
                    "\(c.name) at \(scale)×: \(ink) vs pixels \(minX)...\(maxX) × \(minY)...\(maxY)")
        }
    }

    @Test func stackedMarksAndItalicOverhangReachPastTheBox() throws {
        let arabic = try Self.layout(Self.cases[0])
        let marks = try #require(arabic.inkBounds)
        #expect(marks.y < -5 && marks.maxY > arabic.size.height, "\(marks) in \(arabic.size)")
        let outcome = try TextRenderer().render(arabic)
        let bitmap = try #require(outcome.bitmap)
        #expect(outcome.originY > 5 && bitmap.height > Int(arabic.size.height.rounded(.up)) + 5)

        let jump = try Self.layout(Self.cases[2])
        #expect(try #require(jump.inkBounds).x < -1)
        #expect(try TextRenderer().render(jump).originX >= 1)
        let fjord = try Self.layout(Self.cases[3])
        #expect(try #require(fjord.inkBounds).maxX > fjord.size.width + 1)
    }

    @Test func plainLatinInkLiesWithinTheBox() throws {
        let layout = try Fixtures.layout("Hello, world. The quick brown fox jumps over the lazy dog.", size: 17, LayoutOptions(width: 200))
        let ink = try #require(layout.inkBounds)
        #expect(layout.bounds.contains(ink), "\(ink) in \(layout.bounds)")
        #expect(ink.x > 0 && ink.x < 3 && ink.width > 150 && ink.height > 2 * 12)
        let outcome = try TextRenderer().render(layout)
        let clipped = try TextRenderer().render(layout, options: RenderOptions(inkOverflow: .clip))
        #expect(outcome.originX == 0 && outcome.originY == 0)
        #expect(outcome.bitmap == clipped.bitmap)
    }

    @Test func nothingInkedHasNoInkBounds() throws {
        #expect(try Fixtures.layout("").inkBounds == nil)
        #expect(try Fixtures.layout("   ").inkBounds == nil)
    }

    @Test func theExactBoxIsTheOldBitmap() throws {
        for c in Self.cases {
            let layout = try Self.layout(c)
            for scale in [1.0, 2.0] {
                let options = RenderOptions(scale: scale, inkOverflow: .clip)
                let outcome = try TextRenderer().render(layout, options: options)
                let bitmap = try #require(outcome.bitmap)
                #expect(outcome.originX == 0 && outcome.originY == 0)
                #expect(bitmap.width == options.pixels(layout.size.width) && bitmap.height == options.pixels(layout.size.height))
                // Today's drawing: a box-sized bitmap, drawn into at the origin.
                var old = try Bitmap(width: bitmap.width, height: bitmap.height)
                TextRenderer().draw(layout, into: &old, x: 0, y: 0, options: options)
                #expect(old == bitmap, "\(c.name) at \(scale)×")
            }
        }
    }

    @Test func theAsynchronousPathsAgree() async throws {
        let renderer = AsyncRenderer(inlineGlyphLimit: 0)
        for c in Self.cases {
            let layout = try Self.layout(c)
            for options in [RenderOptions(scale: 2), RenderOptions(scale: 2, inkOverflow: .clip)] {
                let sync = try TextRenderer().render(layout, options: options)
                let viaAsync = try await renderer.render(layout, options: options)
                #expect(viaAsync == sync.bitmap, "\(c.name)")
                let target = RenderTarget(name: "ink")
                let outcome: DisplayTask.Outcome = await withCheckedContinuation { continuation in
                    do {
                        renderer.display(try DisplayTask.text(layout, options: options, didDisplay: { _, outcome in
                            continuation.resume(returning: outcome)
                        }), on: target)
                    } catch {
                        Issue.record("\(error)")
                    }
                }
                #expect(outcome.bitmap == sync.bitmap, "\(c.name) \(options.inkOverflow)")
                #expect(outcome.originX == sync.originX && outcome.originY == sync.originY)
                // A display wrapping the task's own keeps the grown bitmap.
                var task = try DisplayTask.text(layout, options: options)
                let draw = task.display
                task.display = { bitmap, isCancelled in draw(&bitmap, isCancelled) }
                let wrapped: DisplayTask.Outcome = await withCheckedContinuation { continuation in
                    task.didDisplay = { _, outcome in continuation.resume(returning: outcome) }
                    renderer.display(task, on: target)
                }
                #expect(wrapped.bitmap == sync.bitmap, "\(c.name) wrapped")
            }
        }
    }

    @Test func aTextTaskGivenASizeDrawsIntoThatSize() async throws {
        let layout = try Self.layout(Self.cases[0])
        let renderer = AsyncRenderer(inlineGlyphLimit: 0)
        var task = try DisplayTask.text(layout)
        task.height += 0  // set: the bitmap is width × height, the layout at its origin
        let outcome: DisplayTask.Outcome = await withCheckedContinuation { continuation in
            task.didDisplay = { _, outcome in continuation.resume(returning: outcome) }
            renderer.display(task, on: RenderTarget(name: "sized"))
        }
        let exact = try TextRenderer().render(layout, options: RenderOptions(inkOverflow: .clip))
        #expect(outcome.bitmap == exact.bitmap && outcome.originX == 0 && outcome.originY == 0)
    }

    @Test func aGrownBitmapOverTheLimitIsRefused() throws {
        let layout = try Self.layout(Self.cases[0])
        let box = TextRenderer().box(of: layout, options: RenderOptions())
        let grown = try #require(try TextRenderer().render(layout).bitmap)
        let limit = box.width * box.height  // the box fits, the ink does not
        #expect(throws: RenderError.bitmapTooLarge(width: grown.width, height: grown.height, limit: limit)) {
            try TextRenderer().render(layout, options: RenderOptions(maxPixels: limit))
        }
        #expect(try TextRenderer().render(layout, options: RenderOptions(maxPixels: limit, inkOverflow: .clip)).bitmap != nil)
    }

    @Test func renderJSONReportsInkBounds() throws {
        let result = try TextRenderTool.run(["render", "بِسْمِ اللَّهِ", "--font-size", "40", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let ink = try #require(json["inkBounds"] as? [String: Double])
        #expect(Set(ink.keys) == ["x", "y", "width", "height"])
        #expect(try #require(ink["y"]) < 0)
        let height = try #require(json["height"] as? Double)
        #expect(try #require(ink["y"]) + (try #require(ink["height"])) > height)
    }

    @Test func exactBoxFlagKeepsTheBox() throws {
        let grown = Fixtures.temporaryPath("ink-grown.pgm"), exact = Fixtures.temporaryPath("ink-exact.pgm")
        let text = "بِسْمِ اللَّهِ"
        #expect(try TextRenderTool.run(["render", text, "--font-size", "40", "--output", grown]).status == 0)
        #expect(try TextRenderTool.run(["render", text, "--font-size", "40", "--exact-box", "--output", exact]).status == 0)
        let a = try Bitmap(pgm: Array(try Data(contentsOf: URL(fileURLWithPath: grown))))
        let b = try Bitmap(pgm: Array(try Data(contentsOf: URL(fileURLWithPath: exact))))
        #expect(b.width == 375 && b.height == 47)
        #expect(a.height > b.height + 10)
    }
}
