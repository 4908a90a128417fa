/// A shape lines flow around (`LayoutOptions.exclusions`), in the layout's coordinates:
/// points, origin at the layout box's top-left, y growing downward (as YYText's
/// `exclusionPaths`: a text wrapping around an avatar or an inline picture).
///
/// Each line takes the widest free interval of its band beside the shapes; text never flows
/// on both sides of a shape on one line. A line with no room is moved down past the shapes.
public enum ExclusionShape: Sendable, Hashable, Codable {
    /// A rectangle.
    case rect(Rect)
    /// A circle (a disc) of a centre and a radius.
    case circle(center: Point, radius: Double)
    /// A closed polygon through its vertices (the last joins the first), convex or not.
    case polygon([Point])

    /// The most shapes a layout takes.
    public static let maximumCount = 256
    /// The most polygon vertices a layout's shapes have in all (a line tests every edge,
    /// and a line moved down at most every vertex's y).
    public static let maximumVertices = 1024

    /// The number of vertices (a polygon's; 0 for a rectangle or a circle).
    var vertexCount: Int {
        if case .polygon(let points) = self { points.count } else { 0 }
    }

    /// The smallest and largest y the shape covers.
    var verticalExtent: (top: Double, bottom: Double) {
        switch self {
        case .rect(let rect): (rect.y, rect.maxY)
        case .circle(let center, let radius): (center.y - radius, center.y + radius)
        case .polygon(let points): (points.map(\.y).min() ?? 0, points.map(\.y).max() ?? 0)
        }
    }

    /// The y values where the shape's horizontal extent over a band changes its law: a
    /// rectangle's top and bottom, a circle's top, centre and bottom, a polygon's vertices.
    var turningYs: [Double] {
        switch self {
        case .rect(let rect): [rect.y, rect.maxY]
        case .circle(let center, let radius): [center.y - radius, center.y, center.y + radius]
        case .polygon(let points): points.map(\.y)
        }
    }

    /// The shape's horizontal extent over the open band `top < y < bottom`: the least and
    /// greatest x of the part of the shape inside it, exactly (a circle's widest chord in the
    /// band, a polygon's edges clipped to it), or nil when the shape does not enter the band.
    func extent(top: Double, bottom: Double) -> (left: Double, right: Double)? {
        switch self {
        case .rect(let rect):
            guard rect.y < bottom, rect.maxY > top else { return nil }
            return (rect.x, rect.maxX)
        case .circle(let center, let radius):
            // The band's nearest y to the centre gives the widest chord.
            let dy = center.y < top ? top - center.y : center.y > bottom ? center.y - bottom : 0
            guard dy < radius else { return nil }
            let half = (radius * radius - dy * dy).squareRoot()
            return (center.x - half, center.x + half)
        case .polygon(let points):
            var left = Double.infinity, right = -Double.infinity
            for (index, p) in points.enumerated() {
                let q = points[index + 1 == points.count ? 0 : index + 1]
                let low = min(p.y, q.y), high = max(p.y, q.y)
                guard high > top, low < bottom else { continue }  // a touching edge does not enter
                let xs: (Double, Double)
                if p.y == q.y {
                    xs = (p.x, q.x)
                } else {
                    // The edge clipped to the band: x where it meets y = max(low, top) and min(high, bottom).
                    let slope = (q.x - p.x) / (q.y - p.y)
                    xs = (p.x + (max(low, top) - p.y) * slope, p.x + (min(high, bottom) - p.y) * slope)
                }
                left = min(left, xs.0, xs.1)
                right = max(right, xs.0, xs.1)
            }
            return left <= right ? (left, right) : nil
        }
    }

    /// Why the shape is refused, or nil: finite coordinates within ±`LayoutOptions.maximumLength`,
    /// a rectangle's size and a circle's radius more than 0, a polygon of 3 to
    /// `maximumVertices` vertices.
    package var problem: String? {
        let limit = LayoutOptions.maximumLength
        func bad(_ values: Double...) -> Bool { values.contains { !($0.isFinite && abs($0) <= limit) } }
        switch self {
        case .rect(let rect):
            if bad(rect.x, rect.y, rect.width, rect.height) { return "coordinates must be finite numbers of points within ±\(Int(limit))" }
            return rect.width > 0 && rect.height > 0 ? nil : "a rectangle's width and height must be more than 0"
        case .circle(let center, let radius):
            if bad(center.x, center.y, radius) { return "coordinates must be finite numbers of points within ±\(Int(limit))" }
            return radius > 0 ? nil : "a circle's radius must be more than 0"
        case .polygon(let points):
            guard (3...Self.maximumVertices).contains(points.count) else {
                return "a polygon needs 3 to \(Self.maximumVertices) vertices"
            }
            return points.contains(where: { bad($0.x, $0.y) }) ? "coordinates must be finite numbers of points within ±\(Int(limit))" : nil
        }
    }
}

extension ExclusionShape {
    private enum CodingKeys: String, CodingKey { case rect, circle, polygon }
    private struct Circle: Codable {
        var center: Point
        var radius: Double
    }

    /// Decodes `{"rect": {x, y, width, height}}`, `{"circle": {"center": {x, y}, "radius": r}}`
    /// or `{"polygon": [{x, y}, ...]}`.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let rect = try c.decodeIfPresent(Rect.self, forKey: .rect) {
            self = .rect(rect)
        } else if let circle = try c.decodeIfPresent(Circle.self, forKey: .circle) {
            self = .circle(center: circle.center, radius: circle.radius)
        } else if let points = try c.decodeIfPresent([Point].self, forKey: .polygon) {
            self = .polygon(points)
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected a rect, circle or polygon"))
        }
    }

    /// Encodes the shape as `init(from:)` reads it.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .rect(let rect): try c.encode(rect, forKey: .rect)
        case .circle(let center, let radius): try c.encode(Circle(center: center, radius: radius), forKey: .circle)
        case .polygon(let points): try c.encode(points, forKey: .polygon)
        }
    }
}

extension ExclusionShape: CustomStringConvertible {
    /// The shape as the command line writes it: `rect:X,Y,W,H`, `circle:X,Y,R`,
    /// `polygon:X1,Y1,X2,Y2,...`.
    public var description: String {
        func list(_ values: [Double]) -> String { values.map { "\($0)" }.joined(separator: ",") }
        return switch self {
        case .rect(let r): "rect:" + list([r.x, r.y, r.width, r.height])
        case .circle(let c, let radius): "circle:" + list([c.x, c.y, radius])
        case .polygon(let points): "polygon:" + list(points.flatMap { [$0.x, $0.y] })
        }
    }
}
