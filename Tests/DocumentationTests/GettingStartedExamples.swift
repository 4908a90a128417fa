import Testing
import TextKitLite

/// The code of the article "Getting started", block by block as it shows it, with checks
/// between the blocks.
@Suite struct GettingStartedExamples {
    @Test func gettingStarted() throws {
        let engine = try TextEngine.bundled()
        let text = AttributedText("Hello 世界 🎉 مرحبا", style: TextStyle(size: 17))
        let layout = try engine.layout(text, options: LayoutOptions(width: 300, maxLines: 2))
        let size = layout.size                 // points
        let lines = layout.lineCount           // at most 2
        let cut = layout.isTruncated           // true when text was left out ("…" shown)
        #expect(size.width <= 300 && size.height > 0)
        #expect(lines == 1 && !cut)

        let outcome = try TextRenderer().render(layout, options: RenderOptions(scale: 2),
                                                isCancelled: { false })
        if let bitmap = outcome.bitmap {       // nil when cancelled
            try bitmap.write(to: "/tmp/hello.png", format: .png)
        }
        #expect(outcome.bitmap != nil)

        let measured = try engine.measure(text, options: LayoutOptions(width: 300, maxLines: 2))
        let height = measured.height
        let lineStarts = measured.lineStarts   // UTF-16 offsets, one per line
        #expect(height == layout.size.height && lineStarts == [0])

        let shaped = try engine.shape(text)
        let narrow = try engine.layout(shaped, options: LayoutOptions(width: 120))
        let wide = try engine.layout(shaped, options: LayoutOptions(width: 480))
        let heights = try engine.measure(text, options: LayoutOptions(), widths: [320, 375, 414]).map(\.height)
        #expect(narrow.lineCount > wide.lineCount)
        #expect(heights == [320.0, 375, 414].map { try! engine.measure(shaped, options: LayoutOptions(width: $0)).height })

        var styled = AttributedText("Bold ", style: TextStyle(size: 17, weight: .bold))
        styled.append("and underlined", style: TextStyle(size: 17, underline: true))
        let styledLayout = try engine.layout(styled, options: LayoutOptions(width: 300))
        #expect(styledLayout.text.runs.count == 2)
    }
}
