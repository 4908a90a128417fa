import FeedViewer
import XCTest

final class CellRangesTests: XCTestCase {
    /// 100 cells of 100 pixels.
    private func geometry() -> CellGeometry {
        var geometry = CellGeometry(count: 100, estimate: 50)
        for index in 0..<100 { geometry.setHeight(100, at: index) }
        geometry.rebuildIfNeeded()
        return geometry
    }

    func testGeometryEstimatesUnknownCellsWithTheMeanOfKnownOnes() {
        var geometry = CellGeometry(count: 4, estimate: 50)
        XCTAssertEqual(geometry.contentHeight, 200)
        geometry.setHeight(100, at: 0)
        geometry.setHeight(300, at: 1)
        geometry.rebuildIfNeeded()
        XCTAssertEqual(geometry.contentHeight, 100 + 300 + 200 + 200)
        XCTAssertEqual(geometry.index(at: 399), 1)
        XCTAssertEqual(geometry.index(at: 400), 2)
        XCTAssertEqual(geometry.cells(from: 50, to: 450), 0..<3)
        XCTAssertEqual(geometry.cells(from: 800, to: 900), 0..<0)
        XCTAssertEqual(CellGeometry(count: 0, estimate: 10).index(at: 5), nil)
    }

    func testRangesWidenInTheScrollingDirection() {
        let geometry = geometry()
        let down = CellRanges(geometry: geometry, offset: 5000, height: 400, direction: 1)
        XCTAssertEqual(down.visible, 50..<54)
        XCTAssertEqual(down.display, 48..<58)   // 0.5 screen behind, 1 ahead
        XCTAssertEqual(down.preload, 46..<64)   // 1 behind, 2.5 ahead
        let up = CellRanges(geometry: geometry, offset: 5000, height: 400, direction: -1)
        XCTAssertEqual(up.display, 46..<56)
        XCTAssertEqual(up.preload, 40..<58)
        for ranges in [down, up] {
            XCTAssertTrue(ranges.display.contains(ranges.visible.lowerBound) && ranges.display.upperBound >= ranges.visible.upperBound)
            XCTAssertTrue(ranges.preload.lowerBound <= ranges.display.lowerBound && ranges.preload.upperBound >= ranges.display.upperBound)
        }
        XCTAssertEqual(down.distance(of: 51), 0)
        XCTAssertEqual(down.distance(of: 55), 2)
        XCTAssertEqual(down.distance(of: 47), 3)
    }
}
