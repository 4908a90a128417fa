import Foundation
import Testing
@testable import TextKitLite

/// Shared fixtures: the bundled fonts and an engine over them (fonts load once per process).
enum Fixtures {
    static let engine: TextEngine = {
        do { return try TextEngine.bundled(systemFallback: false) } catch { fatalError("bundled fonts: \(error)") }
    }()

    static var sans: Font { engine.fonts.fonts[0] }
    static var cjk: Font { engine.fonts.fonts[1] }
    static var emoji: Font { engine.fonts.fonts[2] }

    /// A lay out through the shared engine.
    static func layout(_ string: String, size: Double = 17, _ options: LayoutOptions = LayoutOptions()) throws -> TextLayout {
        try engine.layout(AttributedText(string, style: TextStyle(size: size)), options: options)
    }

    /// The text of each line.
    static func lineTexts(_ layout: TextLayout) -> [String] {
        layout.lines.map { String(decoding: layout.text.utf16[$0.range], as: UTF16.self) }
    }

    /// Folder of committed test files (snapshots, fixtures).
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// A temporary directory removed at process exit is not needed: tests use unique names.
    static func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "textkitlite-\(getpid())-\(UUID().uuidString.prefix(8))-\(name)"
    }

    /// Binds a Unix-domain socket at `path` (a file of kind socket); returns its descriptor.
    static func makeSocket(_ path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        return descriptor
    }

    /// Makes a sparse file of `size` zero bytes at `path` (no disk is used for them).
    static func makeSparseFile(_ path: String, size: UInt64) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: size)
        try handle.close()
    }
}

extension TextLayout {
    /// All glyph runs of all lines.
    var allRuns: [GlyphRun] { lines.flatMap(\.runs) }
}
