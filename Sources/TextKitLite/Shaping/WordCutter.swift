/// Cuts a paragraph's items into the words that are shaped and broken into lines: at the
/// line-break opportunities of UAX #14, and inside grapheme clusters too long to shape whole.
///
/// Words are asked for in order (each starting where the one before ended), so the cursors
/// into the break opportunities and the cuts only move forward: linear in the paragraph.
struct WordCutter {
    /// The most UTF-16 units of one grapheme cluster shaped at once. HarfBuzz positions a
    /// mark against what precedes it in its cluster, in time quadratic in the cluster's
    /// length (a base with 40,000 marks: seconds); past a few dozen, stacked marks mean
    /// nothing (Unicode's stream-safe text format, UAX #15, allows 30 in a row). A longer
    /// cluster is shaped in parts of this many units: each part costs a bounded time.
    static var maxShapedClusterLength: Int { 32 }

    /// Offsets (paragraph-relative, ascending) after which a line may break.
    private let breaks: [Int32]
    /// Offsets inside over-long clusters where shaping parts meet (almost always none).
    private var clusterCuts: [Int] = []
    private let length: Int
    private var breakIndex = 0, cutIndex = 0

    /// - Parameters:
    ///   - breaks: the paragraph's break opportunities (`UnicodeProperties.lineBreaks`).
    ///   - length: the paragraph's length in UTF-16 units.
    init(breaks: [Int32], length: Int) {
        self.breaks = breaks
        self.length = length
    }

    /// Records a grapheme cluster of `units` (the paragraph's): one longer than
    /// `maxShapedClusterLength` is cut every that many units, never inside a surrogate pair.
    /// Clusters are given in order.
    @inline(__always)
    mutating func noteCluster(_ range: Range<Int>, of units: UnsafeBufferPointer<UInt16>) {
        if range.count > Self.maxShapedClusterLength { cut(range, of: units) }
    }

    private mutating func cut(_ range: Range<Int>, of units: UnsafeBufferPointer<UInt16>) {
        var cut = range.lowerBound + Self.maxShapedClusterLength
        while cut < range.upperBound {
            if UTF16.isTrailSurrogate(units[cut]) { cut += 1 }
            guard cut < range.upperBound else { break }
            clusterCuts.append(cut)
            cut += Self.maxShapedClusterLength
        }
    }

    /// The word that starts at `start` in an item ending at `itemEnd`: where it ends, and
    /// whether a line may break after it (not at an item's end or a cut inside a cluster
    /// alone).
    @inline(__always)
    mutating func word(from start: Int, itemEnd: Int) -> (end: Int, breakAfter: Bool) {
        while breakIndex < breaks.count, Int(breaks[breakIndex]) <= start { breakIndex += 1 }
        let nextBreak = breakIndex < breaks.count ? Int(breaks[breakIndex]) : length
        while cutIndex < clusterCuts.count, clusterCuts[cutIndex] <= start { cutIndex += 1 }
        let end = min(nextBreak, itemEnd, cutIndex < clusterCuts.count ? clusterCuts[cutIndex] : length)
        return (end, end == nextBreak)
    }

    /// About how many words the paragraph has (a capacity hint).
    func estimatedWordCount(items: Int) -> Int { breaks.count + items + clusterCuts.count }
}
