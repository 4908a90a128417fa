import Foundation

/// An ordered list of fonts: each grapheme cluster is drawn with the first font that
/// covers it (emoji presentation sequences prefer color fonts); a cluster no font covers
/// is drawn with an installed font that has it when the chain falls back to the system's
/// fonts (`withSystemFallback()`), else with the primary font's .notdef glyph.
public struct FontFallbackChain: Sendable, Hashable {
    /// The fonts, primary first. Never empty.
    public var fonts: [Font] {
        @inline(__always) get { storage.fonts }
    }
    /// Other styles of the chain's families (a bold or italic face): never used for
    /// coverage, only to draw a bold or italic style with a real face instead of a
    /// synthesized one.
    public var styleFaces: [Font] {
        @inline(__always) get { storage.styleFaces }
    }

    /// Everything in one object: a chain is copied into every layout, receiver and cache
    /// key, and each copy then costs one retain, not one per field.
    private let storage: Storage

    private final class Storage: Sendable {
        let fonts: [Font]
        let styleFaces: [Font]
        /// What one-scalar clusters resolved to (no bearing on equality: a function of
        /// `fonts` and `system`).
        let memo = FallbackMemo()
        /// Installed fonts found for what `fonts` do not cover; nil when not looked for.
        let system: SystemFallback?
        /// Regional faces of the chain's CJK fonts, found for languages (a function of
        /// `fonts` and `system`).
        let languageFaces = LanguageFaces()

        init(fonts: [Font], styleFaces: [Font], system: SystemFallback?) {
            self.fonts = fonts
            self.styleFaces = styleFaces
            self.system = system
        }
    }

    // Read in the itemizer's loop over clusters: inlined, so that no read retains.
    private var memo: FallbackMemo {
        @inline(__always) get { storage.memo }
    }
    private var system: SystemFallback? {
        @inline(__always) get { storage.system }
    }
    private var languageFaces: LanguageFaces { storage.languageFaces }

    /// True when clusters no font of the chain covers are looked for among the machine's
    /// installed fonts (through fontconfig).
    public var usesSystemFallback: Bool { system != nil }

    /// The first font: its metrics size empty lines and its .notdef stands for
    /// uncovered characters.
    public var primary: Font { fonts[0] }

    /// A chain of a primary font and its fallbacks, in order. A fallback of a family already
    /// in the chain but of another weight or slant (DejaVu Sans Bold after DejaVu Sans) is a
    /// style face: it draws bold or italic runs of that family, and covers nothing.
    ///
    /// - Parameters:
    ///   - primary: the first font asked for every cluster; its metrics set uniform line heights.
    ///   - fallbacks: the fonts asked, in order, for clusters the fonts before them do not cover.
    ///   - systemFallback: look for clusters no font covers among the installed fonts
    ///     (through fontconfig). Which fonts that finds depends on the machine.
    public init(primary: Font, fallbacks: [Font] = [], systemFallback: Bool = false) {
        var fonts = [primary], styleFaces: [Font] = []
        for font in fallbacks where !fonts.contains(font) && !styleFaces.contains(font) {
            if fonts.contains(where: { Self.sameFamily($0, font) && ($0.isBold != font.isBold || $0.isItalic != font.isItalic) }) {
                styleFaces.append(font)
            } else {
                fonts.append(font)
            }
        }
        storage = Storage(fonts: fonts, styleFaces: styleFaces,
                          system: systemFallback ? SystemFallback(excluding: fonts + styleFaces) : nil)
    }

    /// This chain, falling back to the machine's installed fonts for what it does not cover.
    /// The same chain each time for the same fonts (one system fallback per process and
    /// list of fonts, as caches keyed by chain expect).
    public func withSystemFallback() -> FontFallbackChain {
        if usesSystemFallback { return self }
        return Self.systemFallbackChains.withLock { chains in
            if let chain = chains[self] { return chain }
            let chain = FontFallbackChain(primary: primary, fallbacks: Array(fonts.dropFirst()) + styleFaces, systemFallback: true)
            chains[self] = chain
            return chain
        }
    }

    /// `withSystemFallback()`'s chains, by the chain asked (a handful per process).
    private static let systemFallbackChains = Locked<[FontFallbackChain: FontFallbackChain]>([:])

    /// fontconfig lookups the system fallback made (for tests).
    var systemLookups: Int { system?.lookupCount ?? 0 }

    /// The font at an index `resolve` gave: the chain's, then the installed ones found.
    @inline(__always)
    func font(at index: Int) -> Font {
        index < fonts.count ? fonts[index] : system!.font(at: index - fonts.count)
    }

    private static func sameFamily(_ a: Font, _ b: Font) -> Bool {
        a.familyName.caseInsensitiveCompare(b.familyName) == .orderedSame
    }

