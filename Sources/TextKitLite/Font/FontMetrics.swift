/// Vertical metrics of a font at one point size, in points (positive ascent and descent).
public struct FontMetrics: Sendable, Hashable {
    /// Distance from the baseline up to the top of the line box.
    public var ascent: Double
    /// Distance from the baseline down to the bottom of the line box (positive).
    public var descent: Double
    /// Extra space the font asks for between lines.
    public var lineGap: Double

    /// `ascent + descent + lineGap`.
    public var lineHeight: Double { ascent + descent + lineGap }

    public init(ascent: Double, descent: Double, lineGap: Double) {
        self.ascent = ascent
        self.descent = descent
        self.lineGap = lineGap
    }
}

extension FontMetrics {
    /// No metrics: what the maxima over a line's fonts start from.
    static let none = FontMetrics(ascent: 0, descent: 0, lineGap: 0)

    /// Takes the larger of each metric. (`b > a ? b : a` rather than `max(a, b)`: one
    /// instruction a metric rather than four, as `max` orders NaN, which no metric is; of
    /// two equal metrics it keeps its own, which differs from `max` only in a zero's sign.
    /// Every unit at every width a text is measured at comes through here.)
    @inline(__always)
    mutating func include(_ other: FontMetrics) {
        ascent = other.ascent > ascent ? other.ascent : ascent
        descent = other.descent > descent ? other.descent : descent
        lineGap = other.lineGap > lineGap ? other.lineGap : lineGap
    }
}

/// Where a font draws underlines and strikethroughs at one point size, in points: each
/// stroke's centre below the baseline (negative: above) and its thickness.
package struct DecorationMetrics: Sendable, Hashable {
    package var underlineOffset: Double
    package var underlineThickness: Double
    package var strikethroughOffset: Double
    package var strikethroughThickness: Double
}
