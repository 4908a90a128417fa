import Testing
import TextKitLite

/// The code of the article "Hit testing and highlights", block by block as it shows it.
@Suite struct HitTestingExamples {
    @Test func hitTesting() throws {
        let engine = try TextEngine.bundled()
        let text = AttributedText("Hello שלום world", style: TextStyle(size: 17))
        let layout = try engine.layout(text, options: LayoutOptions(width: 300))

        let index = layout.characterIndex(at: Point(x: 40, y: 10))   // the caret nearest the point
        let selection = layout.rects(for: 0..<8)                     // one rect per visual piece per line
        #expect((0...text.utf16Count).contains(index))
        #expect(selection.count == 2)  // "Hello " and the right-to-left "שלום"'s first letters

        let post = Highlighter(urlLabel: "网页链接")
            .attributed("@小明 看 #话题# https://t.cn/x", style: TextStyle(size: 17),
                        highlightStyle: HighlightStyle(ink: 70, underline: true))
        let laidOut = try engine.layout(post, options: LayoutOptions(width: 300))

        let found = laidOut.highlights.map { ($0.highlight.kind, $0.highlight.value) }
        // (.mention, "@小明"), (.topic, "#话题#"), (.url, "https://t.cn/x"), each with its rects
        let tapped = laidOut.highlight(at: Point(x: 20, y: 10), margin: 4)  // nil when none is near
        #expect(found.map(\.0) == [.mention, .topic, .url])
        #expect(found.map(\.1) == ["@小明", "#话题#", "https://t.cn/x"])
        #expect(tapped?.highlight.kind == .mention)

        var token = AttributedText("…全文", style: TextStyle(size: 17, ink: 70))
        token.setHighlights([AttributedText.Highlight(kind: .expand, value: "post-42", range: 0..<3)])
        let cut = try engine.layout(post, options: LayoutOptions(width: 80, maxLines: 1, truncationToken: token))
        let expand = cut.highlights.first { $0.isInTruncationToken }
        #expect(expand?.highlight.value == "post-42")
    }
}
