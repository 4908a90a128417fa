extension LayoutOptions {
    /// The width lines are filled to, inside the insets (infinity for no limit).
    var contentWidth: Double {
        width.isFinite ? width - insets.horizontal : .infinity
    }

    /// The width lines are broken at: a single line truncated at its start or middle holds
    /// the whole paragraph before it is cut.
    var breakWidth: Double {
        maxLines == 1 && truncation != .end ? .infinity : contentWidth
    }

    /// Most lines shown.
    var lineLimit: Int { maxLines > 0 ? maxLines : Int.max }
}
