/// The cells' heights and tops in pixels, one column: a height is known once the cell is
/// laid out, estimated (the mean of the known ones) before. Tops are prefix sums, rebuilt
/// at most once per frame (`rebuildIfNeeded`), so a lookup is a binary search.
public struct CellGeometry: Sendable {
    /// Each cell's height in pixels, or nil while unknown.
    public private(set) var known: [Int?]
    /// The height given to a cell not yet laid out, before any is.
    public let initialEstimate: Int
    private var tops: [Int]
    private var knownSum = 0
    private var knownCount = 0
    private var dirty = true

    /// - Parameters:
    ///   - count: the number of cells.
    ///   - estimate: the height of a cell not laid out yet while none is (pixels, at least 1).
    public init(count: Int, estimate: Int) {
        known = Array(repeating: nil, count: max(0, count))
        initialEstimate = max(1, estimate)
        tops = []
        rebuildIfNeeded()
    }

    public var count: Int { known.count }

    /// The height an unknown cell is given: the mean of the known heights.
    public var estimate: Int { knownCount == 0 ? initialEstimate : max(1, knownSum / knownCount) }

    /// Number of cells whose height is known.
    public var knownCells: Int { knownCount }

    /// Records a cell's height; returns the change of its height as drawn (0 if it was known).
    @discardableResult
    public mutating func setHeight(_ height: Int, at index: Int) -> Int {
        guard known.indices.contains(index), known[index] == nil else { return 0 }
        let before = estimate
        let height = max(1, height)
        known[index] = height
        knownSum += height
        knownCount += 1
        dirty = true
        return height - before
    }

    /// Recomputes the tops after heights changed.
    public mutating func rebuildIfNeeded() {
        guard dirty else { return }
        dirty = false
        let guess = estimate
        tops = [Int](repeating: 0, count: known.count + 1)
        var y = 0
        for index in known.indices {
            tops[index] = y
            y += known[index] ?? guess
        }
        tops[known.count] = y
    }

    /// The top of a cell (or the content's height at `count`).
    public func top(_ index: Int) -> Int { tops[max(0, min(index, tops.count - 1))] }

    /// A cell's height as drawn (known or estimated).
    public func height(_ index: Int) -> Int { top(index + 1) - top(index) }

    /// The content's height.
    public var contentHeight: Int { tops.last ?? 0 }

    /// The cell under a y (clamped to the cells; nil when there are none).
    public func index(at y: Int) -> Int? {
        guard count > 0 else { return nil }
        var low = 0, high = count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if tops[middle] <= y { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The cells that meet the span `[from, to)` (pixels), in order.
    public func cells(from: Int, to: Int) -> Range<Int> {
        guard count > 0, to > from, to > 0, from < contentHeight, let first = index(at: max(0, from)),
              let last = index(at: min(contentHeight - 1, to - 1)) else { return 0..<0 }
        return first..<(last + 1)
    }
}
