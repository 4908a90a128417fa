import Foundation
import Testing
@testable import TextKitLite
@testable import TextKitLiteFeed

/// Inline attachments: measured, broken, placed, drawn and encoded like text.
@Suite struct AttachmentTests {
    static let engine = Fixtures.engine
    static let style = TextStyle(size: 17)

    static func box(_ width: Double, _ height: Double, _ alignment: TextAttachment.Alignment = .center) -> TextAttachment {
        TextAttachment(size: Size(width: width, height: height), alignment: alignment, content: .box(tag: "b"))
    }

    static func text(_ before: String, _ attachment: TextAttachment, _ after: String) -> AttributedText {
        var text = AttributedText(before, style: style)
        text.append(attachment, style: style)
        text.append(after, style: style)
        return text
    }

    private func layout(_ text: AttributedText, _ options: LayoutOptions = LayoutOptions(width: .infinity)) throws -> TextLayout {
        try Self.engine.layout(text, options: options)
    }

    @Test func anAttachmentAddsItsWidthToItsLine() throws {
        let plain = try layout(AttributedText("abcd", style: Self.style))
        let with = try layout(Self.text("ab", Self.box(20, 10), "cd"))
        #expect(abs(with.measuredWidth - plain.measuredWidth - 20) < 1e-9)
        let placed = try #require(with.lines.first?.attachments.first)
        #expect(placed.offset == 2 && !placed.isTruncationToken)
        #expect(placed.rect.width == 20 && placed.rect.height == 10)
        // Between "ab" and "cd".
        let runs = with.lines[0].runs
        #expect(abs(placed.rect.x - (runs[0].x + runs[0].width)) < 1e-9)
    }

    @Test func aTallerAttachmentRaisesItsLine() throws {
        let plain = try layout(AttributedText("ab", style: Self.style))
        let tall = try layout(Self.text("a", Self.box(10, 60, .baseline(descent: 0)), "b"))
        #expect(abs(tall.lines[0].ascent - 60) < 1e-4)
        #expect(tall.lines[0].descent == plain.lines[0].descent)
        #expect(tall.size.height > plain.size.height + 30)
        #expect(abs(tall.lines[0].attachments[0].rect.maxY - tall.lines[0].baseline) < 1e-4)
    }

    @Test func alignmentsPlaceOnTheFont() throws {
        let font = Fixtures.sans.metrics(size: 17)
        func placed(_ alignment: TextAttachment.Alignment) throws -> (Rect, LayoutLine) {
            let line = try layout(Self.text("x", Self.box(8, 8, alignment), "y")).lines[0]
            return (line.attachments[0].rect, line)
        }
        let (baseline, b) = try placed(.baseline(descent: 3))
        #expect(abs(baseline.maxY - (b.baseline + 3)) < 1e-4)
        let (top, t) = try placed(.top)
        #expect(abs(top.y - (t.baseline - font.ascent)) < 1e-4)
        let (bottom, o) = try placed(.bottom)
        #expect(abs(bottom.maxY - (o.baseline + font.descent)) < 1e-4)
        let (center, c) = try placed(.center)
        #expect(abs(center.midY - (c.baseline - (font.ascent - font.descent) / 2)) < 1e-4)
    }

    @Test func inAFixedLineAnAttachmentIsCentred() throws {
        let options = LayoutOptions(width: .infinity, lineHeightMode: .fixed(30))
        let line = try layout(Self.text("x", Self.box(8, 50, .baseline(descent: 0)), "y"), options).lines[0]
        #expect(line.frame.height == 30)
        #expect(abs(line.attachments[0].rect.midY - line.frame.midY) < 1e-9)
    }

    @Test func linesBreakBetweenAttachmentsAsBetweenIdeographs() throws {
        var text = AttributedText("", style: Self.style)
        for _ in 0..<10 { text.append(Self.box(30, 17), style: Self.style) }
        let layout = try layout(text, LayoutOptions(width: 100))
        #expect(layout.lines.map(\.attachments.count) == [3, 3, 3, 1])
        let measured = try Self.engine.measure(text, options: LayoutOptions(width: 100))
        #expect(measured == TextMeasurement(layout))
    }

