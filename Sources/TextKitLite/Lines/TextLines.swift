/// Breaks a whole text into the lines its options show: its paragraphs one after another
/// through one `LineBreaker`, up to the line limit. Layout and measuring both come here and
/// differ only in where the pieces come from (a shaped text, or the itemizer's stream) and
/// what their receiver keeps.
enum TextLines {
    /// - Parameters:
    ///   - breaker: a new breaker at the options' `breakWidth`; its receiver keeps the lines.
    ///   - paragraphCount: number of paragraphs in the text.
    ///   - feed: hands paragraph `index` to the breaker: `beginParagraph`, its pieces through
    ///     `take` until it returns false, `endParagraph`.
    /// - Returns: whether text was left out.
    static func breakLines<Receiver: LineReceiver>(
        _ breaker: inout LineBreaker<Receiver>, paragraphCount: Int, options: LayoutOptions,
        feed: (_ index: Int, _ breaker: inout LineBreaker<Receiver>) -> Void
    ) -> Bool {
        var truncated = false
        for index in 0..<paragraphCount {
            if breaker.isStopped {  // the line limit was reached before this paragraph
                truncated = true
                break
            }
            feed(index, &breaker)
        }
        if breaker.isStopped, !breaker.endedParagraph { truncated = true }
        // A single line truncated at its start or middle is broken at no width, then cut.
        if options.maxLines == 1, options.truncation != .end, breaker.widestLine > options.contentWidth + LineCuts.epsilon {
            truncated = true
        }
        return truncated
    }
}

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
