import FeedViewer
import Foundation
import TextKitLite
import XCTest

/// Bad input is shown as the command-line tool reports it, and the viewer keeps running.
final class BadInputTests: XCTestCase {
    func testMissingFeedOpensAnEmptyViewerSayingSo() throws {
        let path = "/nonexistent/feed.jsonl"
        let viewer = try TestSupport.viewer(path)
        defer { viewer.close() }
        XCTAssertEqual(viewer.messages, ["\(path): no such file"])
        let cli = try TestSupport.run(TestSupport.textrender, ["feed", path, "--media-root", NSTemporaryDirectory(), "--out", NSTemporaryDirectory() + "feedview-missing"])
        XCTAssertTrue(cli.stderr.contains("\(path): no such file"), cli.stderr)
        XCTAssertTrue(viewer.settle())
        XCTAssertNotNil(viewer.screenshot())
        XCTAssertTrue(viewer.frame())
    }

    func testMalformedLineAndBrokenPictureAreReportedAsTheCLIDoes() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not a PNG at all".utf8).write(to: folder.appendingPathComponent("broken.png"))
        let feed = folder.appendingPathComponent("bad.jsonl").path
        try """
            {"id": 1, "author": "A", "text": "first post", "images": ["broken.png"]}
            {"id": 2, "author": "B", "text": unquoted}
            {"id": 3, "author": "C", "text": "third post"}

            """.write(toFile: feed, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out").path
        let cli = try TestSupport.run(TestSupport.textrender, ["feed", feed, "--out", out, "--now", TestSupport.now])
        XCTAssertEqual(cli.status, 2, cli.stderr)
        let reported = cli.stderr.split(separator: "\n").filter { $0.hasPrefix("textrender: ") && !$0.hasPrefix("textrender: rendered") }
            .map { String($0.dropFirst("textrender: ".count)) }
        XCTAssertEqual(reported.count, 2, cli.stderr)

        let viewer = try TestSupport.viewer(feed)
        defer { viewer.close() }
        XCTAssertEqual(viewer.document.posts.map(\.id), ["1", "3"])
        XCTAssertTrue(viewer.settle())
        XCTAssertEqual(Set(viewer.messages), Set(reported))
        XCTAssertTrue(viewer.visibleCellsDrawn)
        viewer.scroll(toPoints: 100)
        XCTAssertTrue(viewer.frame())
        XCTAssertNotNil(viewer.screenshot())
    }
}
