import Foundation
import Testing

/// Every Swift code block of the documentation articles (the `.docc` catalogs) appears in
/// this target's tests line for line, so an article shows only code that compiles and runs
/// against the current API. Indentation, blank lines and `import` lines are not compared.
@Suite struct ArticleCodeTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let catalogs = ["Sources/TextKitLite/TextKitLite.docc", "Sources/TextKitLiteFeed/TextKitLiteFeed.docc"]

    /// The files of a folder with an extension, sorted by name.
    static func files(in folder: URL, extension fileExtension: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == fileExtension }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The compared form of code: each line trimmed, blank and `import` lines left out.
    static func normalized(_ lines: some Sequence<Substring>) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("import ") }
    }

    /// The ```swift blocks of a Markdown text.
    static func swiftBlocks(in markdown: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                blocks.append(normalized(current!))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test func everyArticleBlockIsTested() throws {
        var tested: [String] = []
        for file in try Self.files(in: Self.packageRoot.appendingPathComponent("Tests/DocumentationTests"), extension: "swift") {
            tested += Self.normalized(try String(contentsOf: file, encoding: .utf8).split(separator: "\n"))
        }
        var blockCount = 0
        for catalog in Self.catalogs {
            for article in try Self.files(in: Self.packageRoot.appendingPathComponent(catalog), extension: "md") {
                for block in Self.swiftBlocks(in: try String(contentsOf: article, encoding: .utf8)) where !block.isEmpty {
                    blockCount += 1
                    let found = (0...max(0, tested.count - block.count)).contains { start in
                        tested[start..<min(tested.count, start + block.count)].elementsEqual(block)
                    }
                    #expect(found, "\(article.lastPathComponent): block not in Tests/DocumentationTests:\n\(block.joined(separator: "\n"))")
                }
            }
        }
        #expect(blockCount >= 15, "found \(blockCount) Swift blocks in the articles")
    }
}
