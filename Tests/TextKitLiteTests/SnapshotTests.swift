import Foundation
import Testing
@testable import TextKitLite

/// Renders of representative texts compared with committed reference images
/// (Snapshots/*.pgm). Set RECORD_SNAPSHOTS=1 to write new references instead.
@Suite struct SnapshotTests {
    static let directory = Fixtures.testsDirectory.appendingPathComponent("Snapshots")
    static let recording = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"

    /// Allowed differences: a pixel may differ by up to 8 levels; at most 0.5% of pixels
    /// may differ by more (antialiasing of another FreeType build).
    static let tolerance = (level: 8, fraction: 0.005)

    func check(_ name: String, _ layout: TextLayout, scale: Double = 2, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let bitmap = try #require(try TextRenderer().render(layout, options: RenderOptions(scale: scale)).bitmap)
        let path = Self.directory.appendingPathComponent("\(name).pgm").path
        if Self.recording {
            try bitmap.writePGM(to: path)
            return
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            Issue.record("missing reference \(path); run with RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
            return
        }
        let reference = try Bitmap(pgm: Array(data))
        #expect(reference.width == bitmap.width && reference.height == bitmap.height, sourceLocation: sourceLocation)
        guard reference.width == bitmap.width, reference.height == bitmap.height else { return }
        let differing = zip(reference.pixels, bitmap.pixels).filter { abs(Int($0) - Int($1)) > Self.tolerance.level }.count
        let fraction = Double(differing) / Double(max(1, bitmap.pixels.count))
        #expect(fraction <= Self.tolerance.fraction, "\(name): \(differing) pixels differ", sourceLocation: sourceLocation)
        if fraction > Self.tolerance.fraction {
            try? bitmap.writePGM(to: NSTemporaryDirectory() + "\(name).actual.pgm")
        }
    }

    @Test func mixedScriptParagraph() throws {
        try check("mixed", Fixtures.layout(
            "TextKitLite 排版 Chinese, English 🎉👍🏽, العربية and עברית in one paragraph.",
            size: 17, LayoutOptions(width: 240)))
    }

    @Test func truncatedPostWithExpandToken() throws {
        let token = AttributedText("…全文", style: TextStyle(size: 15, ink: 90))
        try check("truncated", Fixtures.layout(
            "今天天气很好，我们去公园散步。The weather is lovely today and we walked in the park for hours, chatting about everything.",
            size: 15, LayoutOptions(width: 220, maxLines: 3, truncationToken: token, lineHeightMode: .uniform)))
    }

    @Test func centeredAndJustified() throws {
        try check("centered", Fixtures.layout("Centered text\nover two paragraphs", size: 17, LayoutOptions(width: 200, alignment: .center)))
        try check("justified", Fixtures.layout(
            "Justified text stretches every line but the last one to the full width of the box.",
            size: 15, LayoutOptions(width: 180, alignment: .justify, insets: EdgeInsets(all: 6))))
    }

    @Test func rightToLeftParagraph() throws {
        try check("rtl", Fixtures.layout("שלום עולם! This is English inside Hebrew. مرحبا", size: 17, LayoutOptions(width: 200)), scale: 1)
    }
}
