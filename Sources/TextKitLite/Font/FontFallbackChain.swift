import Foundation

/// An ordered list of fonts: each grapheme cluster is drawn with the first font that
/// covers it (emoji presentation sequences prefer color fonts); a cluster no font covers
/// is drawn with the primary font's .notdef glyph.
public struct FontFallbackChain: Sendable, Hashable {
    /// The fonts, primary first. Never empty.
    public let fonts: [Font]
    /// What one-scalar clusters resolved to (no bearing on equality: a function of `fonts`).
    private let memo = FallbackMemo()

    /// The first font: its metrics size empty lines and its .notdef stands for
    /// uncovered characters.
    public var primary: Font { fonts[0] }

    /// A chain of a primary font and its fallbacks, in order.
    public init(primary: Font, fallbacks: [Font] = []) {
        fonts = [primary] + fallbacks.filter { $0 != primary }
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

    /// `resolve(cluster:preferred:)` for a cluster of one scalar, inlined into the
    /// itemizer's loop over clusters: the memo's answer, when there is one, without a call.
    @inline(__always)
    func resolve(scalar: UInt32, preferred: Font?) -> Int? {
        if preferred == nil, let index = memo.fontIndex(for: scalar) { return index }
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
        return fonts.indices.first(where: { Self.covers(fonts[$0], cluster) })
    }

    public static func == (a: FontFallbackChain, b: FontFallbackChain) -> Bool { a.fonts == b.fonts }

    public func hash(into hasher: inout Hasher) { hasher.combine(fonts) }

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
