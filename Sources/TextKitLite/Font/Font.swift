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
    /// True for bitmap color fonts (emoji): drawn in color on RGBA bitmaps and as their gray
    /// levels on gray ones, preferred for emoji presentation sequences by the fallback chain.
    public let isColor: Bool
    /// True when the font has COLRv0 color glyphs, drawn as layers of ordinary glyphs
    /// (`colorLayers(of:)`).
    public let hasColorLayers: Bool
    /// The face's own weight and slant (its OS/2 and head tables say bold, italic).
    public let isBold: Bool
    public let isItalic: Bool
    /// OpenType features this font shapes with (empty: HarfBuzz's defaults).
    public let features: [FontFeature]
    /// What this font draws beyond its face: synthetic bold or oblique.
    let synthesis: FontSynthesis
    /// The face's variation axes (its `fvar` table); empty for a font that is not variable.
    public let axes: [Font.Axis]
    /// The axis values this font draws at, in axis order, each inside its axis's range and
    /// none at its axis's default; empty for the face's default instance.
    public let variations: [FontVariation]

    /// Process-unique number, used in cache keys: a variant (other features, synthesis or
    /// variations) has its own, so every cache keyed by font tells variants apart for free.
    let id: Int
    let harfBuzz: HarfBuzzFont
    private let freeType: Locked<FreeTypeFace>
    private let ascender: Int32
    private let descender: Int32
    private let lineGap: Int32
    /// Underline and strikeout centres (above the baseline) and thicknesses, font units.
    private let decorations: (underline: Int32, underlineThickness: Int32, strikeout: Int32, strikeoutThickness: Int32)
    /// The colors of the font's `CPAL` palette 0, read once when the font loads (empty
    /// without COLRv0 layers).
    private let palette: [Color]
    /// Variants of this font made so far (see `variant(_:features:variations:)`).
    private let variants = Locked<[Variant: Font]>([:])
    /// The most variants kept per font: past it, a new setting makes a font that is not
    /// kept (each variation instance owns a FreeType face; a service's requests may ask for
    /// any number of axis values).
    private static let maximumVariants = 64

    private struct Variant: Hashable {
        let synthesis: FontSynthesis
        let features: [FontFeature]
        var variations: [FontVariation] = []
    }

    private static let nextID = Atomic<Int>(1)
    private static let loaded = Locked<[String: Font]>([:])

    /// Loads a face of a font file, or returns the already loaded one.
    ///
    /// - Parameters:
    ///   - path: a TrueType/OpenType font (.ttf, .otf) or collection (.ttc).
    ///   - faceIndex: the face within a collection; 0 for single fonts. As in FreeType and
    ///     fontconfig, bits 16 and up name a variable font's named instance (1 for the first
    ///     of its `fvar` table): the face at that instance's axis values.
    /// - Throws: `FontError` naming the path and the reason (missing, a directory,
    ///   unreadable, empty, not a font, face index or named instance out of range).
    public static func load(path: String, faceIndex: Int = 0) throws(FontError) -> Font {
        if faceIndex > 0xFFFF {
            return try load(path: path, faceIndex: faceIndex & 0xFFFF).namedInstance(faceIndex >> 16)
        }
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
        hasColorLayers = harfBuzz.hasColorLayers
        palette = hasColorLayers ? harfBuzz.paletteColors(0) : []
        isBold = face.isBold
        isItalic = face.isItalic
        features = []
        synthesis = FontSynthesis()
        axes = harfBuzz.axes()
        variations = []
        (ascender, descender, lineGap) = harfBuzz.verticalMetrics()
        decorations = harfBuzz.decorationMetrics()
        freeType = Locked(face)
        id = Self.nextID.add(1, ordering: .relaxed).oldValue
    }

    /// A font derived from `font`: other features and synthesis over its face (sharing its
    /// FreeType lock) and axis values, or, given an `instance`, the face at other axis values
    /// with the instance's own HarfBuzz font, FreeType face (and lock) and metrics.
    private init(derivedFrom font: Font, synthesis: FontSynthesis, features: [FontFeature],
                 instance: sending (variations: [FontVariation], harfBuzz: HarfBuzzFont, freeType: FreeTypeFace)? = nil) {
        path = font.path
        faceIndex = font.faceIndex
        familyName = font.familyName
        styleName = font.styleName
        unitsPerEm = font.unitsPerEm
        isColor = font.isColor
        hasColorLayers = font.hasColorLayers
        palette = font.palette
        isBold = font.isBold
        isItalic = font.isItalic
        self.features = features
        self.synthesis = synthesis
        axes = font.axes
        if let instance {
            variations = instance.variations
            harfBuzz = instance.harfBuzz
            freeType = Locked(instance.freeType)
            (ascender, descender, lineGap) = instance.harfBuzz.verticalMetrics()
            decorations = instance.harfBuzz.decorationMetrics()
        } else {
            variations = font.variations
            harfBuzz = font.harfBuzz
            freeType = font.freeType
            (ascender, descender, lineGap) = (font.ascender, font.descender, font.lineGap)
            decorations = font.decorations
        }
        id = Self.nextID.add(1, ordering: .relaxed).oldValue
    }

    /// `font`'s face at other axis values (see `init(derivedFrom:synthesis:features:instance:)`);
    /// nil when FreeType refuses the values.
    private static func instance(of font: Font, variations: [FontVariation]) -> Font? {
        let face: FreeTypeFace
        do {
            face = try FreeTypeFace(data: font.harfBuzz.data, faceIndex: font.faceIndex)
            try face.setVariations(variations)
        } catch {
            return nil
        }
        return Font(derivedFrom: font, synthesis: font.synthesis, features: font.features,
                    instance: (variations, HarfBuzzFont(instanceOf: font.harfBuzz, variations: variations), face))
    }

    /// This face with other OpenType features, synthesis or axis values: the same font object
    /// for the same arguments (so caches keyed by font see one font), `self` for its own.
    ///
    /// - Parameter variations: axis values as `variations(for:)` gives them (inside the axes'
    ///   ranges, in axis order); a variant with features or synthesis shares the face of the
    ///   instance at those values. When FreeType refuses them, the face's default instance.
    func variant(_ synthesis: FontSynthesis, features: [FontFeature], variations: [FontVariation] = []) -> Font {
        guard synthesis != FontSynthesis() || !features.isEmpty || variations != self.variations else { return self }
        let key = Variant(synthesis: synthesis, features: features, variations: variations)
        if let font = variants.withLock({ $0[key] }) { return font }
        let font: Font
        if synthesis == FontSynthesis(), features.isEmpty {
            guard let instance = Self.instance(of: self, variations: variations) else { return self }
            font = instance
        } else {
            let face = variations == self.variations ? self : variant(FontSynthesis(), features: [], variations: variations)
            font = Font(derivedFrom: face, synthesis: synthesis, features: features)
        }
        return variants.withLock { variants in
            if let existing = variants[key] { return existing }
            if variants.count < Self.maximumVariants { variants[key] = font }
            return font
        }
    }

    /// Synthetic bold: stems and advances widened (`FontSynthesis.emboldening`).
    public var isSyntheticBold: Bool { synthesis.emboldened }
    /// Synthetic oblique: outlines slanted (`FontSynthesis.slant`).
    public var isSyntheticItalic: Bool { synthesis.slanted }

    /// Vertical metrics at a point size.
    public func metrics(size: Double) -> FontMetrics {
        let scale = size / Double(unitsPerEm)
        return FontMetrics(ascent: Double(ascender) * scale, descent: Double(descender) * scale,
                           lineGap: Double(lineGap) * scale)
    }

    /// Where a glyph's vertical origin (the top centre of its vertical advance box) lies
    /// from its horizontal origin at a point size: points right, and up.
    func verticalOrigin(glyph: UInt32, size: Double) -> (x: Double, y: Double) {
        let origin = harfBuzz.verticalOrigin(glyph), scale = size / Double(unitsPerEm)
        return (Double(origin.x) * scale, Double(origin.y) * scale)
    }

    /// Where underlines and strikethroughs go at a point size, as the font's `post` and
    /// `OS/2` tables say.
    package func decorationMetrics(size: Double) -> DecorationMetrics {
        let scale = size / Double(unitsPerEm)
        return DecorationMetrics(underlineOffset: -Double(decorations.underline) * scale,
                                 underlineThickness: Double(decorations.underlineThickness) * scale,
                                 strikethroughOffset: -Double(decorations.strikeout) * scale,
                                 strikethroughThickness: Double(decorations.strikeoutThickness) * scale)
    }

    /// A glyph's ink box at a point size, relative to its pen position on the baseline (points,
    /// y downward), as the renderer draws it: the unhinted outline (or color bitmap) box from
    /// HarfBuzz, sheared by synthetic oblique (x += slant × height above the baseline) and
    /// grown right and up by synthetic bold, as FreeType's emboldening grows it. nil for a
    /// glyph without ink. A box, so a sheared glyph's is larger than its ink, and a color
    /// bitmap's includes its transparent margin; hinting and the renderer's snapping of
    /// baselines and offsets move the drawn pixels by up to two pixels.
    public func inkBox(glyph: UInt32, size: Double) -> Rect? {
        guard let e = harfBuzz.inkExtents(glyph) else { return nil }
        var (xMin, yMin, xMax, yMax) = (Double(e.xMin), Double(e.yMin), Double(e.xMax), Double(e.yMax))
        if synthesis.slanted, !isColor {
            (xMin, xMax) = (xMin + FontSynthesis.slant * yMin, xMax + FontSynthesis.slant * yMax)
        }
        if synthesis.emboldened {
            let strength = Double(unitsPerEm) * FontSynthesis.emboldening
            xMax += strength
            yMax += strength
        }
        let scale = size / Double(unitsPerEm)
        return Rect(x: xMin * scale, y: -yMax * scale, width: (xMax - xMin) * scale, height: (yMax - yMin) * scale)
    }

    /// True when the font's character map has a glyph for the scalar.
    public func covers(_ scalar: Unicode.Scalar) -> Bool { harfBuzz.glyph(for: scalar.value) != nil }

    /// A glyph's COLRv0 color layers in the order they are painted, bottom first: each an
    /// ordinary glyph of this font and its color from the font's palette 0 (`CPAL`), or nil
    /// for the text's foreground ink (palette entry 0xFFFF), as the OpenType `COLR` table
    /// version 0 defines them.
    ///
    /// Safe from any thread; each call reads the `COLR` table (a binary search for the
    /// glyph), the palette was read when the font loaded.
    ///
    /// - Returns: nil when the glyph has no layers (draw it as it is), and when a layer names
    ///   a palette entry the palette does not have (a damaged font: FreeType refuses such a
    ///   glyph too).
    package func colorLayers(of glyph: UInt32) -> [ColorLayer]? {
        guard hasColorLayers else { return nil }
        let records = harfBuzz.colorLayers(glyph)
        guard !records.isEmpty else { return nil }
        var layers: [ColorLayer] = []
        layers.reserveCapacity(records.count)
        for record in records {
            if record.paletteIndex == ColorLayer.foregroundIndex {
                layers.append(ColorLayer(glyph: record.glyph, color: nil))
            } else if record.paletteIndex < palette.count {
                layers.append(ColorLayer(glyph: record.glyph, color: palette[record.paletteIndex]))
            } else {
                return nil
            }
        }
        return layers
    }

    /// Runs `body` with this font's FreeType face, under its lock (an `FT_Face` is used by
    /// one thread at a time).
    func withRasterizer<Result: Sendable>(_ body: (FreeTypeFace) -> Result) -> Result {
        freeType.withLock { body($0) }
    }

    public var description: String {
        var extras = ""
        if synthesis.emboldened { extras += ", synthetic bold" }
        if synthesis.slanted { extras += ", synthetic oblique" }
        if !features.isEmpty { extras += ", features \(features.map(\.description).joined(separator: ","))" }
        if !variations.isEmpty { extras += ", variations \(variations.map(\.description).joined(separator: ","))" }
        return "\(familyName) \(styleName) (\(path)\(faceIndex == 0 ? "" : "#\(faceIndex)")\(extras))"
    }

    public static func == (lhs: Font, rhs: Font) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// What a font draws beyond its face, for a style asking for a weight or slant the chain has
/// no face for: synthetic bold (outlines and advances widened) and synthetic oblique
/// (outlines slanted). Color (bitmap) glyphs are emboldened by growing their pixels, and
/// never slanted.
struct FontSynthesis: Hashable, Sendable {
    var emboldened = false
    var slanted = false

    /// Emboldening strength as a fraction of the em: stems grow by this much and so does
    /// each advance, as FreeType's `FT_GlyphSlot_Embolden` (and cairo with it) does.
    static let emboldening = 1.0 / 24
    /// Oblique shear (x += slant × y), FreeType's `FT_GlyphSlot_Oblique` angle (~12°).
    static let slant = 0.2
}

extension Font {
    /// The family names of every face of a font file, in face order, without loading the
    /// faces (a CJK collection holds five faces of about 20 MB each); empty when the file
    /// cannot be read.
    static func familyNames(ofFacesIn path: String) -> [String] {
        guard let data = try? FontData(path: path) else { return [] }
        return (0..<HarfBuzzFont.faceCount(data)).map { HarfBuzzFont(data: data, faceIndex: $0)?.names().family ?? "" }
    }
}