    @Test func rightToLeftTextPlacesAttachmentsInVisualOrder() throws {
        let text = Self.text("مرحبا ", Self.box(20, 12), " بالعالم")
        let line = try layout(text).lines[0]
        let rect = line.attachments[0].rect
        // "مرحبا" is logically first: to the right of the attachment.
        let first = try #require(line.runs.first { $0.range.lowerBound == 0 })
        #expect(rect.maxX <= first.x + 1e-9)
    }

    @Test func truncationDropsHiddenAttachmentsAndPlacesTheToken() throws {
        var text = AttributedText("", style: Self.style)
        for _ in 0..<20 { text.append(Self.box(30, 17), style: Self.style) }
        var token = AttributedText("…", style: Self.style)
        token.append(Self.box(12, 12), style: Self.style)
        let layout = try layout(text, LayoutOptions(width: 100, maxLines: 2, truncationToken: token))
        #expect(layout.isTruncated && layout.lines.count == 2)
        let last = layout.lines[1].attachments
        #expect(last.last?.isTruncationToken == true && last.last?.offset == 1)
        #expect(last.dropLast().allSatisfy { !$0.isTruncationToken })
        #expect(last.map(\.rect.maxX).max()! <= 100 + 1e-9)
        #expect(try Self.engine.measure(text, options: LayoutOptions(width: 100, maxLines: 2, truncationToken: token))
                == TextMeasurement(layout))
    }

    @Test func imagesAreDrawnInTheirBoxes() throws {
        let black = GrayImage(width: 4, height: 4, gray: [UInt8](repeating: 0, count: 16))
        let attachment = TextAttachment(size: Size(width: 10, height: 10), alignment: .baseline(descent: 0), content: .image(black))
        let layout = try layout(Self.text("", attachment, ""))
        let bitmap = try #require(try TextRenderer().render(layout, options: RenderOptions(scale: 2)).bitmap)
        let rect = layout.lines[0].attachments[0].rect
        let x0 = Int((rect.x * 2).rounded()), y0 = Int((rect.y * 2).rounded())
        for y in y0..<(y0 + 20) { for x in x0..<(x0 + 20) { #expect(bitmap[x, y] == 0) } }
        #expect(bitmap.pixels.filter { $0 == 0 }.count == 400)
        // A half-transparent white image over white leaves white; a box draws nothing.
        let boxes = try TextRenderer().render(self.layout(Self.text("", Self.box(10, 10), "")), options: RenderOptions()).bitmap
        #expect(boxes?.pixels.allSatisfy { $0 == 255 } == true)
    }

    /// A color image is drawn in its colors (its box filter in premultiplied space) on an
    /// RGBA bitmap, and as its gray levels on a gray one.
    @Test func colorImagesAreDrawnInColor() throws {
        // Left half opaque red, right half half-transparent blue.
        let rgb: [UInt8] = (0..<16).flatMap { (k: Int) -> [UInt8] in k % 4 < 2 ? [255, 0, 0] : [0, 0, 255] }
        let alpha = (0..<16).map { $0 % 4 < 2 ? UInt8(255) : 128 }
        let gray = (0..<16).map { $0 % 4 < 2 ? UInt8(76) : 29 }
        let image = GrayImage(width: 4, height: 4, gray: gray, alpha: alpha, rgb: rgb)
        let attachment = TextAttachment(size: Size(width: 4, height: 4), alignment: .baseline(descent: 0), content: .image(image))
        let layout = try layout(Self.text("", attachment, ""))
        let rect = layout.lines[0].attachments[0].rect
        let x0 = Int(rect.x.rounded()), y0 = Int(rect.y.rounded())
        let color = try #require(TextRenderer().render(layout, options: RenderOptions(format: .rgba8)).bitmap)
        #expect(color.pixel(x: x0, y: y0) == (255, 0, 0, 255))
        // Blue at alpha 128 over white: 128 + 255 × 127 / 255 in red and green, 255 in blue.
        #expect(color.pixel(x: x0 + 3, y: y0 + 3) == (127, 127, 255, 255))
        let grayBitmap = try #require(TextRenderer().render(layout).bitmap)
        #expect(grayBitmap[x0, y0] == 76 && grayBitmap[x0 + 3, y0 + 3] == 142)
    }

    @Test func attachmentsRoundTripThroughCodable() throws {
        let image = GrayImage(width: 2, height: 1, gray: [0, 200], alpha: [255, 128])
        var text = Self.text("a", TextAttachment(size: Size(width: 12, height: 9), alignment: .baseline(descent: 2), content: .image(image)), "b")
        text.append(Self.box(5, 5, .top), style: Self.style)
        let decoded = try JSONDecoder().decode(AttributedText.self, from: JSONEncoder().encode(text))
        #expect(decoded == text && decoded.attachments.count == 2)
        let layout = try layout(text, LayoutOptions(width: 300))
        let again = try JSONDecoder().decode(TextLayout.self, from: JSONEncoder().encode(layout))
        #expect(again.lines[0].attachments == layout.lines[0].attachments)
        // An attachment offset that does not hold U+FFFC is refused.
        let bad = try JSONEncoder().encode(text)
        let broken = String(decoding: bad, as: UTF8.self).replacingOccurrences(of: "\"offset\":1", with: "\"offset\":0")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(AttributedText.self, from: Data(broken.utf8)) }
    }

    @Test func invalidAttachmentSizesAreLayoutErrors() {
        for attachment in [Self.box(.nan, 1), Self.box(1, -1), Self.box(1e9, 1), Self.box(1, 1, .baseline(descent: .infinity))] {
            #expect(throws: LayoutError.self) { try Self.engine.layout(Self.text("a", attachment, "b"), options: LayoutOptions()) }
        }
    }

    @Test func aFFFCWithoutAnAttachmentIsText() throws {
        let layout = try layout(AttributedText("a\u{FFFC}b", style: Self.style))
        #expect(layout.lines[0].attachments.isEmpty)
        #expect(layout.allRuns.flatMap(\.glyphs).count == 3)
    }

    /// The README's rich-text example, as written there.
    @Test func readmeRichTextExample() throws {
        var rich = AttributedText("Bold ", style: TextStyle(size: 17, weight: .bold))
        rich.append("underlined", style: TextStyle(size: 17, underline: true, letterSpacing: 1))
        let smile = try GrayImage(pngFile: EmoticonTable.bundledPath.replacingOccurrences(of: "emoticons.json", with: "smile.png"))
        rich.append(TextAttachment(size: Size(width: 17, height: 17), alignment: .center, content: .image(smile)),
                    style: TextStyle(size: 17))
        let withCodes = try EmoticonTable.bundled().attributed(rich)
        let layout = try Self.engine.layout(withCodes, options: LayoutOptions(width: 300))
        #expect(layout.lines[0].attachments.count == 1)
    }

    @Test func emoticonCodesBecomeAttachments() throws {
        let table = try EmoticonTable.bundled()
        let style = TextStyle(size: 20, ink: 30)
        let text = table.attributed(AttributedText("好[微笑]的[不存在][赞]", style: style))
        #expect(text.string == "好\u{FFFC}的[不存在]\u{FFFC}")
        #expect(text.attachments.map(\.offset) == [1, 8])
        #expect(text.attachments.allSatisfy { $0.attachment.size == Size(width: 20, height: 20) })
        #expect(text.runs.allSatisfy { $0.style == style })
        let layout = try Self.engine.layout(text, options: LayoutOptions(width: 300))
        #expect(layout.lines[0].attachments.count == 2)
        #expect(try Self.engine.measure(text, options: LayoutOptions(width: 300)) == TextMeasurement(layout))
    }
}
