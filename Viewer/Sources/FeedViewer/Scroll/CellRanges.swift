/// How far the ranges reach beyond the viewport, in screens, ahead of the scrolling
/// (leading) and behind it (trailing), as Texture's `ASRangeTuningParameters` do.
public struct RangeTuning: Sendable, Equatable {
    public var displayLeading: Double
    public var displayTrailing: Double
    public var preloadLeading: Double
    public var preloadTrailing: Double

    public init(displayLeading: Double = 1, displayTrailing: Double = 0.5, preloadLeading: Double = 2.5, preloadTrailing: Double = 1) {
        self.displayLeading = displayLeading
        self.displayTrailing = displayTrailing
        self.preloadLeading = preloadLeading
        self.preloadTrailing = preloadTrailing
    }
}

/// The cells around the viewport, Texture-style: visible (on screen), display (being drawn,
/// their textures kept) and preload (laid out, pictures decoded), each range widened in the
/// scrolling direction. Each range contains the one before it.
public struct CellRanges: Sendable, Equatable {
    public var visible: Range<Int>
    public var display: Range<Int>
    public var preload: Range<Int>

    /// The ranges for a viewport.
    ///
    /// - Parameters:
    ///   - offset: the viewport's top (pixels).
    ///   - height: the viewport's height (pixels).
    ///   - direction: +1 scrolling towards later cells, -1 towards earlier ones.
    public init(geometry: CellGeometry, offset: Int, height: Int, direction: Int, tuning: RangeTuning = RangeTuning()) {
        func span(_ leading: Double, _ trailing: Double) -> Range<Int> {
            let ahead = Int(Double(height) * leading), behind = Int(Double(height) * trailing)
            let (above, below) = direction >= 0 ? (behind, ahead) : (ahead, behind)
            return geometry.cells(from: offset - above, to: offset + height + below)
        }
        visible = geometry.cells(from: offset, to: offset + height)
        display = span(tuning.displayLeading, tuning.displayTrailing)
        preload = span(tuning.preloadLeading, tuning.preloadTrailing)
    }

    /// How far a cell lies outside the visible range, in cells (0 inside it).
    public func distance(of index: Int) -> Int {
        if visible.isEmpty { return index }
        if index < visible.lowerBound { return visible.lowerBound - index }
        if index >= visible.upperBound { return index - visible.upperBound + 1 }
        return 0
    }
}
