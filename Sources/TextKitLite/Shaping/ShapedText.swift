/// An attributed text itemized and shaped, not yet broken into lines. Lay it out at any
/// width, any number of times, without shaping again ("shape once, break many").
public struct ShapedText: Sendable {
    /// The text that was shaped (with the ink, decorations and highlights it is drawn with).
    public var text: AttributedText { storage.text }
    /// The paragraph direction it was shaped with.
    public var direction: ParagraphDirection { storage.direction }
    /// The writing mode it was shaped for: only layouts of that mode break it.
    public var writingMode: LayoutOptions.WritingMode { storage.writingMode }
    var fonts: FontFallbackChain { storage.fonts }
    var styles: [TextStyle] { storage.styles }
    var preferredFonts: [Font?] { storage.preferredFonts }
    var paragraphs: [ShapedParagraph] { storage.paragraphs }
    /// The primary font's metrics at the text's base size (`FontFallbackChain.primaryMetrics`).
    var primaryMetrics: FontMetrics { storage.primaryMetrics }

    /// Everything in one immutable object: a shaped text is copied into cell specs, caches
    /// and every width it is broken at, and each copy then costs one retain, not one per
    /// field.
    private let storage: Storage

    private final class Storage: Sendable {
        let text: AttributedText
        let direction: ParagraphDirection
        let writingMode: LayoutOptions.WritingMode
        let fonts: FontFallbackChain
        let styles: [TextStyle]
        let preferredFonts: [Font?]
        let paragraphs: [ShapedParagraph]
        let primaryMetrics: FontMetrics

        init(text: AttributedText, direction: ParagraphDirection, writingMode: LayoutOptions.WritingMode, fonts: FontFallbackChain,
             preferredFonts: [Font?], paragraphs: [ShapedParagraph]) {
            self.text = text
            self.direction = direction
            self.writingMode = writingMode
            self.fonts = fonts
            styles = text.runs.map(\.style)
            self.preferredFonts = preferredFonts
            self.paragraphs = paragraphs
            primaryMetrics = fonts.primaryMetrics(for: text)
        }
    }

    init(text: AttributedText, direction: ParagraphDirection, writingMode: LayoutOptions.WritingMode = .horizontal,
         fonts: FontFallbackChain, cache: ShapeCache) {
        let itemizer = Itemizer(text: text, direction: direction, writingMode: writingMode, fonts: fonts, cache: cache)
        storage = Storage(text: text, direction: direction, writingMode: writingMode, fonts: fonts, preferredFonts: itemizer.preferredFonts,
                          paragraphs: Paragraphs.split(text.utf16).map { itemizer.shape($0) })
    }

    /// Number of glyphs over all paragraphs (for statistics).
    public var glyphCount: Int {
        paragraphs.reduce(0) { $0 + $1.pieces.reduce(0) { $0 + $1.glyphCount } }
    }
}

extension ShapedText {
    /// Breaks the text into lines through `breaker`: each paragraph's units, summed when it
    /// was shaped, until the breaker stops. Nothing is itemized, shaped or summed again.
    func breakLines<Receiver: LineReceiver>(into breaker: inout LineBreaker<Receiver>) {
        let paragraphs = storage.paragraphs
        for index in paragraphs.indices {
            if breaker.isStopped { break }  // the line limit was reached before this paragraph
            // Its fields in place: copying a paragraph retains its arrays.
            breaker.beginParagraph(paragraphs[index].range, level: paragraphs[index].level, graphemes: paragraphs[index].graphemes,
                                   emptyMetrics: paragraphs[index].emptyMetrics)
            breaker.flow?.beginParagraph(metrics: paragraphs[index].metrics, emptyMetrics: paragraphs[index].emptyMetrics)
            breaker.take(paragraphs[index].units, metrics: paragraphs[index].metrics, of: paragraphs[index].pieces)
            breaker.endParagraph()
        }
    }
}

extension FontFallbackChain {
    /// The font a style asks for before the chain, if any: its own, or the first of the
    /// chain with its family, else the installed font of that family (fontconfig).
    func preferredFont(for style: TextStyle) -> Font? {
        switch style.font {
        case .chain: nil
        case .family(let name): font(family: name) ?? SystemFonts.font(family: name)
        case .font(let font): font
        }
    }
}
