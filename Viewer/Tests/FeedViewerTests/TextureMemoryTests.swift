import FeedViewer
import Foundation
import TextKitLite
import XCTest

/// Texture memory stays under its bound over a long scroll; closing releases every texture
/// and leaves no job behind.
final class TextureMemoryTests: XCTestCase {
    func testTextureMemoryStaysUnderItsBoundOverALongScroll() throws {
        let limit = 16 << 20
        let viewer = try TestSupport.viewer(TestSupport.photoFeed) { settings in
            settings.repeatCount = 6
            settings.textureMemoryLimit = limit
        }
        defer { viewer.close() }
        XCTAssertTrue(viewer.settle())
        var steps = 0
        while !viewer.atEnd(1) && steps < 2000 {
            viewer.frame(scrollBy: 300)
            XCTAssertLessThanOrEqual(viewer.textureBytes, limit)
            if steps % 5 == 0 { XCTAssertTrue(viewer.settle()) }
            steps += 1
        }
        XCTAssertTrue(viewer.atEnd(1))
        XCTAssertTrue(viewer.settle())
        XCTAssertLessThanOrEqual(viewer.stats.textureBytesPeak, limit)
        XCTAssertGreaterThan(viewer.stats.texturesReleased, 0)
        XCTAssertTrue(viewer.visibleCellsDrawn)
    }

    func testClosingReleasesEveryTextureAndEndsEveryJob() throws {
        let viewer = try TestSupport.viewer(TestSupport.photoFeed) { $0.repeatCount = 4 }
        XCTAssertTrue(viewer.settle())
        XCTAssertGreaterThan(viewer.textureCount, 0)
        viewer.fling(pointsPerSecond: 20_000)
        for _ in 0..<5 { viewer.frame() }
        let leftovers = viewer.close()
        XCTAssertEqual(leftovers, FeedViewer.Leftovers(textures: 0, textureBytes: 0, pendingJobs: 0))
        XCTAssertEqual(viewer.textureCount, 0)
        XCTAssertEqual(viewer.textureBytes, 0)
        XCTAssertFalse(viewer.hasJobsInFlight)
        XCTAssertFalse(viewer.frame())
    }
}
