extension TextLayout {
    /// A highlight a layout shows, and where.
    public struct Highlight: Sendable, Hashable {
        /// Kind, value and range: a range of the layout's text (clipped to the text the lines
        /// show), or of the truncation token's text.
        public var highlight: AttributedText.Highlight
        /// The highlight belongs to the truncation token (`LayoutOptions.truncationToken`).
        public var isInTruncationToken: Bool
        /// One rect per visual piece per line, in layout coordinates.
        public var rects: [Rect]

        public init(highlight: AttributedText.Highlight, isInTruncationToken: Bool, rects: [Rect]) {
            self.highlight = highlight
            self.isInTruncationToken = isInTruncationToken
            self.rects = rects
        }

        /// The distance from a point to the nearest of the rects, 0 inside one, infinity when
        /// there are none.
        public func distance(to point: Point) -> Double {
            rects.reduce(.infinity) { min($0, $1.distance(to: point)) }
        }

        /// The same highlight with its rects moved by (dx, dy).
        public func offsetBy(dx: Double, dy: Double) -> Highlight {
            Highlight(highlight: highlight, isInTruncationToken: isInTruncationToken, rects: rects.map { $0.offsetBy(dx: dx, dy: dy) })
        }
    }
}

extension TextLayout {
    /// The highlights the layout shows, with their rects: the text's highlights clipped to
    /// the text the lines show (a highlight cut by truncation keeps its visible part; one
    /// cut in two by middle truncation gives two), then, when the text is truncated, the
    /// truncation token's own highlights (an `expand` token's, say).
    ///
    /// - Complexity: O(h + g log g) for h highlights and g glyphs on the lines they are on.
    public var highlights: [Highlight] {
        // The text the lines show, in ascending disjoint ranges.
        var visible: [Range<Int>] = []
        for line in lines {
            for range in visibleRanges(of: line) {
                if let last = visible.last, last.upperBound == range.lowerBound {
                    visible[visible.count - 1] = last.lowerBound..<range.upperBound
                } else {
                    visible.append(range)
                }
            }
        }
        var shown: [AttributedText.Highlight] = []
        var v = 0
        for highlight in text.highlights {
            while v < visible.count, visible[v].upperBound <= highlight.range.lowerBound { v += 1 }
            var w = v
            while w < visible.count, visible[w].lowerBound < highlight.range.upperBound {
                var part = highlight
                part.range = highlight.range.clamped(to: visible[w])
                shown.append(part)
                w += 1
            }
        }
        var result = zip(shown, rects(for: shown.map(\.range), inTruncationToken: false)).map {
            Highlight(highlight: $0, isInTruncationToken: false, rects: $1)
        }
        if isTruncated, let token = options.truncationToken?.highlights, !token.isEmpty {
            result += zip(token, rects(for: token.map(\.range), inTruncationToken: true)).map {
                Highlight(highlight: $0, isInTruncationToken: true, rects: $1)
            }
        }
        return result
    }

    /// The highlight at a point (layout coordinates), or within `margin` points of one (a
    /// tap's tolerance); the nearest wins, the first on a tie.
    ///
    /// - Complexity: that of `highlights`.
    public func highlight(at point: Point, margin: Double = 0) -> Highlight? {
        highlights.nearest(within: margin) { $0.distance(to: point) }
    }
}

extension Sequence {
    /// The element at the smallest distance, if that is at most `margin`; the first on a tie.
    package func nearest(within margin: Double, distance: (Element) -> Double) -> Element? {
        var best: Element?, bestDistance = Double.infinity
        for element in self {
            let d = distance(element)
            if d <= margin, d < bestDistance {
                best = element
                bestDistance = d
            }
        }
        return best
    }
}