    /// The font that draws a run of `style` whose clusters resolved to `font`: for a bold
    /// or italic style, the style face of `font`'s family with that weight and slant when
    /// one covers `units` (else the nearest one, the rest synthesized), else `font`
    /// synthesized; with the style's OpenType features and the face's axis values for the
    /// style (`Font.variations(for:)`). A variable face's `wght` axis draws a bold style
    /// (no bold face is looked for, nothing is synthesized), its `ital` or `slnt` axis an
    /// italic one that no italic face covers.
    func font(_ font: Font, for style: TextStyle, covering units: UnsafeBufferPointer<UInt16>) -> Font {
        let bold = style.weight == .bold && !font.isBold && !font.drawsWeightWithAxis(style)
        let italic = style.isItalic && !font.isItalic
        var face = font
        if bold || italic {
            // An exact face first, then one giving the weight, then one giving the slant.
            let candidates = styleFaces.filter { Self.sameFamily($0, font) && Self.covers($0, units) }
            face = candidates.first { $0.isBold == (bold || font.isBold) && $0.isItalic == (italic || font.isItalic) }
                ?? candidates.first { bold && $0.isBold && $0.isItalic == font.isItalic }
                ?? candidates.first { italic && $0.isItalic && $0.isBold == font.isBold }
                ?? font
        }
        let synthesis = FontSynthesis(emboldened: style.weight == .bold && !face.isBold && !face.drawsWeightWithAxis(style),
                                      slanted: style.isItalic && !face.isItalic && !face.isColor && !face.drawsItalicWithAxis(style))
        return face.variant(synthesis, features: style.features, variations: face.variations(for: style))
    }

    /// The face of `font`'s family for the CJK region of a language (Noto Sans CJK JP for
    /// Japanese text that resolved to Noto Sans CJK SC) when it covers `units`: from the
    /// chain, from the font's collection file, else from the installed fonts when the chain
    /// falls back to them; `font` itself when it is no CJK font or no such face is found.
    func font(_ font: Font, for region: CJKRegion, covering units: UnsafeBufferPointer<UInt16>) -> Font {
        guard let face = languageFaces.face(for: font, region: region, chain: fonts + styleFaces, system: usesSystemFallback),
              Self.covers(face, units) else { return font }
        return face
    }

    /// The chain's font for a mark Latin shares with Chinese and Japanese, inside Chinese or
    /// Japanese text: the font Han characters take (an index as `resolve` gives, nil for
    /// `preferred`) when it has the mark, else the mark's own resolution.
    ///
    /// - Complexity: one memo load when resolved before without a preferred font; else a
    ///   cmap lookup.
    func resolve(_ mark: CJKPunctuation.SharedMark, preferred: Font?) -> Int? {
        if preferred == nil, let index = memo.fontIndex(for: mark) { return index }
        let han = resolve(scalar: 0x6C38, preferred: preferred)  // 永
        let hanFont = han.map { font(at: $0) } ?? preferred
        let index: Int?
        if let hanFont, hanFont.harfBuzz.glyph(for: mark.scalar) != nil {
            index = han
        } else {
            index = resolve(scalar: mark.scalar, preferred: preferred)
        }
        if preferred == nil, let index { memo.remember(index, for: mark) }
        return index
    }

    /// True when `font` maps every scalar of `units` that needs a glyph (as for a cluster).
    private static func covers(_ font: Font, _ units: UnsafeBufferPointer<UInt16>) -> Bool {
        var scalars: [UInt32] = []
        scalars.reserveCapacity(units.count)
        var i = 0
        while i < units.count {
            let (scalar, next) = units.scalar(at: i, end: units.count)
            scalars.append(scalar)
            i = next
        }
        return scalars.withUnsafeBufferPointer { covers(font, $0) }
    }

    /// Loads a chain from font specifications "PATH" or "PATH#INDEX" (face index within
    /// a collection), in order.
    ///
    /// - Throws: `FontError` for the first file that cannot be loaded, or
    ///   `FontError.Reason.notFound` with an empty path when `specs` is empty.
    ///
    /// Chains are kept per list of specifications, as fonts are per file: loading the same
    /// list again returns the same chain, with its fallback memo already filled.
    public static func load(specs: [String]) throws(FontError) -> FontFallbackChain {
        if let chain = loadedChains.withLock({ $0[specs] }) { return chain }
        var fonts: [Font] = []
        for spec in specs {
            let (path, index) = try parse(spec: spec)
            fonts.append(try Font.load(path: path, faceIndex: index))
        }
        guard let first = fonts.first else { throw FontError(path: "", reason: .notFound) }
        let chain = FontFallbackChain(primary: first, fallbacks: Array(fonts.dropFirst()))
        return loadedChains.withLock { chains in
            if let existing = chains[specs] { return existing }
            chains[specs] = chain
            return chain
        }
    }

