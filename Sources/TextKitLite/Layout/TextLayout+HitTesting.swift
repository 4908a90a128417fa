// Hit testing: from a point to a character index, and from a range to the rects that show
// it, through the glyph runs' clusters and directions and the attachments' boxes (as
// CoreText's CTLineGetStringIndexForPosition and a selection's rects).

extension TextLayout {
    /// The UTF-16 offset nearest a point, at a grapheme cluster boundary, in layout
    /// coordinates (points): the line by y (the nearest one for a point above, below or
    /// between lines), then the caret position along that line nearest x, in the glyph run
    /// under x (or the nearest one). A point on the truncation token maps to where the text
    /// was cut; a point on a line with no glyphs (an empty line) to the line's start.
    ///
    /// Half a cluster from its leading edge maps to its start, the other half to its end:
    /// in a right-to-left run the right half gives the start.
    ///
    /// - Complexity: O(log l + g) for l lines and g glyphs on the line.
    /// In a vertical layout, the column is found by x and the position down it by y.
    public func characterIndex(at layoutPoint: Point) -> Int {
        let point = linePoint(layoutPoint)
        guard let line = line(nearestY: point.y) else { return 0 }
        guard let run = Self.run(in: Self.caretRuns(of: line), nearestX: point.x) else { return line.range.lowerBound }
        if run.isTruncationToken { return truncationCut(in: line) }
        let graphemes = LineGraphemes(text.utf16, line.range)
        let stops = Self.caretStops(of: run, graphemes: graphemes)
        let candidates = stops.contains(where: \.isBoundary) ? stops.filter(\.isBoundary) : stops
        var best = candidates[0]
        for stop in candidates.dropFirst() where abs(stop.x - point.x) < abs(best.x - point.x) { best = stop }
        return graphemes.boundary(atOrBefore: best.offset)
    }

    /// The rects that show a range of the text (UTF-16 offsets), in layout coordinates:
    /// one per visually contiguous piece per line, as tall as the line box (as wide as the
    /// column, in a vertical layout); a range that
    /// spans a right-to-left run inside left-to-right text gives a piece on each side.
    /// Text hidden by truncation has none; grapheme clusters the range only partly covers
    /// count whole.
    ///
    /// - Complexity: O(g log g) in the glyphs of the lines the range is on.
    public func rects(for range: Range<Int>) -> [Rect] {
        range.isEmpty ? [] : rects(for: [range], inTruncationToken: false)[0]
    }

    /// The rects of ascending, disjoint, non-empty ranges, one list per range: of the text,
    /// or of the truncation token's text (on the truncated line).
    func rects(for ranges: [Range<Int>], inTruncationToken: Bool) -> [[Rect]] {
        var result = [[Rect]](repeating: [], count: ranges.count)
        var first = 0  // the first range that does not end before the line
        for line in lines {
            if inTruncationToken {
                guard line.isTruncated else { continue }
            } else {
                while first < ranges.count, ranges[first].upperBound <= line.range.lowerBound { first += 1 }
                guard first < ranges.count, ranges[first].lowerBound < line.range.upperBound else { continue }
            }
            let graphemes = inTruncationToken ? LineGraphemes(truncationTokenUnits, 0..<truncationTokenUnits.count)
                                              : LineGraphemes(text.utf16, line.range)
            // The line's grapheme pieces in logical order, each with its x extent.
            var segments: [(range: Range<Int>, left: Double, right: Double)] = []
            for run in Self.caretRuns(of: line) where run.isTruncationToken == inTruncationToken {
                let stops = Self.caretStops(of: run, graphemes: graphemes)
                for (a, b) in zip(stops, stops.dropFirst()) where a.offset < b.offset {
                    segments.append((a.offset..<b.offset, min(a.x, b.x), max(a.x, b.x)))
                }
            }
            segments.sort { $0.range.lowerBound < $1.range.lowerBound }
            var s = 0
            var k = inTruncationToken ? 0 : first
            while k < ranges.count, inTruncationToken || ranges[k].lowerBound < line.range.upperBound {
                while s < segments.count, segments[s].range.upperBound <= ranges[k].lowerBound { s += 1 }
                var pieces: [(left: Double, right: Double)] = []
                var t = s
                while t < segments.count, segments[t].range.lowerBound < ranges[k].upperBound {
                    pieces.append((segments[t].left, segments[t].right))
                    t += 1
                }
                result[k] += Self.merged(pieces).map {
                    layoutRect(Rect(x: $0.left, y: line.frame.y, width: $0.right - $0.left, height: line.frame.height))
                }
                k += 1
            }
        }
        return result
    }

