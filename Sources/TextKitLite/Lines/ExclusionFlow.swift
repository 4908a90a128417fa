/// Where a line goes when the layout has exclusion shapes: the free interval it takes and
/// how far it was moved down below where the line boxes would stack it.
struct LineSlot: Sendable, Hashable {
    /// Left edge of the free interval, in layout coordinates (points).
    var x: Double
    /// Width of the free interval (infinity when the layout does not wrap).
    var width: Double
    /// How far the line box was moved down past shapes that left no room.
    var drop: Double
}

/// The lines' slots around a layout's exclusion shapes (`LayoutOptions.exclusions`), for
/// the one line breaker: when a line begins, its band (the vertical span its glyphs may
/// take) is tested against every shape, the widest free interval of the content box is its
/// width and x, and a line with no room steps down until it has some. The breaker reads the
/// width as the line's limit (`LineBreaker.fits`), the receivers read the slot from the line
/// (`LineEnd.slot`), and the line boxes are stacked by `LineStack` here as in the receivers,
/// so measuring and layout place every line alike.
///
/// The band is the line box, widened to where glyphs may reach: with natural line heights
/// a line's height is known only once it ends, so the band is that of the tallest metrics
/// of the paragraph (its units' metrics table and its empty-line metrics), the most any of
/// its lines can take; with uniform or fixed heights, the line box itself (and the tallest
/// glyphs centred in it when they overflow it).
///
/// A class: a breaker holds it by reference (nil without shapes, as for most layouts), so a
/// breaker without shapes stays a few words to make, move and free. Each breaker makes its
/// own (`LineBreaker.flow(around:primary:)`), and no breaker is copied while it breaks.
final class ExclusionFlow {
    private let shapes: [ExclusionShape]
    /// Each shape's vertical extent (to skip those a band does not reach).
    private let spans: [(top: Double, bottom: Double)]
    /// Every y where a shape's extent changes its law, ascending.
    private let turningYs: [Double]
    private let left: Double
    private let contentWidth: Double
    /// Lines are broken at no width (no wrapping, or a single line truncated at its start
    /// or middle): the slot places the line but does not limit it.
    private let unlimited: Bool
    private let mode: LineHeightMode
    private let multiple: Double
    private var stack: LineStack
    /// The band of a line whose box starts at y: `y + above` to `y + below`.
    private var above = 0.0, below = 0.0
    /// A paragraph began, so the band is known.
    private var hasBand = false
    /// The slot of the line being filled, found when it began.
    private var pending: LineSlot?
    /// The slot of the last line ended.
    private(set) var lastSlot: LineSlot?

    /// The flow for `options`, or nil when they have no exclusions.
    ///
    /// - Parameter primary: the primary font's metrics at the text's base size.
    init?(options: LayoutOptions, primary: FontMetrics) {
        guard !options.exclusions.isEmpty else { return nil }
        shapes = options.exclusions
        spans = shapes.map(\.verticalExtent)
        turningYs = Set(shapes.flatMap(\.turningYs)).sorted()
        left = options.lineInsets.left
        contentWidth = options.contentWidth
        unlimited = !options.contentWidth.isFinite
        mode = options.lineHeightMode
        multiple = options.lineHeightMultiple
        stack = LineStack(options: options, primary: primary)
    }

    /// The widest a line can be: the content width, or infinity when lines are not limited.
    var widestLimit: Double { unlimited ? .infinity : contentWidth + LineCuts.epsilon }

    /// A paragraph begins: its band is that of its tallest metrics, `metrics` (its units'
    /// table) and `emptyMetrics` (its empty line's).
    func beginParagraph(metrics: UnsafeBufferPointer<FontMetrics>, emptyMetrics: FontMetrics) {
        hasBand = true
        var tallest = emptyMetrics
        for entry in metrics { tallest.include(entry) }
        let (a, d, g) = (tallest.ascent, tallest.descent, tallest.lineGap)
        switch mode {
        case .natural:
            // A line of metrics up to these is (a+d+g)·m tall, its glyphs centred in it.
            above = min(0, (a + d) * (multiple - 1) / 2)
            below = max((a + d + g) * multiple, ((a + d) * (multiple + 1) + g * multiple) / 2)
        case .uniform, .fixed:
            var probe = stack
            let height = probe.add(natural: tallest).height
            let p = stack.primary
            let baseline = (height - p.ascent - p.descent) / 2 + p.ascent  // as `LayoutBuilder` places it
            above = min(0, baseline - a, (height - a - d) / 2)
            below = max(height, baseline + d, (height + a + d) / 2)
        }
    }

