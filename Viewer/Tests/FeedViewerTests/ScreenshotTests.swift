import FeedViewer
import Foundation
import TextKitLite
import XCTest

/// The viewer's window holds each fully visible cell exactly as `textrender feed` draws
/// its post: pixel for pixel at the cell's frame.
final class ScreenshotTests: XCTestCase {
    func testVisibleCellsMatchTextrenderPixelForPixel() throws {
        try TestSupport.requireDisplay()
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try TestSupport.run(TestSupport.textrender, ["feed", TestSupport.photoFeed, "--out", out.path, "--now", TestSupport.now])
        XCTAssertEqual(result.status, 0, result.stderr)
        let viewer = try TestSupport.viewer(TestSupport.photoFeed) { $0.height = 1000 }
        defer { viewer.close() }
        var compared = 0
        for offset in [0.0, 1234.5, 4000] {
            XCTAssertTrue(viewer.settle(at: offset))
            let screen = try XCTUnwrap(viewer.screenshot())
            for cell in viewer.visibleCellFrames where cell.y >= 0 && cell.y + cell.height <= viewer.pixelHeight {
                XCTAssertTrue(cell.drawn)
                let png = try GrayImage(pngFile: out.appendingPathComponent("\(cell.postID).png").path)
                let rgb = try XCTUnwrap(png.rgb)
                XCTAssertEqual(png.width, cell.width)
                XCTAssertEqual(png.height, cell.height, "post \(cell.postID)")
                var mismatches = 0
                for row in 0..<min(png.height, cell.height) {
                    for column in 0..<png.width {
                        let s = ((cell.y + row) * screen.width + column) * 4, p = (row * png.width + column) * 3
                        if screen.pixels[s] != rgb[p] || screen.pixels[s + 1] != rgb[p + 1] || screen.pixels[s + 2] != rgb[p + 2] { mismatches += 1 }
                    }
                }
                XCTAssertEqual(mismatches, 0, "post \(cell.postID) at offset \(offset)")
                compared += 1
            }
        }
        XCTAssertGreaterThanOrEqual(compared, 3)
    }
}
