/// Where the itemizer gets a shaped word: one facade over the shaped-word cache's tiers
/// (the lone-glyph tables, the word cache) and HarfBuzz. A word is shaped at most once per
/// cache; what tier answered is invisible to the pieces it gives.
///
/// One per paragraph being shaped. Not copyable: the itemizer's loop reads its cache and
/// tables in place, with no copy (and no retains) around each word's cache lookup.
struct WordSource: ~Copyable {
    private let cache: ShapeCache
    private let shaper: HarfBuzzShaper
    /// The lone-glyph table of the current item's font and script (nil: none applies).
    private var lone: LoneGlyphTable?
    /// Words answered by value (lone glyphs), counted as cache hits by `finish`.
    private var valueHits = 0

    init(cache: ShapeCache, shaper: HarfBuzzShaper) {
        self.cache = cache
        self.shaper = shaper
    }

    /// The words that follow are of `item`, in `font` with `language`.
    ///
    /// Once per item, out of the itemizer's loop: its table lookup (under the cache's lock)
    /// stays whole here, with no retains of the cache around it.
    @inline(never)
    mutating func begin(_ item: TextItem, font: Font, language: String?) {
        // Words of one unit, left to right, in a chain font, without a language: from the
        // lone-glyph table when they shape to one plain glyph (horizontally: the table
        // holds horizontal advances).
        lone = item.font >= 0 && item.font <= Int(Int16.max) && item.level & 1 == 0 && !item.upright && language == nil
            ? cache.loneGlyphs(font: font.id, script: item.script.rawValue) : nil
    }

    /// The piece of the word `slice` (as shaped: controls replaced) of the current item, at
    /// text offset `start`: a lone glyph when the word is one unit that shapes to one plain
    /// glyph, else a shaped word from the cache (or HarfBuzz). `scale` is `size` over the
    /// font's units per em.
    @inline(__always)
    mutating func piece(
        _ slice: UnsafeBufferPointer<UInt16>, start: Int32, item: TextItem, font: Font, size: Double, scale: Double,
        language: String?, breakAfter: Bool, letterSpacing: ShapedPiece.Spacing = .none
    ) -> ShapedPiece {
        var word: ShapedWord?
        // `lone?.`, not `if let lone`: a bound copy would retain the table per piece.
        if slice.count == 1, case let unit = slice[0], !UTF16.isSurrogate(unit), var entry = lone?.entry(unit) {
            if case .unknown = entry {
                let shaped = shapeWord(slice, item: item, font: font, language: language)
                entry = lone?.remember(shaped, for: unit) ?? .notLone
                word = shaped
            } else {
                valueHits += 1
            }
            if case .lone(let glyph) = entry {
                return ShapedPiece(lone: glyph, unit: unit, start: start, fontIndex: item.font, size: size, scale: scale,
                                   style: item.style, level: item.level, breakAfter: breakAfter,
                                   letterSpacing: letterSpacing)
            }
        }
        return ShapedPiece(word: word ?? shapeWord(slice, item: item, font: font, language: language),
                           start: start, fontIndex: item.font, size: size, scale: scale, style: item.style, level: item.level,
                           breakAfter: breakAfter, letterSpacing: letterSpacing)
    }

    /// Counts the words answered by value as cache hits.
    func finish() {
        cache.recordValueHits(valueHits)
    }

    /// The word from the cache, or shaped by HarfBuzz (and cached).
    ///
    /// Inlined into the itemizer's loop (a cache hit is most of its work), the miss is not.
    @inline(__always)
    private func shapeWord(_ slice: UnsafeBufferPointer<UInt16>, item: TextItem, font: Font, language: String?) -> ShapedWord {
        let rightToLeft = item.level & 1 == 1
        let key = ShapeCache.Key(font: font.id, script: item.script.rawValue, rightToLeft: rightToLeft, upright: item.upright,
                                 language: language, text: slice, seed: cache.seed)
        if let word = cache.word(for: key) { return word }
        return shapeAndCache(slice, key: key, item: item, font: font, language: language)
    }

    @inline(never)
    private func shapeAndCache(_ slice: UnsafeBufferPointer<UInt16>, key: ShapeCache.Key, item: TextItem, font: Font,
                               language: String?) -> ShapedWord {
        let rightToLeft = item.level & 1 == 1
        cache.recordShaping()
        let shaped = shaper.shape(font, text: slice, rightToLeft: rightToLeft, upright: item.upright, script: item.script,
                                  language: language)
        let word = ShapedWord(font: font, shaped: shaped ?? ShapedGlyphs(), units: slice, rightToLeft: rightToLeft,
                              upright: item.upright)
        cache.insert(word, for: key)
        return word
    }
}
