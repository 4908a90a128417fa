/// Underlines and strikethroughs of a line: where the renderer strokes them.
///
/// A decoration is continuous across the runs it spans (fonts and sizes may change under
/// one underline): the span of adjacent runs with the decoration takes one position and
/// thickness, the lowest underline (or the largest run's strikethrough) and the thickest
/// stroke of its runs' fonts, and each run strokes its part in its own decoration color
/// (its ink unless it has one).
enum Decorations {
    enum Kind { case underline, strikethrough }

    /// One stroke, in layout points: from `x` over `width`, centred `offset` below the
    /// baseline, `thickness` thick.
    struct Stroke: Equatable {
        var x: Double
        var width: Double
        var offset: Double
        var thickness: Double
        var ink: Color
    }

    /// The strokes of `kind` on `line`, left to right.
    static func strokes(_ line: LayoutLine, _ kind: Kind) -> [Stroke] {
        var strokes: [Stroke] = []
        var i = 0
        let runs = line.runs
        while i < runs.count {
            guard has(kind, runs[i]) else { i += 1; continue }
            var j = i
            var offset = -Double.infinity, thickness = 0.0, largest = 0.0
            while j < runs.count, has(kind, runs[j]) {
                let metrics = runs[j].font.decorationMetrics(size: runs[j].fontSize)
                switch kind {
                case .underline:
                    offset = max(offset, metrics.underlineOffset)
                    thickness = max(thickness, metrics.underlineThickness)
                case .strikethrough:
                    if runs[j].fontSize > largest { (largest, offset) = (runs[j].fontSize, metrics.strikethroughOffset) }
                    thickness = max(thickness, metrics.strikethroughThickness)
                }
                j += 1
            }
            for run in runs[i..<j] {
                if var last = strokes.last, last.ink == color(run), abs(last.x + last.width - run.x) < 1e-9, last.offset == offset {
                    last.width = run.x + run.width - last.x
                    strokes[strokes.count - 1] = last
                } else {
                    strokes.append(Stroke(x: run.x, width: run.width, offset: offset, thickness: thickness, ink: color(run)))
                }
            }
            i = j
        }
        return strokes
    }

    /// The color a run strokes its decorations in.
    private static func color(_ run: GlyphRun) -> Color { run.style.decorationColor ?? run.style.ink }

    /// The spans of `line` with a background, left to right: adjacent runs with the same
    /// background make one span, so that it is continuous across them.
    static func backgrounds(_ line: LayoutLine) -> [(x: Double, width: Double, color: Color)] {
        var spans: [(x: Double, width: Double, color: Color)] = []
        for run in line.runs {
            guard let color = run.style.background else { continue }
            if let last = spans.last, last.color == color, abs(last.x + last.width - run.x) < 1e-9 {
                spans[spans.count - 1].width = run.x + run.width - last.x
            } else {
                spans.append((run.x, run.width, color))
            }
        }
        return spans
    }

    private static func has(_ kind: Kind, _ run: GlyphRun) -> Bool {
        switch kind {
        case .underline: run.style.underline
        case .strikethrough: run.style.strikethrough
        }
    }
}