    /// A line begins with a unit `width` wide (without its hanging white space): finds its
    /// slot, moving it down until the slot is wide enough for that unit (for the content
    /// width when the unit is wider: it is cut on a line free of shapes), and returns the
    /// line's limit for the breaker.
    ///
    /// - Complexity: O(s + v) for s shapes of v vertices in all; a line moved down tries at
    ///   most each y where a shape's extent changes, plus a bisection in the last step.
    func beginLine(needing width: Double) -> Double {
        assert(hasBand, "a paragraph's band comes first (beginParagraph): only kept units flow around shapes")
        let slot = self.slot(needing: width <= contentWidth + LineCuts.epsilon ? width : contentWidth)
        pending = slot
        return unlimited ? .infinity : slot.width + LineCuts.epsilon
    }

    /// The line being filled ends with natural metrics `metrics`: its slot (found now for a
    /// line with no units, an empty paragraph's), stacked as the receivers stack it.
    func endLine(metrics: FontMetrics) -> LineSlot {
        let slot = pending ?? self.slot(needing: 0)
        pending = nil
        lastSlot = slot
        _ = stack.add(natural: metrics, dropped: slot.drop)
        return slot
    }

    /// The slot of the next line: at the stack's next top, or as little below it as gives
    /// room for `needed` points.
    private func slot(needing needed: Double) -> LineSlot {
        let top = stack.nextTop
        func fits(_ room: (x: Double, width: Double)) -> Bool { room.width > 0 && room.width + LineCuts.epsilon >= needed }
        var room = self.room(at: top)
        if fits(room) { return LineSlot(x: room.x, width: room.width, drop: 0) }
        // The tops where a band edge meets a turning y, below this one, in order: the room
        // changes its law only there. The last one puts the band below every shape.
        let steps = Set(turningYs.flatMap { [$0 - above, $0 - below] }.filter { $0 > top }).sorted()
        var previous = top
        for step in steps {
            room = self.room(at: step)
            guard fits(room) else {
                previous = step
                continue
            }
            // Room came between the last two steps (a circle's chord shrinking): the first
            // top with room, within a thousandth of a point.
            var (low, high) = (previous, step)
            for _ in 0..<64 where high - low > 1e-3 {
                let middle = (low + high) / 2, candidate = self.room(at: middle)
                if fits(candidate) { (high, room) = (middle, candidate) } else { low = middle }
            }
            return LineSlot(x: room.x, width: room.width, drop: high - top)
        }
        // Not reached: below the last step no shape meets the band.
        return LineSlot(x: left, width: contentWidth, drop: (steps.last ?? top) - top)
    }

    /// The widest free interval of the content box for a line whose box starts at `top`:
    /// the content box less every shape's extent over the line's band (the leftmost of the
    /// widest when several are as wide).
    private func room(at top: Double) -> (x: Double, width: Double) {
        let bandTop = top + above, bandBottom = top + below
        var blocked: [(left: Double, right: Double)] = []
        for (index, shape) in shapes.enumerated() where spans[index].top < bandBottom && spans[index].bottom > bandTop {
            if let extent = shape.extent(top: bandTop, bottom: bandBottom) { blocked.append(extent) }
        }
        guard !blocked.isEmpty else { return (left, contentWidth) }
        blocked.sort { $0.left < $1.left }
        let right = left + contentWidth
        var best = (x: left, width: 0.0)
        var cursor = left
        for extent in blocked {
            if extent.left > cursor, min(extent.left, right) - cursor > best.width {
                best = (cursor, min(extent.left, right) - cursor)
            }
            cursor = max(cursor, extent.right)
            if cursor >= right { break }
        }
        if right - cursor > best.width { best = (cursor, right - cursor) }
        return best
    }
}

extension LineBreaker {
    /// Has the lines flow around the options' exclusion shapes (none: nothing changes).
    mutating func flow(around options: LayoutOptions, primary: FontMetrics) {
        guard options.hasExclusions else { return }  // most layouts: no flow made or replaced
        flow = ExclusionFlow(options: options, primary: primary)
    }
}
