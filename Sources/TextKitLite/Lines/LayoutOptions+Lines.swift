extension LayoutOptions {
    /// The width lines are filled to, inside the insets (infinity for no limit).
    var contentWidth: Double { contentWidth(at: width) }

    /// `contentWidth` of these options at another `width` (`at(width:)`, not copied).
    func contentWidth(at width: Double) -> Double {
        width.isFinite ? width - lineInsets.horizontal : .infinity
    }

    /// The insets in line coordinates, where lines are made: `insets`, or in a vertical
    /// layout `insets` turned with the box (a column starts below the top inset, and the
    /// first column is left of the right inset).
    var lineInsets: EdgeInsets {
        writingMode == .horizontal ? insets
            : EdgeInsets(top: insets.right, left: insets.top, bottom: insets.left, right: insets.bottom)
    }

    /// The lines broken at the width before the last line shown, which is broken at no width
    /// (it holds the rest of its paragraph, to be cut at its middle, or at its start when it
    /// is the only line): all but the last for middle truncation, none for start truncation
    /// of a single line, all otherwise.
    var linesAtWidth: Int {
        maxLines > 0 && (truncation == .middle || truncation == .start && maxLines == 1) ? maxLines - 1 : .max
    }

    /// Start truncation over several lines: the text's last lines are shown, the first of
    /// them cut at its start for the token.
    var keepsLastLines: Bool { truncation == .start && maxLines > 1 }

    /// Lines are broken twice: a first breaking of the shaped text decides the width or the
    /// lines shown (`BreakPlan`).
    var breaksTwice: Bool { lineBalance || keepsLastLines }

    /// Lines are broken from a shaped text's kept units, not as the itemizer streams them:
    /// when they are broken twice, or around exclusion shapes (`ExclusionFlow` needs each
    /// paragraph's tallest metrics before its first line).
    var keepsUnits: Bool { breaksTwice || hasExclusions }

    /// Most lines shown.
    var lineLimit: Int { maxLines > 0 ? maxLines : Int.max }
}
