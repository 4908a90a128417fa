/// A width and height in points.
public struct Size: Sendable, Hashable, Codable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)

    public var description: String { "\(width)×\(height)" }
}

/// A point in points, y growing downward.
public struct Point: Sendable, Hashable, Codable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    public var description: String { "(\(x), \(y))" }
}

/// An axis-aligned rectangle in points, y growing downward.
public struct Rect: Sendable, Hashable, Codable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var size: Size { Size(width: width, height: height) }

    /// True when the rectangles share interior area (touching edges do not count).
    public func intersects(_ other: Rect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// True when `other` lies within this rectangle (within `tolerance` points).
    public func contains(_ other: Rect, tolerance: Double = 1e-9) -> Bool {
        other.x >= x - tolerance && other.y >= y - tolerance
            && other.maxX <= maxX + tolerance && other.maxY <= maxY + tolerance
    }

    /// True when `point` lies within the rectangle (its edges included).
    public func contains(_ point: Point) -> Bool {
        point.x >= x && point.x <= maxX && point.y >= y && point.y <= maxY
    }

    /// The distance from `point` to the nearest point of the rectangle, 0 inside it.
    public func distance(to point: Point) -> Double {
        let dx = max(x - point.x, 0, point.x - maxX), dy = max(y - point.y, 0, point.y - maxY)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The rectangle moved by (dx, dy).
    public func offsetBy(dx: Double, dy: Double) -> Rect { Rect(x: x + dx, y: y + dy, width: width, height: height) }

    public var description: String { "(\(x), \(y), \(width)×\(height))" }
}

/// Insets of content within a box, in points.
public struct EdgeInsets: Sendable, Hashable, Codable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same inset on every side.
    public init(all value: Double) { self.init(top: value, left: value, bottom: value, right: value) }

    public static let zero = EdgeInsets()

    package var horizontal: Double { left + right }
    package var vertical: Double { top + bottom }
    package func isWithin(_ maximum: Double) -> Bool {
        func isValid(_ inset: Double) -> Bool { inset >= 0 && inset <= maximum }  // false for NaN
        return isValid(top) && isValid(left) && isValid(bottom) && isValid(right)  // no array made per check
    }
}
