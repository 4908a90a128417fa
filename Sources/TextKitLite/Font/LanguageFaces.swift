/// The CJK glyph conventions a language asks for: 骨 and 直 are drawn differently in
/// Japan, Korea, mainland China, Taiwan and Hong Kong, and CJK font families ship one face
/// per region (Noto Sans CJK JP, KR, SC, TC, HK).
enum CJKRegion: String, Sendable, Hashable {
    case japan = "JP", korea = "KR", simplifiedChinese = "SC", traditionalChinese = "TC", hongKong = "HK"

    /// The region of a BCP 47 language tag: "ja" → JP, "ko" → KR, "zh", "zh-Hans",
    /// "zh-CN", "zh-SG" → SC, "zh-Hant", "zh-TW" → TC, "zh-HK", "zh-MO" → HK; nil for
    /// other languages.
    init?(language: String) {
        let parts = language.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" })
        switch parts.first {
        case "ja": self = .japan
        case "ko": self = .korea
        case "zh":
            let subtags = Set(parts.dropFirst())
            if subtags.contains("hk") || subtags.contains("mo") { self = .hongKong }
            else if subtags.contains("hant") || subtags.contains("tw") { self = .traditionalChinese }
            else { self = .simplifiedChinese }
        default: return nil
        }
    }

    /// The language fontconfig matches fonts for.
    var fontconfigLanguage: String {
        switch self {
        case .japan: "ja"
        case .korea: "ko"
        case .simplifiedChinese: "zh-cn"
        case .traditionalChinese: "zh-tw"
        case .hongKong: "zh-hk"
        }
    }

    /// The region a font's family name ends with ("Noto Sans CJK JP", "Noto Serif SC"),
    /// nil when it names none.
    init?(family: String) {
        guard let last = family.split(separator: " ").last, let region = CJKRegion(rawValue: last.uppercased()) else { return nil }
        self = region
    }
}

/// The regional faces a chain has found for its CJK fonts, by font and region: a face of
/// the same family for the region from the chain itself, else from the font's own
/// collection file, else (when the chain uses the system's fonts) an installed one that
/// fontconfig matches for the region's language.
final class LanguageFaces: Sendable {
    private struct Key: Hashable {
        let font: Int
        let region: CJKRegion
    }

    /// Found faces (nil: the font itself serves). A handful per process: one per CJK font
    /// and region asked.
    private let faces = Locked<[Key: Font?]>([:])

    /// The face of `region` standing in for `font`, nil when `font` is not a CJK font, is
    /// the region's face already, or no face of the region is found.
    func face(for font: Font, region: CJKRegion, chain: [Font], system: Bool) -> Font? {
        let key = Key(font: font.id, region: region)
        if let known = faces.withLock({ $0[key] }) { return known }
        let found = Self.find(for: font, region: region, chain: chain, system: system)
        faces.withLock { $0[key] = found }
        return found
    }

    /// 永: a Han character every CJK face maps, and that tells a CJK font from others.
    private static let han: UInt32 = 0x6C38

    private static func find(for font: Font, region: CJKRegion, chain: [Font], system: Bool) -> Font? {
        guard font.harfBuzz.glyph(for: han) != nil, CJKRegion(family: font.familyName) != region else { return nil }
        func isRegional(_ candidate: Font) -> Bool {
            CJKRegion(family: candidate.familyName) == region && candidate.harfBuzz.glyph(for: han) != nil
                && candidate.isBold == font.isBold && candidate.isItalic == font.isItalic
        }
        if let inChain = chain.first(where: isRegional) { return inChain }
        // The other faces of the font's collection file (.ttc), by their names.
        let names = Font.familyNames(ofFacesIn: font.path)
        if let sibling = names.indices.first(where: { $0 != font.faceIndex && CJKRegion(family: names[$0]) == region }),
           let face = try? Font.load(path: font.path, faceIndex: sibling), isRegional(face) {
            return face
        }
        guard system else { return nil }
        return SystemFonts.faces(covering: [han], language: region.fontconfigLanguage, color: false)
            .lazy.compactMap { try? Font.load(path: $0.path, faceIndex: $0.faceIndex) }
            .first(where: isRegional)
    }
}
