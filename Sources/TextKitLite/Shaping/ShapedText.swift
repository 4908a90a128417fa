/// An attributed text itemized and shaped, not yet broken into lines. Lay it out at any
/// width, any number of times, without shaping again ("shape once, break many").
public struct ShapedText: Sendable {
    public private(set) var text: AttributedText
    /// The paragraph direction it was shaped with.
    public let direction: ParagraphDirection
    let fonts: FontFallbackChain
    private(set) var styles: [TextStyle]
    let preferredFonts: [Font?]
    let paragraphs: [ShapedParagraph]

    init(text: AttributedText, direction: ParagraphDirection, fonts: FontFallbackChain, cache: ShapeCache) {
        self.text = text
        self.direction = direction
        self.fonts = fonts
        let itemizer = Itemizer(text: text, direction: direction, fonts: fonts, cache: cache)
        styles = text.runs.map(\.style)
        preferredFonts = itemizer.preferredFonts
        paragraphs = Paragraphs.split(text.utf16).map { itemizer.shape($0) }
    }

    /// The same shaping with the ink, decorations and highlights of `text`, a text whose units,
    /// run ranges, attachments and shaping attributes are this one's (what shaping depends on).
    func restyled(_ text: AttributedText) -> ShapedText {
        var copy = self
        copy.text = text
        copy.styles = text.runs.map(\.style)
        return copy
    }

    /// Number of glyphs over all paragraphs (for statistics).
    public var glyphCount: Int {
        paragraphs.reduce(0) { $0 + $1.pieces.reduce(0) { $0 + $1.glyphCount } }
    }
}

extension ShapedText {
    /// Hands paragraph `index` to a breaker: its start, then its break units until the
    /// breaker stops. Its fields are read in place (copying a paragraph retains its arrays).
    func feed<Receiver: LineReceiver>(paragraph index: Int, into breaker: inout LineBreaker<Receiver>) {
        breaker.beginParagraph(paragraphs[index].range, level: paragraphs[index].level, graphemes: paragraphs[index].graphemes)
        let pieces = paragraphs[index].pieces
        for unit in paragraphs[index].units.indices {
            guard breaker.take(paragraphs[index].units[unit], of: pieces) else { break }
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
