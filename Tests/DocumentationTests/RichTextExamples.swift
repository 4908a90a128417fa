import Testing
import TextKitLite

/// The code of the article "Rich text and attachments", block by block as it shows it.
@Suite struct RichTextExamples {
    @Test func richText() throws {
        let engine = try TextEngine.bundled()
        var rich = AttributedText("Bold ", style: TextStyle(size: 17, weight: .bold))
        rich.append("italic ", style: TextStyle(size: 17, isItalic: true))
        rich.append("struck ", style: TextStyle(size: 17, ink: 110, strikethrough: true))
        rich.append("spaced 0123", style: TextStyle(size: 17, letterSpacing: 1, features: FontFeature.list("tnum,-liga")!))
        #expect(rich.runs.count == 4)

        let dot = GrayImage(width: 2, height: 2, gray: [0, 128, 128, 0])
        rich.append(TextAttachment(size: Size(width: 17, height: 17), content: .image(dot)),
                    style: TextStyle(size: 17))
        rich.append(TextAttachment(size: Size(width: 24, height: 24), alignment: .baseline(descent: 0),
                                   content: .box(tag: "badge")), style: TextStyle(size: 17))

        let layout = try engine.layout(rich, options: LayoutOptions(width: 200))
        let placed = layout.lines.flatMap(\.attachments)     // offset in the text, rect in points
        #expect(placed.count == 2)

        let scale = 2.0
        var bitmap = try TextRenderer().render(layout, options: RenderOptions(scale: scale)).bitmap!
        for box in placed where layout.text.attachment(at: box.offset)?.content == .box(tag: "badge") {
            let r = box.rect
            bitmap.fill(x: Int(r.x * scale), y: Int(r.y * scale), width: Int(r.width * scale),
                        height: Int(r.height * scale), level: 200)
        }
        let badge = placed[1].rect
        #expect(bitmap[Int(badge.midX * scale), Int(badge.midY * scale)] == 200)
    }
}
