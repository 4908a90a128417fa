/// How a shaped text's lines are broken for a layout's options, decided by breaking its
/// units once before (relayout: no shaping): the width, the balanced one for `lineBalance`,
/// and the lines left out before those shown, for start truncation over several lines.
/// Layout and measuring both follow it, so they agree.
struct BreakPlan {
    /// The width lines are broken at, inside the insets.
    var width: Double
    /// Lines left out before those shown: start truncation over several lines shows the
    /// text's last `maxLines` lines.
    var skippedLines = 0

    /// The options' own plan: their content width, no line left out.
    init(options: LayoutOptions) {
        width = options.contentWidth
    }

    /// The plan for `shaped` (the options' own unless they break twice): the text's greedy
    /// lines at the content width are counted; with more than `maxLines` under start
    /// truncation the first ones are left out; with `lineBalance` and no truncation, lines
    /// are broken at the narrowest width that keeps their count (`LineBalance`).
    @inline(__always)
    init(_ shaped: borrowing ShapedText, options: borrowing LayoutOptions, engine: TextEngine) {
        width = options.contentWidth
        if options.breaksTwice { plan(shaped, options: options, engine: engine) }
    }

    /// Breaks `shaped` once at the width to plan the lines shown (out of line: most
    /// options break once, and their measurements inline the check).
    @inline(never)
    private mutating func plan(_ shaped: ShapedText, options: LayoutOptions, engine: TextEngine) {
        let counted = options.keepsLastLines || options.maxLines == 0 ? Int.max : options.maxLines
        let greedy = LineBalance.probe(shaped, width: width, lineLimit: counted, hyphenation: options.hyphenation,
                                       cache: engine.shapeCache).lines
        if options.keepsLastLines, greedy > options.maxLines {
            skippedLines = greedy - options.maxLines
            return
        }
        // Balance changes nothing when the text is truncated or each paragraph is one line.
        guard options.lineBalance, greedy <= options.lineLimit, greedy > shaped.paragraphs.count,
              let balanced = LineBalance.narrowestWidth(shaped, lines: greedy, maxWidth: width, hyphenation: options.hyphenation,
                                                        cache: engine.shapeCache) else { return }
        width = balanced
    }
}
