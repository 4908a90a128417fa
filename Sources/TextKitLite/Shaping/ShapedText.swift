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
    /// Every paragraph's pieces, one paragraph after another (`ShapedParagraph.pieces`).
    var pieces: [ShapedPiece] { storage.pieces }
    /// The primary font's metrics at the text's base size (`FontFallbackChain.primaryMetrics`).
    var primaryMetrics: FontMetrics { storage.primaryMetrics }

    /// Everything in one immutable object: a shaped text is copied into cell specs, caches
    /// and every width it is broken at, and each copy then costs one retain, not one per
    /// field. Its paragraphs' pieces, units and metrics are three arrays, not three per
    /// paragraph: breaking it again reads them in place (`breakLines`), with no reference
    /// counted but the object's, whose memory a feed of texts laid out again mostly finds
    /// cold (each count is an atomic write that waits for its line).
    private let storage: Storage

    private final class Storage: Sendable {
        let text: AttributedText
        let direction: ParagraphDirection
        let writingMode: LayoutOptions.WritingMode
        let fonts: FontFallbackChain
        let styles: [TextStyle]
        let preferredFonts: [Font?]
        let paragraphs: [ShapedParagraph]
        let pieces: [ShapedPiece]
        let units: [BreakUnit]
        let metrics: [FontMetrics]
        let primaryMetrics: FontMetrics
        let hasSoftHyphens: Bool

        init(text: AttributedText, direction: ParagraphDirection, writingMode: LayoutOptions.WritingMode, fonts: FontFallbackChain,
             cache: ShapeCache) {
            let itemizer = Itemizer(text: text, direction: direction, writingMode: writingMode, fonts: fonts, cache: cache)
            let (paragraphs, sink) = itemizer.shapeParagraphs()
            self.paragraphs = paragraphs
            pieces = sink.pieces
            units = sink.units
            metrics = sink.metrics
            self.text = text
            self.direction = direction
            self.writingMode = writingMode
            self.fonts = fonts
            styles = text.runs.map(\.style)
            preferredFonts = itemizer.preferredFonts
            primaryMetrics = fonts.primaryMetrics(for: text)
            hasSoftHyphens = paragraphs.contains { $0.range.scan.hasSoftHyphen }
        }
    }

    init(text: AttributedText, direction: ParagraphDirection, writingMode: LayoutOptions.WritingMode = .horizontal,
         fonts: FontFallbackChain, cache: ShapeCache) {
        storage = Storage(text: text, direction: direction, writingMode: writingMode, fonts: fonts, cache: cache)
    }

    /// The pieces of its paragraph at `index`, in logical order.
    func pieces(ofParagraph index: Int) -> [ShapedPiece] {
        Array(pieces[paragraphs[index].pieces])
    }

    /// The hyphenator that cuts its units as `settings` say, the parts shaped through
    /// `cache`; nil when none may be cut (no soft hyphen, no automatic hyphenation), so that
    /// breaking it again does not touch its text.
    func hyphenator(_ settings: Hyphenation, cache: ShapeCache) -> Hyphenator? {
        guard Hyphenator.mayCut(settings, softHyphens: storage.hasSoftHyphens) else { return nil }
        return Hyphenator(text: text, settings: settings, cache: cache)
    }

    /// Number of glyphs over all paragraphs (for statistics).
    public var glyphCount: Int {
        pieces.reduce(0) { $0 + $1.glyphCount }
    }
}

extension ShapedText {
    /// Breaks the text into lines through `breaker`: each paragraph's units, summed when it
    /// was shaped, until the breaker stops. Nothing is itemized, shaped or summed again.
    func breakLines<Receiver: LineReceiver>(into breaker: inout LineBreaker<Receiver>) {
        let storage = storage
        storage.paragraphs.withUnsafeBufferPointer { paragraphs in
            storage.units.withUnsafeBufferPointer { units in
                storage.metrics.withUnsafeBufferPointer { metrics in
                    for index in paragraphs.indices {
                        if breaker.isStopped { break }  // the line limit was reached before this paragraph
                        // Its fields, read in place (not a copy of the whole paragraph).
                        let paragraph = paragraphs.baseAddress! + index
                        breaker.beginParagraph(paragraph.pointee.range, level: paragraph.pointee.level,
                                               graphemes: paragraph.pointee.graphemes, emptyMetrics: paragraph.pointee.emptyMetrics)
                        if breaker.flow != nil {
                            breaker.flow?.beginParagraph(metrics: UnsafeBufferPointer(rebasing: metrics[paragraph.pointee.metrics]),
                                                         emptyMetrics: paragraph.pointee.emptyMetrics)
                        }
                        breaker.take(UnsafeBufferPointer(rebasing: units[paragraph.pointee.units]), metrics: metrics, of: storage.pieces)
                        breaker.endParagraph()
                    }
                }
            }
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
