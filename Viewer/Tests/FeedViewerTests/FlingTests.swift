import Dispatch
import FeedViewer
import Foundation
import TextKitLite
import TextKitLiteFeed
import XCTest

/// A scripted fling cancels renders and never shows one post's pixels in another's frame.
final class FlingTests: XCTestCase {
    func testFlingCancelsRendersAndNeverMixesCells() throws {
        try TestSupport.requireDisplay()
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let feed = try TestSupport.distinctFeed(in: folder)
        let pool = RenderQueuePool(workerCount: 2, label: "fling-test")
        let viewer = try TestSupport.viewer(feed) { settings in
            settings.mediaRoot = TestSupport.examples.path
            settings.pool = pool
        }
        defer { viewer.close() }
        XCTAssertTrue(viewer.settle())
        // Both workers held: every render asked for during the fling waits, and the cells
        // leave the display range before it can start. No timing involved.
        let gate = DispatchSemaphore(value: 0), held = DispatchGroup()
        for _ in 0..<2 {
            held.enter()
            pool.submit(priority: .visible) { held.leave(); gate.wait() }
        }
        held.wait()
        viewer.fling(pointsPerSecond: 30_000)
        for _ in 0..<30 { viewer.frame() }
        XCTAssertGreaterThan(viewer.stats.rendersStarted, 0)
        gate.signal()
        gate.signal()

        var expected: [Int: Bitmap] = [:]
        func bitmap(_ index: Int) throws -> Bitmap {
            if let cached = expected[index] { return cached }
            let layout = try viewer.precomputer.layout(viewer.document.posts[index], width: viewer.settings.width, scale: viewer.settings.scale)
            let drawn = try XCTUnwrap(try viewer.cellRenderer.render(layout, options: viewer.renderOptions))
            expected[index] = drawn
            return drawn
        }
        let theme = viewer.settings.theme
        let placeholderColors = Set([theme.background, theme.imageFill].map { [$0.red, $0.green, $0.blue] })
        var checkedDrawn = 0, frames = 0
        repeat {
            viewer.frame()
            frames += 1
            guard frames % 3 == 0 || !viewer.isFlinging else { continue }
            let screen = try XCTUnwrap(viewer.screenshot())
            for cell in viewer.visibleCellFrames where cell.height > 0 {
                let rows = max(0, -cell.y)..<min(cell.height, viewer.pixelHeight - cell.y)
                guard !rows.isEmpty else { continue }
                if cell.drawn {
                    XCTAssertTrue(region(screen, y: cell.y, rows: rows, equals: try bitmap(cell.index)), "post \(cell.postID) at frame \(frames)")
                    checkedDrawn += 1
                } else {
                    for row in rows {
                        for column in stride(from: 0, to: screen.width, by: 7) {
                            let s = ((cell.y + row) * screen.width + column) * 4
                            XCTAssertTrue(placeholderColors.contains(Array(screen.pixels[s..<s + 3])), "placeholder of \(cell.postID)")
                        }
                    }
                }
            }
        } while viewer.isFlinging
        XCTAssertTrue(viewer.settle())
        XCTAssertGreaterThan(viewer.stats.rendersCancelled, 0)
        XCTAssertGreaterThan(checkedDrawn, 0)
        let screen = try XCTUnwrap(viewer.screenshot())
        for cell in viewer.visibleCellFrames where cell.height > 0 {
            let rows = max(0, -cell.y)..<min(cell.height, viewer.pixelHeight - cell.y)
            XCTAssertTrue(region(screen, y: cell.y, rows: rows, equals: try bitmap(cell.index)), "post \(cell.postID) at rest")
        }
    }
}
