/// Where the viewport is and how it moves, in pixels: an offset from the top of the feed,
/// a velocity, a finger (or mouse) dragging it, and a fling decaying after a drag, as
/// UIScrollView's normal deceleration does (the velocity multiplied by 0.998 each
/// millisecond). No timing of its own: the frame clock calls `advance(by:)`.
public struct ScrollModel: Sendable, Equatable {
    /// The offset of the viewport's top from the feed's top, in pixels.
    public private(set) var offset: Double = 0
    /// Pixels per second, positive downwards (towards later posts).
    public private(set) var velocity: Double = 0
    /// The largest offset: the content's height less the viewport's (0 when it fits).
    public private(set) var maxOffset: Double = 0
    /// The direction of the last movement: +1 towards later posts, -1 towards earlier ones.
    public private(set) var direction: Int = 1
    /// The velocity is multiplied by this each millisecond of a fling.
    public var decelerationRate = 0.998
    /// A fling slower than this (pixels per second) stops.
    public var stopVelocity = 20.0

    private var drag: (y: Double, samples: [(y: Double, time: Double)])?

    public init() {}

    /// True while a fling moves the viewport.
    public var isFlinging: Bool { velocity != 0 && drag == nil }

    /// Sets the content's extent; the offset stays within it.
    public mutating func setMaxOffset(_ value: Double) {
        maxOffset = max(0, value.isFinite ? value : 0)
        offset = clamp(offset)
    }

    /// Moves to an offset (clamped); stops any fling.
    public mutating func scroll(to value: Double) {
        let target = clamp(value)
        if target != offset { direction = target > offset ? 1 : -1 }
        offset = target
        velocity = 0
    }

    /// Moves by a distance (clamped); stops any fling.
    public mutating func scroll(by delta: Double) { scroll(to: offset + delta) }

    /// Shifts the offset without counting it as a movement (content above the viewport
    /// changed height: the cells on screen stay where they are).
    public mutating func shift(by delta: Double) {
        guard delta.isFinite else { return }
        offset = clamp(offset + delta)
    }

    /// Starts a fling at a velocity (pixels per second, positive downwards).
    public mutating func fling(velocity value: Double) {
        guard value.isFinite else { return }
        drag = nil
        velocity = abs(value) < stopVelocity ? 0 : value
        if velocity != 0 { direction = velocity > 0 ? 1 : -1 }
    }

    /// A finger goes down at `y` (window pixels) at `time` seconds: any fling stops.
    public mutating func beginDrag(y: Double, time: Double) {
        velocity = 0
        drag = (y, [(y, time)])
    }

    /// The finger moves to `y`: the content follows it (moving up scrolls down).
    public mutating func moveDrag(y: Double, time: Double) {
        guard var current = drag else { return }
        scroll(by: current.y - y)
        current.y = y
        current.samples.append((y, time))
        current.samples.removeFirst(max(0, current.samples.count - 5))
        drag = current
    }

    /// The finger lifts: the content flings on at the finger's recent speed.
    public mutating func endDrag(time: Double) {
        guard let current = drag, let first = current.samples.first, let last = current.samples.last else { drag = nil; return }
        drag = nil
        let span = last.time - first.time
        // A finger that stopped before lifting does not fling.
        guard span > 0, time - last.time < 0.1 else { return }
        fling(velocity: (first.y - last.y) / span)
    }

    /// Advances a fling by `seconds`; stops it at either end or when slow.
    public mutating func advance(by seconds: Double) {
        guard drag == nil, velocity != 0, seconds > 0 else { return }
        let decay = pow(decelerationRate, seconds * 1000)
        // The distance covered while decaying: the integral of v·rate^(1000 t).
        let distance = velocity * (decay - 1) / (1000 * log(decelerationRate))
        let target = offset + distance
        offset = clamp(target)
        velocity *= decay
        if offset != target || abs(velocity) < stopVelocity { velocity = 0 }
    }

    private func clamp(_ value: Double) -> Double {
        guard value.isFinite else { return offset }
        return min(max(0, value), maxOffset)
    }

    public static func == (a: ScrollModel, b: ScrollModel) -> Bool {
        a.offset == b.offset && a.velocity == b.velocity && a.maxOffset == b.maxOffset
    }
}

import Foundation
