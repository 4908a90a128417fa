internal import CHarfBuzz

/// Fonts found on the machine, through fontconfig, for clusters no font of a chain covers:
/// a Korean or Thai character behind a Latin and Chinese chain is drawn with an installed
/// font that has it instead of .notdef.
///
/// Found fonts are remembered per script, so the next character of a script already met is
/// tried against them (a cmap lookup) before fontconfig is asked again. The number of
/// fontconfig lookups and of fonts found is bounded per fallback, and clusters found in no
/// installed font are remembered, so hostile text (random code points) costs bounded time.
final class SystemFallback: Sendable {
    /// The most fontconfig lookups, and the most fonts found, per fallback.
    static let maximumLookups = 256
    static let maximumFonts = 64
    /// The most clusters remembered as found in no installed font.
    static let maximumMisses = 4096

    private struct State {
        var fonts: [Font] = []
        /// Indices into `fonts` that covered a cluster of the script (by HarfBuzz's number).
        var byScript: [UInt32: [Int]] = [:]
        var misses: Set<[UInt32]> = []
        var lookups = 0
    }

    private let state = Locked(State())
    /// The chain's own fonts, never found again.
    private let excluded: Set<Font>

    init(excluding fonts: [Font]) {
        excluded = Set(fonts)
    }

    /// fontconfig lookups made so far.
    var lookupCount: Int { state.withLock { $0.lookups } }

    /// A found font, by the index `index(for:)` gave.
    func font(at index: Int) -> Font {
        state.withLock { $0.fonts[index] }
    }

    /// The index of an installed font that maps every scalar of `cluster` (the first color
    /// font for an emoji presentation cluster), nil when there is none.
    func index(for cluster: UnsafeBufferPointer<UInt32>, emoji: Bool) -> Int? {
        let needed = cluster.filter { !UnicodeProperties.isIgnorableForCoverage($0) }
        guard !needed.isEmpty else { return nil }
        let script = needed.lazy.map { Script(of: $0) }.first { !$0.isNeutral } ?? .common
        let known = state.withLock { state -> (Int?, Bool) in
            if state.misses.contains(needed) { return (nil, true) }
            let found = state.byScript[script.rawValue, default: []].first { Self.covers(state.fonts[$0], needed) }
            return (found, found != nil || state.lookups >= Self.maximumLookups || state.fonts.count >= Self.maximumFonts)
        }
        if known.1 { return known.0 }
        state.withLock { $0.lookups += 1 }
        let faces = SystemFonts.faces(covering: needed, language: Self.language(of: script), color: emoji)
        for face in faces {
            guard let font = try? Font.load(path: face.path, faceIndex: face.faceIndex),
                  !excluded.contains(font), Self.covers(font, needed) else { continue }
            return state.withLock { state in
                let index = state.fonts.firstIndex(of: font) ?? {
                    state.fonts.append(font)
                    return state.fonts.count - 1
                }()
                if !state.byScript[script.rawValue, default: []].contains(index) {
                    state.byScript[script.rawValue, default: []].append(index)
                }
                return index
            }
        }
        state.withLock { if $0.misses.count < Self.maximumMisses { $0.misses.insert(needed) } }
        return nil
    }

    private static func covers(_ font: Font, _ scalars: [UInt32]) -> Bool {
        scalars.allSatisfy { font.harfBuzz.glyph(for: $0) != nil }
    }

    /// The language fontconfig should prefer fonts for, for scripts where the choice
    /// matters (a Hangul font for Korean rather than any CJK font; Japanese kana).
    static func language(of script: Script) -> String? {
        switch hb_script_t(rawValue: script.rawValue) {
        case HB_SCRIPT_HANGUL: "ko"
        case HB_SCRIPT_HIRAGANA, HB_SCRIPT_KATAKANA: "ja"
        case HB_SCRIPT_BOPOMOFO: "zh-tw"
        case HB_SCRIPT_THAI: "th"
        case HB_SCRIPT_LAO: "lo"
        case HB_SCRIPT_KHMER: "km"
        case HB_SCRIPT_MYANMAR: "my"
        case HB_SCRIPT_DEVANAGARI: "hi"
        case HB_SCRIPT_BENGALI: "bn"
        case HB_SCRIPT_TAMIL: "ta"
        case HB_SCRIPT_TELUGU: "te"
        case HB_SCRIPT_GUJARATI: "gu"
        case HB_SCRIPT_GURMUKHI: "pa"
        case HB_SCRIPT_KANNADA: "kn"
        case HB_SCRIPT_MALAYALAM: "ml"
        case HB_SCRIPT_SINHALA: "si"
        case HB_SCRIPT_TIBETAN: "bo"
        case HB_SCRIPT_GEORGIAN: "ka"
        case HB_SCRIPT_ARMENIAN: "hy"
        case HB_SCRIPT_ETHIOPIC: "am"
        default: nil
        }
    }
}
