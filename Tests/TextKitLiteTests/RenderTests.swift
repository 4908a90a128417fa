import Foundation
import Synchronization
import Testing
@testable import TextKitLite

@Suite struct RenderTests {
    /// Bounding box of pixels darker than the background, or nil when there are none.
    static func inkBounds(_ bitmap: Bitmap, threshold: UInt8 = 250) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var result: (Int, Int, Int, Int)?
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap[x, y] < threshold {
                result = result.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
            }
        }
        return result.map { (minX: $0.0, minY: $0.1, maxX: $0.2, maxY: $0.3) }
    }

    /// First row with ink at or below `startRow`.
    static func firstInkRow(_ bitmap: Bitmap, from startRow: Int) -> Int? {
        (startRow..<bitmap.height).first { y in (0..<bitmap.width).contains { bitmap[$0, y] < 200 } }
    }

    @Test func pgmHeaderAndSize() throws {
        let layout = try Fixtures.layout("Hello", size: 17, LayoutOptions(width: 100))
        let bitmap = try #require(try TextRenderer().render(layout).bitmap)
        #expect(bitmap.width == 100)
        #expect(bitmap.height == Int(layout.size.height.rounded(.up)))
        let data = bitmap.pgmData()
        let header = "P5\n100 \(bitmap.height)\n255\n"
        #expect(Array(data.prefix(header.utf8.count)) == Array(header.utf8))
        #expect(data.count == header.utf8.count + 100 * bitmap.height)
        // Round trip through a file.
        let path = Fixtures.temporaryPath("hello.pgm")
        try bitmap.writePGM(to: path)
        let read = try Bitmap(pgm: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(read == bitmap)
    }

    @Test func inkStaysInsideTheLayoutBounds() throws {
        let insets = EdgeInsets(all: 10)
        let layout = try Fixtures.layout("Ink only inside 中文 😀 bounds", size: 17, LayoutOptions(width: 160, insets: insets))
        let bitmap = try #require(try TextRenderer().render(layout, options: RenderOptions(scale: 2)).bitmap)
        let ink = try #require(Self.inkBounds(bitmap))
        // Nothing drawn in the insets (glyphs stay within their lines' boxes, give or take a pixel).
        #expect(ink.minX >= 20 - 1 && ink.minY >= 20 - 1)
        #expect(ink.maxX <= bitmap.width - 20 && ink.maxY <= bitmap.height - 20)
        let used = layout.usedRect
        #expect(Double(ink.maxX) <= (used.maxX + 1) * 2)
    }

    @Test func linesMoveDownWhenSpacingGrows() throws {
        let text = "First\nSecond"
        let tight = try Fixtures.layout(text, size: 17, LayoutOptions(width: 100))
        let loose = try Fixtures.layout(text, size: 17, LayoutOptions(width: 100, lineSpacing: 10))
        let a = try #require(try TextRenderer().render(tight).bitmap)
        let b = try #require(try TextRenderer().render(loose).bitmap)
        #expect(b.height == a.height + 10)
        // The second line's first ink row moves down by the added spacing.
        let split = Int(tight.lines[0].frame.maxY)
        let rowA = try #require(Self.firstInkRow(a, from: split))
        let rowB = try #require(Self.firstInkRow(b, from: split + 5))
        #expect(rowB == rowA + 10)
        // The first line does not move.
        #expect(Self.firstInkRow(a, from: 0) == Self.firstInkRow(b, from: 0))
    }

    @Test func doubleScaleDoublesTheBitmap() throws {
        let layout = try Fixtures.layout("Scale me 中文", size: 17, LayoutOptions(width: 120))
        let one = try #require(try TextRenderer().render(layout, options: RenderOptions(scale: 1)).bitmap)
        let two = try #require(try TextRenderer().render(layout, options: RenderOptions(scale: 2)).bitmap)
        #expect(two.width == 2 * one.width)
        #expect(abs(two.height - 2 * one.height) <= 1)
        let inkOne = one.pixels.reduce(0) { $0 + (255 - Int($1)) }
        let inkTwo = two.pixels.reduce(0) { $0 + (255 - Int($1)) }
        // Four times the area of ink, within antialiasing differences.
        #expect(Double(inkTwo) / Double(inkOne) > 3.5 && Double(inkTwo) / Double(inkOne) < 4.5)
    }

    @Test func cancellationAfterLineKDrawsNothingAfterK() throws {
        let text = (1...20).map { "Line \($0)" }.joined(separator: "\n")
        let layout = try Fixtures.layout(text, size: 12, LayoutOptions(width: 200))
        #expect(layout.lineCount == 20)
        var drawn: [Int] = []
        var checks = 0
        let outcome = try TextRenderer().render(layout, isCancelled: {
            checks += 1
            return drawn.count >= 3
        }, lineDrawn: { drawn.append($0) })
        #expect(outcome.bitmap == nil)
        #expect(outcome.isCancelled)
        #expect(drawn == [0, 1, 2])
        #expect(outcome.linesDrawn == 3)
        // Checked before the render starts and before each line drawn, and once more to stop.
        #expect(checks == 5)
    }

    @Test func emojiRendersVisiblyInGray() throws {
        let layout = try Fixtures.layout("😀", size: 40)
        let bitmap = try #require(try TextRenderer().render(layout).bitmap)
        let ink = try #require(Self.inkBounds(bitmap))
        #expect(ink.maxX - ink.minX > 25 && ink.maxY - ink.minY > 25)
        // A color glyph in gray: mid-tones, not only black ink.
        let levels = Set(bitmap.pixels)
        #expect(levels.count > 20)
        #expect(bitmap.pixels.contains { $0 > 120 && $0 < 230 })
    }

    @Test func glyphsAreRasterizedOncePerSizeAndPhase() throws {
        let cache = GlyphCache()
        let renderer = TextRenderer(glyphCache: cache)
        let layout = try Fixtures.layout("aaaa aaaa aaaa", size: 17, LayoutOptions(width: 400))
        _ = try renderer.render(layout)
        let first = cache.rasterizationCount
        #expect(first <= 1 + 4)  // "a" in at most 4 phases, and the space
        _ = try renderer.render(layout)
        #expect(cache.rasterizationCount == first)
        #expect(cache.statistics.hitRate > 0.5)
    }

    @Test func inkAndBackgroundLevels() throws {
        let layout = try Fixtures.engine.layout(AttributedText("Gray", style: TextStyle(size: 30, ink: 128)))
        let bitmap = try #require(try TextRenderer().render(layout, options: RenderOptions(background: 20)).bitmap)
        #expect(bitmap.pixels.min() == 20)
        #expect(bitmap.pixels.contains(128))
        #expect(bitmap.pixels.allSatisfy { $0 >= 20 && $0 <= 128 })
    }

    @Test func bitmapOverTheLimitIsAnError() throws {
        let layout = try Fixtures.layout("Big", size: 17, LayoutOptions(width: 1000))
        #expect(throws: RenderError.bitmapTooLarge(width: 1000, height: Int(layout.size.height.rounded(.up)), limit: 1000)) {
            try TextRenderer().render(layout, options: RenderOptions(maxPixels: 1000))
        }
        #expect(throws: RenderError.self) { try TextRenderer().render(layout, options: RenderOptions(scale: 0)) }
        #expect(throws: RenderError.self) { try TextRenderer().render(layout, options: RenderOptions(scale: .nan)) }
    }

    @Test func writingIntoAMissingDirectoryIsAnError() throws {
        let bitmap = try Bitmap(width: 2, height: 2)
        #expect(throws: RenderError.cannotWrite(path: "/nonexistent-dir/x.pgm", reason: "No such file or directory")) {
            try bitmap.writePGM(to: "/nonexistent-dir/x.pgm")
        }
    }

    @Test func debugDrawsLineBoxesAndBaselines() throws {
        let layout = try Fixtures.layout("Debug", size: 17, LayoutOptions(width: 100))
        let plain = try #require(try TextRenderer().render(layout).bitmap)
        let debug = try #require(try TextRenderer().render(layout, options: RenderOptions(debug: true)).bitmap)
        let baselineRow = Int(layout.lines[0].baseline.rounded())
        #expect(debug[1, baselineRow] == 110)
        #expect(plain[1, baselineRow] == 255)
        #expect(debug[0, 0] == 170)
    }
}
