/// Balanced lines (as CSS `text-wrap: balance`) and the narrowest width that keeps a text
/// within a number of lines (a chat bubble's, a title's): found by breaking a shaped text's
/// units again at a few widths, through the one breaker (relayout adds numbers; nothing is
/// shaped again).
///
/// The widths tried come from the units' own sums. Greedy breaking compares sums of unit
/// widths with the width: at any width from the widest sum it found to fit up to below the
/// narrowest sum it found not to fit, every comparison comes out the same and so do the
/// lines (`LineBreaker.widestFit`, `narrowestOverflow`). The search is a bisection whose
/// bounds jump to those sums: a width that keeps the lines within the count lowers the upper
/// bound to its widest fitting line, one that does not raises the lower bound to its
/// narrowest overflow. Each try halves the interval at least and ends it on a line width,
/// so the answer is exact (a line's width, not a width within some tolerance) after a few
/// tries (about the log of the number of distinct line widths), with no list of candidate
/// widths built (a paragraph of n units has O(n²) sums of consecutive units).
enum LineBalance {
    /// What breaking a shaped text at one width gives.
    struct Probe {
        /// Lines broken (one more than the limit at most: the breaker stops there).
        var lines: Int
        /// The widest line that fit the width.
        var widestFit: Double
        /// The narrowest line width the breaker refused (infinity for none).
        var narrowestOverflow: Double
    }

    /// Breaks `shaped` at `width` and counts its lines, stopping past `lineLimit`; words are
    /// cut at hyphenation points as `hyphenation` says (the parts shaped through `cache`), as
    /// the layout cuts them.
    static func probe(_ shaped: ShapedText, width: Double, lineLimit: Int, hyphenation: Hyphenation, cache: ShapeCache) -> Probe {
        var breaker = LineBreaker(maxWidth: width, fonts: shaped.fonts, receiver: LineCounter(limit: lineLimit),
                                  hyphenator: shaped.hyphenator(hyphenation, cache: cache))
        shaped.breakLines(into: &breaker)
        return Probe(lines: breaker.receiver.count, widestFit: breaker.widestFit, narrowestOverflow: breaker.narrowestOverflow)
    }

    /// The narrowest width (inside the insets) at which `shaped` breaks into at most `lines`
    /// lines, no wider than `maxWidth`: the width of its widest line there, at which it
    /// breaks as at any wider width up to the first that changes a line. Nil when it needs
    /// more lines even at `maxWidth` (it has more paragraphs than `lines`, say).
    ///
    /// - Precondition: `lines` > 0.
    /// - Complexity: O(n) per try in the text's units, a few tries (see `LineBalance`).
    static func narrowestWidth(_ shaped: ShapedText, lines: Int, maxWidth: Double, hyphenation: Hyphenation,
                               cache: ShapeCache) -> Double? {
        let widest = probe(shaped, width: maxWidth, lineLimit: lines, hyphenation: hyphenation, cache: cache)
        guard widest.lines <= lines else { return nil }
        // The breaker fits a sum up to its width plus a tolerance: the lines at a width come
        // at every width from the widest fitting line less the tolerance up to below the
        // narrowest overflow less it. The bounds jump to those ends: every width from `upper`
        // on breaks within `lines`, every width below `lower` does not.
        var upper = min(widest.widestFit - LineCuts.epsilon, maxWidth)
        var lower = 0.0
        var narrowest = widest.widestFit  // the widest line that fit at the last width within `lines`
        // Each try halves the interval at least: far fewer tries than this bound end it (a
        // double's 64 halvings, and as many to reach a tiny width); past it, the narrowest
        // width found so far still keeps the lines.
        for _ in 0..<128 {
            let middle = lower + (upper - lower) / 2
            guard middle > lower, middle < upper else { break }  // no width between them
            let tried = probe(shaped, width: middle, lineLimit: lines, hyphenation: hyphenation, cache: cache)
            if tried.lines <= lines {
                upper = min(tried.widestFit - LineCuts.epsilon, middle)
                narrowest = tried.widestFit
            } else {
                lower = max(middle, tried.narrowestOverflow - LineCuts.epsilon)
            }
        }
        return narrowest
    }
}

/// The receiver that only counts lines, and stops once there are more than `limit`.
struct LineCounter: LineReceiver {
    static let recordsWidths = true
    let limit: Int
    private(set) var count = 0

    init(limit: Int) {
        self.limit = limit
    }

    @inline(__always)
    mutating func place(_ range: Range<Int>, of pieces: [ShapedPiece]) {}

    mutating func endLine(_ line: LineEnd) -> Bool {
        count += 1
        return count <= limit
    }
}
