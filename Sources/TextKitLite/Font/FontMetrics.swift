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

    /// Takes the larger of each metric.
    mutating func include(_ other: FontMetrics) {
        ascent = max(ascent, other.ascent)
        descent = max(descent, other.descent)
        lineGap = max(lineGap, other.lineGap)
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