    /// Intervals sorted and joined where they touch; empty ones left out.
    private static func merged(_ intervals: [(left: Double, right: Double)]) -> [(left: Double, right: Double)] {
        var result: [(left: Double, right: Double)] = []
        for interval in intervals.sorted(by: { $0.left < $1.left }) {
            if let last = result.last, interval.left <= last.right + 1e-6 {
                result[result.count - 1].right = max(last.right, interval.right)
            } else {
                result.append(interval)
            }
        }
        return result.filter { $0.right > $0.left }
    }

    /// The units of the truncation token the layout shows when truncated.
    var truncationTokenUnits: [UInt16] { options.truncationToken?.utf16 ?? [0x2026] }

    /// Where the text of a truncated line was cut: its end, its start (start truncation),
    /// or the end of the text kept before the token (middle truncation).
    func truncationCut(in line: LayoutLine) -> Int {
        switch options.truncation {
        case .end: return line.range.upperBound
        case .start: return line.range.lowerBound
        case .middle:
            guard let head = visibleRanges(of: line).first, head.lowerBound == line.range.lowerBound else { return line.range.lowerBound }
            return head.upperBound
        }
    }

    /// The parts of a line's range its glyphs show: the whole range, but for a truncated
    /// line drawn with glyphs, the text its runs and attachments show (middle truncation
    /// hides the middle).
    func visibleRanges(of line: LayoutLine) -> [Range<Int>] {
        let runs = Self.caretRuns(of: line)
        guard line.isTruncated, !runs.isEmpty else { return [line.range] }
        var result: [Range<Int>] = []
        for range in runs.filter({ !$0.isTruncationToken }).map(\.range).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else if !range.isEmpty {
                result.append(range)
            }
        }
        return result
    }

    /// The line whose box holds y, or the nearest one (the earlier on a tie).
    private func line(nearestY y: Double) -> LayoutLine? {
        guard !lines.isEmpty else { return nil }
        // The first line whose box ends below y.
        var low = 0, high = lines.count
        while low < high {
            let mid = (low + high) / 2
            if lines[mid].frame.maxY <= y { low = mid + 1 } else { high = mid }
        }
        guard low < lines.count else { return lines[lines.count - 1] }
        let below = lines[low]
        if low > 0, y < below.frame.y, y - lines[low - 1].frame.maxY <= below.frame.y - y { return lines[low - 1] }
        return below
    }

    /// The run whose advance box holds x, or the nearest one.
    private static func run(in runs: [CaretRun], nearestX x: Double) -> CaretRun? {
        var best: CaretRun?, bestDistance = Double.infinity
        for run in runs {
            let distance = max(run.x - x, 0, x - (run.x + run.width))
            if distance < bestDistance {
                best = run
                bestDistance = distance
            }
        }
        return best
    }

    /// A glyph run or an attachment, as hit testing sees it: its text (or token) range,
    /// advance box, direction, and clusters in visual order with their left edges.
    struct CaretRun {
        var range: Range<Int>
        var x: Double
        var width: Double
        var isRightToLeft: Bool
        var isTruncationToken: Bool
        var clusters: [(start: Int, left: Double)]
    }

    /// A line's glyph runs and attachments, left to right. A glyph cluster's left edge is
    /// its leftmost glyph's (a mark may come first, offset over its base). An attachment is
    /// one cluster; its direction is where the text before it lies (on its left: left to
    /// right), or else the text after it.
    static func caretRuns(of line: LayoutLine) -> [CaretRun] {
        var result = line.runs.map { run in
            var clusters: [(start: Int, left: Double)] = []
            for glyph in run.glyphs {
                let start = min(max(Int(glyph.cluster), run.range.lowerBound), run.range.upperBound), x = Double(glyph.position.x)
                if let last = clusters.last, last.start == start {
                    clusters[clusters.count - 1].left = min(last.left, x)
                } else {
                    clusters.append((start, x))
                }
            }
            return CaretRun(range: run.range, x: run.x, width: run.width, isRightToLeft: run.isRightToLeft,
                            isTruncationToken: run.isTruncationToken, clusters: clusters)
        }
        guard !line.attachments.isEmpty else { return result }
        // The x of the first box (runs, then attachments) of the text or of the token that
        // ends, or starts, at each offset: found once, not searched for per attachment.
        struct Edge: Hashable {
            var offset: Int
            var isTruncationToken: Bool
        }
        var ends: [Edge: Double] = [:], starts: [Edge: Double] = [:]
        let boxes = result.map { ($0.range, $0.x, $0.isTruncationToken) }
            + line.attachments.map { ($0.offset..<$0.offset + 1, $0.rect.x, $0.isTruncationToken) }
        for (range, x, isTruncationToken) in boxes {
            let end = Edge(offset: range.upperBound, isTruncationToken: isTruncationToken)
            let start = Edge(offset: range.lowerBound, isTruncationToken: isTruncationToken)
            if ends[end] == nil { ends[end] = x }
            if starts[start] == nil { starts[start] = x }
        }
        for attachment in line.attachments {
            let offset = attachment.offset, x = attachment.rect.x
            var rightToLeft = false
            if let before = ends[Edge(offset: offset, isTruncationToken: attachment.isTruncationToken)] {
                rightToLeft = before > x
            } else if let after = starts[Edge(offset: offset + 1, isTruncationToken: attachment.isTruncationToken)] {
                rightToLeft = after < x
            }
            result.append(CaretRun(range: offset..<offset + 1, x: x, width: attachment.rect.width, isRightToLeft: rightToLeft,
                                   isTruncationToken: attachment.isTruncationToken, clusters: [(offset, x)]))
        }
        return result.sorted { $0.x < $1.x }
    }

    /// A caret position in a run: an offset of the text (or token) and its x.
    struct CaretStop {
        var offset: Int
        var x: Double
        /// The offset is a grapheme cluster boundary (a run's ends may not be, where
        /// HarfBuzz splits a cluster).
        var isBoundary: Bool
    }

    /// The caret positions of a run in logical order: its start, every grapheme boundary in
    /// it and its end. A glyph cluster spans from its left edge to the next cluster's; the
    /// grapheme clusters in one glyph cluster (a ligature) share its width evenly.
    static func caretStops(of run: CaretRun, graphemes: LineGraphemes) -> [CaretStop] {
        let lower = run.range.lowerBound, upper = run.range.upperBound
        let left = run.x, right = run.x + run.width
        let clusters = run.clusters.isEmpty ? [(start: lower, left: left)] : run.clusters
        var edges = clusters.map(\.left) + [right]
        edges[0] = left
        for k in edges.indices.dropFirst() { edges[k] = min(right, max(edges[k], edges[k - 1])) }

        var stops: [CaretStop] = []
        func add(_ offset: Int, _ x: Double) {
            guard offset > (stops.last?.offset ?? Int.min) else { return }
            stops.append(CaretStop(offset: offset, x: x, isBoundary: graphemes.contains(offset)))
        }
        let logical = clusters.indices.sorted { (clusters[$0].start, $0) < (clusters[$1].start, $1) }
        for (n, k) in logical.enumerated() {
            let start = clusters[k].start
            guard n == 0 || clusters[logical[n - 1]].start != start else { continue }  // a cluster in two places
            let end = logical[(n + 1)...].lazy.map { clusters[$0].start }.first { $0 > start } ?? upper
            let (l, r) = (edges[k], edges[k + 1])
            let inside = graphemes.boundaries(in: start..<end)
            let parts = Double(inside.count + 1)
            func x(_ fraction: Double) -> Double { run.isRightToLeft ? r - fraction * (r - l) : l + fraction * (r - l) }
            add(start, x(0))
            for (j, offset) in inside.enumerated() { add(offset, x(Double(j + 1) / parts)) }
        }
        add(upper, run.isRightToLeft ? left : right)
        return stops
    }
}

