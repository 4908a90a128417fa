import FeedViewer
import XCTest

final class ScrollModelTests: XCTestCase {
    func testFlingDeceleratesAndStops() {
        var model = ScrollModel()
        model.setMaxOffset(1_000_000)
        model.fling(velocity: 10_000)
        var last = model.offset, frames = 0
        while model.isFlinging && frames < 10_000 {
            model.advance(by: 1.0 / 60)
            XCTAssertGreaterThanOrEqual(model.offset, last)
            last = model.offset
            frames += 1
        }
        XCTAssertFalse(model.isFlinging)
        // v / (1000 ln(1/0.998)): about 0.4995 s of the start velocity.
        XCTAssertEqual(model.offset, 10_000 / (1000 * -log(0.998)), accuracy: 25)
    }

    func testOffsetStaysInsideTheContent() {
        var model = ScrollModel()
        model.setMaxOffset(500)
        model.scroll(by: 900)
        XCTAssertEqual(model.offset, 500)
        model.fling(velocity: -1e9)
        model.advance(by: 1)
        XCTAssertEqual(model.offset, 0)
        XCTAssertFalse(model.isFlinging)
        model.scroll(to: .nan)
        XCTAssertEqual(model.offset, 0)
        model.setMaxOffset(-5)
        XCTAssertEqual(model.maxOffset, 0)
    }

    func testDragFollowsTheFingerThenFlings() {
        var model = ScrollModel()
        model.setMaxOffset(10_000)
        model.beginDrag(y: 500, time: 0)
        model.moveDrag(y: 400, time: 0.01)
        model.moveDrag(y: 300, time: 0.02)
        XCTAssertEqual(model.offset, 200)
        model.endDrag(time: 0.03)
        XCTAssertTrue(model.isFlinging)
        XCTAssertEqual(model.velocity, 10_000, accuracy: 1)
        XCTAssertEqual(model.direction, 1)
    }

    func testShiftKeepsTheDirection() {
        var model = ScrollModel()
        model.setMaxOffset(1000)
        model.scroll(to: 500)
        model.scroll(by: -10)
        model.shift(by: 100)
        XCTAssertEqual(model.direction, -1)
        XCTAssertEqual(model.offset, 590)
    }
}

import Foundation
