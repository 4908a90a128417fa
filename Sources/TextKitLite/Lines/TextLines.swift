/// What takes a text's paragraphs one after another and breaks them into lines: a
/// `LineBreaker`, or a `LineBreakerFan` (one stream of pieces, breakers at several widths).
protocol ParagraphBreaking: PieceSink {
    /// Its receivers want no more lines.
    var isStopped: Bool { get }
    /// Ends the paragraph whose pieces came last.
    mutating func endParagraph()
}

extension LineBreaker: ParagraphBreaking {}

/// Breaks a whole text into the lines its options show: its paragraphs one after another,
/// until the breaker stops at the line limit. Layout and measuring both come here and differ
/// only in where the pieces come from (a shaped text, or the itemizer's stream) and what
/// their receiver keeps; whether text was left out is the breaker's to tell
/// (`LineBreaker.leavesTextOut`).
enum TextLines {
    /// - Parameters:
    ///   - breaker: a new breaker; its receivers keep the lines.
    ///   - paragraphCount: number of paragraphs in the text.
    ///   - feed: hands paragraph `index` to the breaker: `beginParagraph`, then its pieces
    ///     (or units) until the breaker stops.
    static func breakLines<Breaker: ParagraphBreaking>(
        _ breaker: inout Breaker, paragraphCount: Int, feed: (_ index: Int, _ breaker: inout Breaker) -> Void
    ) {
        for index in 0..<paragraphCount {
            if breaker.isStopped { break }  // the line limit was reached before this paragraph
            feed(index, &breaker)
            breaker.endParagraph()
        }
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