/// The grapheme cluster boundaries of a line's text (or of a truncation token's).
struct LineGraphemes {
    private let start: Int
    private let boundaries: GraphemeBoundaries

    init(_ units: [UInt16], _ range: Range<Int>) {
        start = range.lowerBound
        boundaries = units.withUnsafeBufferPointer {
            UnicodeProperties.graphemeBoundaries(UnsafeBufferPointer(rebasing: $0[range])).offset(by: Int32(range.lowerBound))
        }
    }

    func contains(_ offset: Int) -> Bool {
        if offset == start { return true }
        let i = boundaries.firstIndex(atOrAfter: Int32(offset))
        return i < boundaries.endIndex && Int(boundaries[i]) == offset
    }

    /// The boundaries strictly inside a range, ascending.
    func boundaries(in range: Range<Int>) -> [Int] {
        var result: [Int] = []
        var i = boundaries.firstIndex(atOrAfter: Int32(range.lowerBound) + 1)
        while i < boundaries.endIndex, Int(boundaries[i]) < range.upperBound {
            result.append(Int(boundaries[i]))
            i += 1
        }
        return result
    }

    /// The last boundary at or before an offset.
    func boundary(atOrBefore offset: Int) -> Int {
        let i = boundaries.firstIndex(atOrAfter: Int32(offset))
        if i < boundaries.endIndex, Int(boundaries[i]) == offset { return offset }
        return i > 0 ? Int(boundaries[i - 1]) : start
    }
}