    /// Chains loaded so far, by their specifications (a handful per process).
    private static let loadedChains = Locked<[[String]: FontFallbackChain]>([:])

    /// Splits "PATH#INDEX" into a path and a face index (0 when there is no "#INDEX").
    ///
    /// - Throws: `FontError` with `.invalidFaceIndex` when INDEX is not a number ≥ 0.
    public static func parse(spec: String) throws(FontError) -> (path: String, faceIndex: Int) {
        guard let hash = spec.lastIndex(of: "#") else { return (spec, 0) }
        let path = String(spec[..<hash])
        let indexText = spec[spec.index(after: hash)...]
        // A "#" that is part of the file name is kept when a file of that full name exists.
        if FileManager.default.fileExists(atPath: spec) { return (spec, 0) }
        guard let index = Int(indexText), index >= 0 else {
            throw FontError(path: path, reason: .invalidFaceIndex(String(indexText)))
        }
        return (path, index)
    }

    /// The first font whose family name matches (case-insensitively).
    public func font(family: String) -> Font? {
        fonts.first { $0.familyName.caseInsensitiveCompare(family) == .orderedSame }
    }

    /// The font for one grapheme cluster, as an index into `fonts`, or nil for `preferred`:
    /// `preferred` when it covers the cluster, else the first covering font of the chain
    /// (color fonts first for emoji presentation), else `preferred`, else the primary font.
    /// An index, so that itemizing compares fonts without retaining them.
    ///
    /// - Complexity: one memo load for a one-scalar cluster resolved before without a
    ///   preferred font (almost every character of a feed); else a cmap lookup per scalar
    ///   and font tried.
    func resolve(cluster: UnsafeBufferPointer<UInt32>, preferred: Font?) -> Int? {
        if let preferred {
            return Self.covers(preferred, cluster) ? nil : chainIndex(for: cluster)
        }
        guard cluster.count == 1 else { return chainIndex(for: cluster) ?? 0 }
        let scalar = cluster[0]
        if let index = memo.fontIndex(for: scalar) { return index }
        let index = chainIndex(for: cluster) ?? 0
        memo.remember(index, for: scalar)
        return index
    }

    /// The font index `resolve(scalar:preferred: nil)` gives `scalar` when the memo knows it
    /// (its first step), nil when it does not.
    @inline(__always)
    func memoizedFont(for scalar: UInt32) -> Int? { memo.fontIndex(for: scalar) }

    /// `resolve(cluster:preferred:)` for a cluster of one scalar, inlined into the
    /// itemizer's loop over clusters: the memo's answer, when there is one, without a call.
    @inline(__always)
    func resolve(scalar: UInt32, preferred: Font?) -> Int? {
        if preferred == nil, let index = memoizedFont(for: scalar) { return index }
        return withUnsafePointer(to: scalar) { resolve(cluster: UnsafeBufferPointer(start: $0, count: 1), preferred: preferred) }
    }

    /// Index of the first font of the chain that covers `cluster` (the first color font
    /// for emoji presentation), nil when none does.
    private func chainIndex(for cluster: UnsafeBufferPointer<UInt32>) -> Int? {
        // Indices, not `for font in fonts`: no retain and release of every font tried.
        if UnicodeProperties.isEmojiPresentation(cluster),
           let index = fonts.indices.first(where: { fonts[$0].isColor && Self.covers(fonts[$0], cluster) }) {
            return index
        }
        if let index = fonts.indices.first(where: { Self.covers(fonts[$0], cluster) }) { return index }
        return system?.index(for: cluster, emoji: UnicodeProperties.isEmojiPresentation(cluster)).map { fonts.count + $0 }
    }

    /// Chains are equal when their fonts are and they share their system fallback (its
    /// found fonts are numbered in the order it found them).
    public static func == (a: FontFallbackChain, b: FontFallbackChain) -> Bool {
        a.storage === b.storage || (a.fonts == b.fonts && a.styleFaces == b.styleFaces && a.system === b.system)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fonts)
        hasher.combine(styleFaces)
        hasher.combine(system.map(ObjectIdentifier.init))
    }

    private static func covers(_ font: Font, _ cluster: UnsafeBufferPointer<UInt32>) -> Bool {
        var coveredAny = false
        for scalar in cluster {
            if UnicodeProperties.isIgnorableForCoverage(scalar) { continue }
            guard font.harfBuzz.glyph(for: scalar) != nil else { return false }
            coveredAny = true
        }
        // A cluster of ignorables only (a lone ZWJ) stays with whichever font is asked first.
        return coveredAny || !cluster.isEmpty
    }
}
