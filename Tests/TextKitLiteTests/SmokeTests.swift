import Testing
@testable import TextKitLite

@Test func layoutAndRenderMixedText() throws {
    let engine = try TextEngine.bundled()
    let layout = try engine.layout("Hello 世界 🎉 and שלום.", options: LayoutOptions(width: 1000))
    #expect(layout.lineCount == 1)
    let outcome = try TextRenderer().render(layout)
    let bitmap = try #require(outcome.bitmap)
    #expect(bitmap.pixels.contains { $0 < 128 })
}
