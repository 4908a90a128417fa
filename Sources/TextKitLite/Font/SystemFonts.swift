internal import CFontconfig
import Foundation

/// The machine's installed fonts, found through fontconfig: a family by name, and a font
/// for characters no font of a chain covers.
///
/// fontconfig's configuration is loaded once per process; every call into it is made under
/// one lock (its thread safety varies between versions, and lookups are rare: their answers
/// are cached here and in the chains that ask).
package enum SystemFonts {
    /// A face of an installed font file.
    package struct Face: Sendable, Hashable, CustomStringConvertible {
        package let path: String
        package let faceIndex: Int
        /// The family name fontconfig knows it by (its first).
        package let family: String
        /// A variable font's named instance fontconfig matched (1 for the first of its `fvar`
        /// table), 0 for the face's default.
        package var namedInstance = 0

        /// "PATH" or "PATH#INDEX", as `FontFallbackChain.load(specs:)` takes it: INDEX holds the
        /// named instance in bits 16 and up, as FreeType and fontconfig number faces.
        package var spec: String {
            let index = namedInstance << 16 | faceIndex
            return index == 0 ? path : "\(path)#\(index)"
        }
        package var description: String { "\(family) (\(spec))" }
    }

    /// Generic family names fontconfig resolves through its configuration ("sans-serif" →
    /// DejaVu Sans): any match is what was asked for.
    private static let genericFamilies: Set<String> = ["sans-serif", "sans", "serif", "monospace", "mono", "system-ui", "emoji", "cursive", "fantasy"]

    /// The installed face of `family` ("Noto Sans CJK JP", "DejaVu Serif", "serif") with a
    /// fontconfig style ("Bold", "Italic", "Bold Italic"), nil when no installed family has
    /// that name or the family has no such style (fontconfig always answers with some font;
    /// an answer of another family, or of another style, is refused here).
    package static func face(family: String, style: String? = nil) -> Face? {
        let key = family + ":" + (style ?? "")
        if let known = families.withLock({ $0[key] }) { return known }
        let face = fontconfig.withLock { state -> Face? in
            guard let config = state.config, let pattern = FcPatternCreate() else { return nil }
            defer { FcPatternDestroy(pattern) }
            add(pattern, FC_FAMILY, family)
            if let style { add(pattern, FC_STYLE, style) }
            guard let match = state.match(pattern, config: config) else { return nil }
            defer { FcPatternDestroy(match) }
            let wanted = normalized(family)
            guard genericFamilies.contains(wanted) || strings(match, FC_FAMILY).contains(where: { normalized($0) == wanted }) else {
                return nil
            }
            if let style {
                let wantedStyle = normalized(style)
                guard strings(match, FC_STYLE).contains(where: { normalized($0) == wantedStyle }) else { return nil }
            }
            return Self.face(of: match)
        }
        families.withLock { $0[key] = face }
        return face
    }

    /// The styles of an installed family's faces, as fontconfig names them ("Bold",
    /// "Regular"), sorted; empty for a family not installed (or a generic name such as "serif").
    package static func styles(family: String) -> [String] {
        fontconfig.withLock { state -> [String] in
            guard let config = state.config, let pattern = FcPatternCreate() else { return [] }
            defer { FcPatternDestroy(pattern) }
            add(pattern, FC_FAMILY, family)
            guard let objects = FcObjectSetCreate() else { return [] }
            defer { FcObjectSetDestroy(objects) }
            FcObjectSetAdd(objects, FC_STYLE)
            guard let set = FcFontList(config, pattern, objects) else { return [] }
            defer { FcFontSetDestroy(set) }
            var styles: Set<String> = []
            for i in 0..<Int(set.pointee.nfont) {
                if let font = set.pointee.fonts[i] { styles.formUnion(strings(font, FC_STYLE)) }
            }
            return styles.sorted()
        }
    }

    /// The installed font of `family` (see `face(family:style:)`), loaded; nil when no
    /// installed family has that name or its file does not load.
    package static func font(family: String, style: String? = nil) -> Font? {
        face(family: family, style: style).flatMap { try? Font.load(path: $0.path, faceIndex: $0.faceIndex) }
    }

    /// Installed faces that map every scalar of `cluster`, best first as fontconfig sorts
    /// them for `language` (a BCP 47 or fontconfig language tag: "ko", "th", "ja"), at most
    /// `limit`. Color fonts come last unless `color`: fontconfig ranks color above family,
    /// which would put an emoji font before every text font.
    static func faces(covering cluster: [UInt32], language: String?, color: Bool, limit: Int = 4) -> [Face] {
        fontconfig.withLock { state -> [Face] in
            guard let config = state.config, let pattern = FcPatternCreate(), let charset = FcCharSetCreate() else { return [] }
            defer {
                FcPatternDestroy(pattern)
                FcCharSetDestroy(charset)
            }
            for scalar in cluster { FcCharSetAddChar(charset, scalar) }
            FcPatternAddCharSet(pattern, FC_CHARSET, charset)
            if let language { add(pattern, FC_LANG, language) }
            FcPatternAddBool(pattern, FC_COLOR, color ? FcTrue : FcFalse)
            FcConfigSubstitute(config, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            guard let set = FcFontSort(config, pattern, FcFalse, nil, &result) else { return [] }
            defer { FcFontSetDestroy(set) }
            var faces: [Face] = [], colorFaces: [Face] = []
            for i in 0..<Int(set.pointee.nfont) where faces.count + colorFaces.count < limit * 4 {
                guard let candidate = set.pointee.fonts[i],
                      let font = FcFontRenderPrepare(config, pattern, candidate) else { continue }
                defer { FcPatternDestroy(font) }
                var fontCharset: OpaquePointer?
                guard FcPatternGetCharSet(font, FC_CHARSET, 0, &fontCharset) == FcResultMatch,
                      cluster.allSatisfy({ FcCharSetHasChar(fontCharset, $0) == FcTrue }),
                      let face = Self.face(of: font) else { continue }
                var isColor: FcBool = FcFalse
                FcPatternGetBool(font, FC_COLOR, 0, &isColor)
                if isColor == FcTrue { colorFaces.append(face) } else { faces.append(face) }
            }
            return Array((color ? colorFaces + faces : faces + colorFaces).prefix(limit))
        }
    }

    /// Families asked for so far (nil: not installed).
    private static let families = Locked<[String: Face?]>([:])

    private static let fontconfig = Locked(State())

    /// fontconfig's configuration, loaded on first use.
    private struct State: ~Copyable {
        private var loaded = false
        private var current: OpaquePointer?

        var config: OpaquePointer? {
            mutating get {
                if !loaded {
                    loaded = true
                    current = FcInitLoadConfigAndFonts()
                }
                return current
            }
        }

        /// fontconfig's best match for a family pattern, after its substitutions.
        func match(_ pattern: OpaquePointer, config: OpaquePointer) -> OpaquePointer? {
            FcConfigSubstitute(config, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            return FcFontMatch(config, pattern, &result)
        }
    }

    private static func face(of pattern: OpaquePointer) -> Face? {
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        var index: Int32 = 0
        FcPatternGetInteger(pattern, FC_INDEX, 0, &index)
        // A variable font's named instances are numbered above 0xFFFF; the face is the low bits.
        var face = Face(path: String(cString: file), faceIndex: Int(index & 0xFFFF), family: strings(pattern, FC_FAMILY).first ?? "")
        face.namedInstance = Int(index >> 16)
        return face
    }

    private static func add(_ pattern: OpaquePointer, _ object: String, _ value: String) {
        Array(value.utf8CString).withUnsafeBufferPointer { chars in
            chars.withMemoryRebound(to: FcChar8.self) { _ = FcPatternAddString(pattern, object, $0.baseAddress) }
        }
    }

    private static func strings(_ pattern: OpaquePointer, _ object: String) -> [String] {
        var values: [String] = []
        var value: UnsafeMutablePointer<FcChar8>?
        var i: Int32 = 0
        while FcPatternGetString(pattern, object, i, &value) == FcResultMatch, let value {
            values.append(String(cString: value))
            i += 1
        }
        return values
    }

    /// fontconfig compares family names ignoring case and spaces.
    private static func normalized(_ family: String) -> String {
        family.lowercased().filter { $0 != " " }
    }
}
