import Foundation
import Testing
@testable import TextKitLite
import TextKitLiteFeed

/// Renders of representative texts compared with committed reference images
/// (Snapshots/*.pgm, and Snapshots/*.png for color). Set RECORD_SNAPSHOTS=1 to write new
/// references instead.
@Suite struct SnapshotTests {
    static let directory = Fixtures.testsDirectory.appendingPathComponent("Snapshots")
    static let recording = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"

    /// Allowed differences: a pixel may differ by up to 8 levels; at most 0.5% of pixels
    /// may differ by more (antialiasing of another FreeType build).
    static let tolerance = (level: 8, fraction: 0.005)

    func check(_ name: String, _ layout: TextLayout, scale: Double = 2, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let bitmap = try #require(try TextRenderer().render(layout, options: RenderOptions(scale: scale)).bitmap)
        try check(name, bitmap, sourceLocation: sourceLocation)
    }

    func check(_ name: String, _ bitmap: Bitmap, sourceLocation: SourceLocation = #_sourceLocation) throws {
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

    /// Feed cells as `textrender feed --gray` draws them: bold authors, emoticons inline,
    /// mentions, topics and hashtags in the link ink, URLs underlined, the expand token.
    @Test func feedCellsWithEmoticonsBoldAuthorsAndLinks() throws {
        var style = FeedCellStyle()
        style.theme = .gray
        let precomputer = FeedPrecomputer(engine: TextEngine(fonts: Fixtures.engine.fonts), style: style,
                                          emoticons: try EmoticonTable.bundled())
        let posts = [
            FeedPost(id: "e1", author: "小林同学", text: "今天天气真好[微笑][哈哈]，@数码老王 一起去爬山吗？#周末去哪儿# 攻略：https://example.com/hike [赞][不存在]"),
            FeedPost(id: "e2", author: "Mia Chen", text: "Shipped 🎉 [doge] Changelog: https://example.com/releases/2.4 #running #nofilter",
                     quote: "[心] thanks @Mia, the new release is great [鼓掌]"),
            FeedPost(id: "e3", author: "阿杰", text: String(repeating: "[偷笑]长文本会被截断，", count: 30)),
        ]
        for post in posts {
            let cell = try precomputer.layout(post, width: 375)
            let bitmap = try #require(try CellRenderer().render(cell, options: RenderOptions(scale: 2)))
            try check("cell-\(post.id)", bitmap)
        }
    }

    /// Feed cells in color as `textrender feed` draws them: the light theme (dark text on
    /// white, blue links, color emoji, quote box) and the dark one.
    @Test func colorFeedCells() throws {
        let posts = [
            FeedPost(id: "e1", author: "小林同学", text: "今天天气真好[微笑][哈哈]，@数码老王 一起去爬山吗？#周末去哪儿# 攻略：https://example.com/hike 🏔️👍"),
            FeedPost(id: "e2", author: "Mia Chen", text: "Shipped 🎉 [doge] Changelog: https://example.com/releases/2.4 #running #nofilter",
                     quote: "[心] thanks @Mia, the new release is great 💯", images: 2),
        ]
        for theme in [("light", FeedTheme.light), ("dark", FeedTheme.dark)] {
            var style = FeedCellStyle()
            style.theme = theme.1
            let precomputer = FeedPrecomputer(engine: TextEngine(fonts: Fixtures.engine.fonts), style: style,
                                              emoticons: try EmoticonTable.bundled())
            for post in posts {
                let cell = try precomputer.layout(post, width: 375)
                let options = RenderOptions(scale: 2, format: .rgba8, background: theme.1.background)
                let bitmap = try #require(try CellRenderer().render(cell, options: options))
                try checkColor("color-cell-\(post.id)-\(theme.0)", bitmap)
            }
        }
    }

    /// `check` for an opaque RGBA bitmap against a PNG reference: every channel of every
    /// pixel within the same tolerance.
    func checkColor(_ name: String, _ bitmap: Bitmap, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = Self.directory.appendingPathComponent("\(name).png").path
        if Self.recording {
            try bitmap.write(to: path, format: .png)
            return
        }
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("missing reference \(path); run with RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
            return
        }
        let reference = try GrayImage(pngFile: path)
        #expect(reference.width == bitmap.width && reference.height == bitmap.height && bitmap.isOpaque, sourceLocation: sourceLocation)
        guard reference.width == bitmap.width, reference.height == bitmap.height, let rgb = reference.rgb else { return }
        let drawn = stride(from: 0, to: bitmap.pixels.count, by: 4).flatMap { bitmap.pixels[$0..<$0 + 3] }
        let differing = zip(rgb, drawn).filter { abs(Int($0) - Int($1)) > Self.tolerance.level }.count
        let fraction = Double(differing) / Double(max(1, drawn.count))
        #expect(fraction <= Self.tolerance.fraction, "\(name): \(differing) channels differ", sourceLocation: sourceLocation)
        if fraction > Self.tolerance.fraction {
            try? bitmap.write(to: NSTemporaryDirectory() + "\(name).actual.png", format: .png)
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
