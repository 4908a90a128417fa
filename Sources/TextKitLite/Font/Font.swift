import Synchronization

/// One face of a TrueType/OpenType font file (or collection), ready for shaping and
/// rasterization from any thread.
///
/// HarfBuzz shapes with its own OpenType functions over an immutable font object, so many
/// threads may shape with one `Font` at once. FreeType rasterizes under a per-font lock.
/// Fonts are compared by identity: two loads of the same file and face share one `Font`
/// (see `Font.load(path:faceIndex:)`).
public final class Font: Sendable, Hashable, CustomStringConvertible {
    /// The file the font was loaded from.
    public let path: String
    /// The face within the file (0 for a single font; the index within a .ttc collection).
    public let faceIndex: Int
    /// The family name from the font's `name` table ("DejaVu Sans").
    public let familyName: String
    /// The style name from the font's `name` table ("Regular").
    public let styleName: String
    /// Design units per em.
    public let unitsPerEm: Int
    /// True for bitmap color fonts (emoji): drawn as gray images, preferred for emoji
    /// presentation sequences by the fallback chain.
    public let isColor: Bool

    /// Process-unique number, used in cache keys.
    let id: Int
    let harfBuzz: HarfBuzzFont
    private let freeType: Locked<FreeTypeFace>
    private let ascender: Int32
    private let descender: Int32
    private let lineGap: Int32

    private static let nextID = Atomic<Int>(1)
    private static let loaded = Locked<[String: Font]>([:])

    /// Loads a face of a font file, or returns the already loaded one.
    ///
    /// - Parameters:
    ///   - path: a TrueType/OpenType font (.ttf, .otf) or collection (.ttc).
    ///   - faceIndex: the face within a collection; 0 for single fonts.
    /// - Throws: `FontError` naming the path and the reason (missing, a directory,
    ///   unreadable, empty, not a font, face index out of range).
    public static func load(path: String, faceIndex: Int = 0) throws(FontError) -> Font {
        let key = "\(path)#\(faceIndex)"
        if let font = loaded.withLock({ $0[key] }) { return font }
        let font = try Font(path: path, faceIndex: faceIndex)
        return loaded.withLock { cache in
            if let existing = cache[key] { return existing }
            cache[key] = font
            return font
        }
    }

    /// Loads a face of a font file afresh, past the per-path cache of `load(path:faceIndex:)`
    /// (the font fuzzer loads a new damaged file at one path for every input).
    ///
    /// - Throws: `FontError`, as `load(path:faceIndex:)`.
    init(path: String, faceIndex: Int) throws(FontError) {
        let data = try FontData(path: path)
        let faceCount: Int
        do {
            faceCount = try FreeTypeFace.faceCount(data)
        } catch {
            throw FontError(path: path, reason: .notAFont(error.description))
        }
        guard faceIndex >= 0, faceIndex < faceCount else {
            throw FontError(path: path, reason: .faceIndexOutOfRange(index: faceIndex, faceCount: faceCount))
        }
        let face: FreeTypeFace
        do {
            face = try FreeTypeFace(data: data, faceIndex: faceIndex)
        } catch {
            throw FontError(path: path, reason: .notAFont(error.description))
        }
        guard let harfBuzz = HarfBuzzFont(data: data, faceIndex: faceIndex) else {
            throw FontError(path: path, reason: .notAFont("HarfBuzz finds no glyphs in face \(faceIndex)"))
        }
        self.path = path
        self.faceIndex = faceIndex
        self.harfBuzz = harfBuzz
        (familyName, styleName) = harfBuzz.names()
        unitsPerEm = Int(harfBuzz.unitsPerEm)
        isColor = !face.isScalable && face.strikePixelSize > 0
        (ascender, descender, lineGap) = harfBuzz.verticalMetrics()
        freeType = Locked(face)
        id = Self.nextID.add(1, ordering: .relaxed).oldValue
    }

    /// Vertical metrics at a point size.
    public func metrics(size: Double) -> FontMetrics {
        let scale = size / Double(unitsPerEm)
        return FontMetrics(ascent: Double(ascender) * scale, descent: Double(descender) * scale,
                           lineGap: Double(lineGap) * scale)
    }

    /// True when the font's character map has a glyph for the scalar.
    public func covers(_ scalar: Unicode.Scalar) -> Bool { harfBuzz.glyph(for: scalar.value) != nil }

    /// Runs `body` with this font's FreeType face, under its lock (an `FT_Face` is used by
    /// one thread at a time).
    func withRasterizer<Result: Sendable>(_ body: (FreeTypeFace) -> Result) -> Result {
        freeType.withLock { body($0) }
    }

    public var description: String {
        "\(familyName) \(styleName) (\(path)\(faceIndex == 0 ? "" : "#\(faceIndex)"))"
    }

    public static func == (lhs: Font, rhs: Font) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
