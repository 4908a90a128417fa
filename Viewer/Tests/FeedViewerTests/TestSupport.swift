import FeedViewer
import Foundation
import TextKitLite
import TextKitLiteFeed
import XCTest

/// Paths and helpers the window tests share.
enum TestSupport {
    /// The repository's root (Viewer/..).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let examples = root.appendingPathComponent("examples")
    static let photoFeed = examples.appendingPathComponent("photo-feed.jsonl").path
    static let now = "2026-11-28T22:00:00Z"

    /// `textrender` of the root package: $TEXTRENDER, else the debug build in Viewer/.build (`swift build --product textrender` there).
    static var textrender: String {
        ProcessInfo.processInfo.environment["TEXTRENDER"] ?? root.appendingPathComponent("Viewer/.build/debug/textrender").path
    }

    /// Window tests need a display (scripts/viewer-test.sh runs them under xvfb-run).
    static func requireDisplay() throws {
        let environment = ProcessInfo.processInfo.environment
        if environment["DISPLAY"] == nil && environment["WAYLAND_DISPLAY"] == nil && environment["SDL_VIDEODRIVER"] == nil {
            throw XCTSkip("no display: run under xvfb-run (scripts/viewer-test.sh)")
        }
    }

    /// A viewer of a feed at the tests' fixed time, in a window 400 points high.
    static func viewer(_ feed: String, configure: (inout ViewerSettings) -> Void = { _ in }) throws -> FeedViewer {
        try requireDisplay()
        var settings = ViewerSettings(feedPath: feed)
        settings.now = FeedPost.time(iso8601: now)
        settings.height = 400
        configure(&settings)
        return try FeedViewer(settings: settings)
    }

    /// A fresh temporary folder.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("feedview-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs a program; returns its exit status and standard error.
    @discardableResult
    static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The examples' posts, both feeds, all distinct, in one file whose pictures resolve
    /// against examples/ (given as the media root).
    static func distinctFeed(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("distinct.jsonl").path
        let lines = try [examples.appendingPathComponent("feed.jsonl").path, photoFeed].map { try String(contentsOfFile: $0, encoding: .utf8) }
        try lines.joined().write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

/// Compares a window region with a bitmap's rows, byte for byte.
func region(_ screen: Bitmap, y: Int, rows: Range<Int>, equals cell: Bitmap) -> Bool {
    guard screen.width == cell.width else { return false }
    let rowBytes = screen.width * 4
    return screen.pixels.withUnsafeBytes { s in
        cell.pixels.withUnsafeBytes { c in
            rows.allSatisfy { row in memcmp(s.baseAddress! + (y + row) * rowBytes, c.baseAddress! + row * rowBytes, rowBytes) == 0 }
        }
    }
}
