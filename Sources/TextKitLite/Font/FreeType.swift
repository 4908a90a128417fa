internal import CFreetype

// Every call into FreeType lives in this file.

/// A FreeType error code (`FT_Error`) with FreeType's own message.
struct FreeTypeError: Error, Sendable, Equatable, CustomStringConvertible {
    let code: Int32

    /// FreeType's message for the code, as `fterrdef.h` (FreeType 2.12) gives it: the
    /// library's own `FT_Error_String` returns nil unless FreeType was built with
    /// `FT_CONFIG_OPTION_ERROR_STRINGS`, which Debian's is not.
    var description: String {
        switch code {
        case 0x00: "no error"
        case 0x01: "cannot open resource"
        case 0x02: "unknown file format"
        case 0x03: "broken file"
        case 0x04: "invalid FreeType version"
        case 0x05: "module version is too low"
        case 0x06: "invalid argument"
        case 0x07: "unimplemented feature"
        case 0x08: "broken table"
        case 0x09: "broken offset within table"
        case 0x0A: "array allocation size too large"
        case 0x0B: "missing module"
        case 0x0C: "missing property"
        case 0x10: "invalid glyph index"
        case 0x11: "invalid character code"
        case 0x12: "unsupported glyph image format"
        case 0x13: "cannot render this glyph format"
        case 0x14: "invalid outline"
        case 0x15: "invalid composite glyph"
        case 0x16: "too many hints"
        case 0x17: "invalid pixel size"
        case 0x18: "invalid SVG document"
        case 0x20: "invalid object handle"
        case 0x21: "invalid library handle"
        case 0x22: "invalid module handle"
        case 0x23: "invalid face handle"
        case 0x24: "invalid size handle"
        case 0x25: "invalid glyph slot handle"
        case 0x26: "invalid charmap handle"
        case 0x27: "invalid cache manager handle"
        case 0x28: "invalid stream handle"
        case 0x30: "too many modules"
        case 0x31: "too many extensions"
        case 0x40: "out of memory"
        case 0x41: "unlisted object"
        case 0x51: "cannot open stream"
        case 0x52: "invalid stream seek"
        case 0x53: "invalid stream skip"
        case 0x54: "invalid stream read"
        case 0x55: "invalid stream operation"
        case 0x56: "invalid frame operation"
        case 0x57: "nested frame access"
        case 0x58: "invalid frame read"
        case 0x60: "raster uninitialized"
        case 0x61: "raster corrupted"
        case 0x62: "raster overflow"
        case 0x63: "negative height while rastering"
        case 0x70: "too many registered caches"
        case 0x80: "invalid opcode"
        case 0x81: "too few arguments"
        case 0x82: "stack overflow"
        case 0x83: "code overflow"
        case 0x84: "bad argument"
        case 0x85: "division by zero"
        case 0x86: "invalid reference"
        case 0x87: "found debug opcode"
        case 0x88: "found ENDF opcode in execution stream"
        case 0x89: "nested DEFS"
        case 0x8A: "invalid code range"
        case 0x8B: "execution context too long"
        case 0x8C: "too many function definitions"
        case 0x8D: "too many instruction definitions"
        case 0x8E: "SFNT font table missing"
        case 0x8F: "horizontal header (hhea) table missing"
        case 0x90: "locations (loca) table missing"
        case 0x91: "name table missing"
        case 0x92: "character map (cmap) table missing"
        case 0x93: "horizontal metrics (hmtx) table missing"
        case 0x94: "PostScript (post) table missing"
        case 0x95: "invalid horizontal metrics"
        case 0x96: "invalid character map (cmap) format"
        case 0x97: "invalid ppem value"
        case 0x98: "invalid vertical metrics"
        case 0x99: "could not find context"
        case 0x9A: "invalid PostScript (post) table format"
        case 0x9B: "invalid PostScript (post) table"
        case 0x9C: "found FDEF or IDEF opcode in glyf bytecode"
        case 0x9D: "missing bitmap in strike"
        case 0x9E: "SVG hooks have not been set"
        case 0xA0: "opcode syntax error"
        case 0xA1: "argument stack underflow"
        case 0xA2: "ignore"
        case 0xA3: "no Unicode glyph name found"
        case 0xA4: "glyph too big for hinting"
        case 0xB0: "`STARTFONT' field missing"
        case 0xB1: "`FONT' field missing"
        case 0xB2: "`SIZE' field missing"
        case 0xB3: "`FONTBOUNDINGBOX' field missing"
        case 0xB4: "`CHARS' field missing"
        case 0xB5: "`STARTCHAR' field missing"
        case 0xB6: "`ENCODING' field missing"
        case 0xB7: "`BBX' field missing"
        case 0xB8: "`BBX' too big"
        case 0xB9: "Font header corrupted or missing fields"
        case 0xBA: "Font glyphs corrupted or missing fields"
        default: "FreeType error \(code) (not a code FreeType 2.12 defines)"
        }
    }
}

/// Routes every FreeType call's result through one check.
@inline(__always)
private func check(_ error: FT_Error) throws(FreeTypeError) {
    if error != 0 { throw FreeTypeError(code: error) }
}

/// `FT_LOAD_TARGET_LIGHT` (a function-like macro in C): vertical-only hinting, which keeps
/// advances unhinted so subpixel x positions stay exact.
private let loadTargetLight: Int32 = 1 << 16
private let loadColor: Int32 = 1 << 20
private let loadNoBitmap: Int32 = 1 << 3

/// One FreeType library and face over a font file's bytes, used for rasterization only.
///
/// Not `Sendable`: an `FT_Face` must be used by one thread at a time. Each `Font` keeps its
/// face inside a `Mutex`, and this class has its own `FT_Library`, so creating and
/// destroying faces is never concurrent within one library.
final class FreeTypeFace {
    private var library: OpaquePointer?
    private var face: FT_Face?
    private let data: FontData
    /// Outline font (false for bitmap-only fonts such as Noto Color Emoji).
    let isScalable: Bool
    /// The face's own style (FreeType's `FT_STYLE_FLAG_BOLD` and `FT_STYLE_FLAG_ITALIC`, from
    /// the OS/2 and head tables).
    let isBold: Bool
    let isItalic: Bool
    /// The pixel size of the best bitmap strike of a bitmap-only font.
    private var strikeIndex: Int32 = 0
    private(set) var strikePixelSize: Double = 0
    /// The largest glyph raster made (pixels); bigger glyphs draw nothing.
    static let maximumGlyphPixels = 4 << 20

    /// The number of faces FreeType finds in the bytes.
    static func faceCount(_ data: FontData) throws(FreeTypeError) -> Int {
        var library: OpaquePointer?
        try check(FT_Init_FreeType(&library))
        defer { FT_Done_FreeType(library) }
        var face: FT_Face?
        try check(FT_New_Memory_Face(
            library, data.bytes.baseAddress!.assumingMemoryBound(to: FT_Byte.self),
            FT_Long(data.bytes.count), -1, &face))
        defer { FT_Done_Face(face) }
        return Int(face!.pointee.num_faces)
    }

    init(data: FontData, faceIndex: Int) throws(FreeTypeError) {
        self.data = data
        try check(FT_Init_FreeType(&library))
        var face: FT_Face?
        do {
            try check(FT_New_Memory_Face(
                library, data.bytes.baseAddress!.assumingMemoryBound(to: FT_Byte.self),
                FT_Long(data.bytes.count), FT_Long(faceIndex), &face))
        } catch {
            FT_Done_FreeType(library)
            library = nil
            throw error
        }
        self.face = face
        let flags = face!.pointee.face_flags
        isScalable = flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0
        let style = face!.pointee.style_flags
        isBold = style & FT_Long(FT_STYLE_FLAG_BOLD) != 0
        isItalic = style & FT_Long(FT_STYLE_FLAG_ITALIC) != 0
        if !isScalable, face!.pointee.num_fixed_sizes > 0, let sizes = face!.pointee.available_sizes {
            // Pick the largest strike: scaling down looks better than scaling up.
            var best: Int32 = 0
            for i in 0..<face!.pointee.num_fixed_sizes where sizes[Int(i)].y_ppem > sizes[Int(best)].y_ppem {
                best = i
            }
            strikeIndex = best
            strikePixelSize = Double(sizes[Int(best)].y_ppem) / 64
        }
    }

    /// Sets the face's variation-axis coordinates (`FT_Set_Var_Design_Coordinates`): the
    /// axes named get their values, every other axis its default.
    ///
    /// - Parameter variations: axis tags and design values, inside the axes' ranges (HarfBuzz
    ///   is given the same values, so outlines and advances agree).
    /// - Throws: `FreeTypeError` when the face has no variation axes or refuses the values.
    func setVariations(_ variations: [FontVariation]) throws(FreeTypeError) {
        guard let face else { throw FreeTypeError(code: 0x23) }
        var master: UnsafeMutablePointer<FT_MM_Var>?
        try check(FT_Get_MM_Var(face, &master))
        defer { FT_Done_MM_Var(library, master) }
        guard let master, let axes = master.pointee.axis else { throw FreeTypeError(code: 0x06) }
        var coordinates = (0..<Int(master.pointee.num_axis)).map { axes[$0].def }
        for i in coordinates.indices {
            let tag = UInt32(truncatingIfNeeded: axes[i].tag)
            if let setting = variations.last(where: { $0.tagValue == tag }) {
                coordinates[i] = FT_Fixed((setting.value * 65536).rounded())
            }
        }
        try check(FT_Set_Var_Design_Coordinates(face, FT_UInt(coordinates.count), &coordinates))
    }

    deinit {
        if let face { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
    }

    /// Rasterizes one glyph at a pixel size (em size in pixels) and a horizontal subpixel
    /// phase in quarters of a pixel (0...3).
    ///
    /// - Parameter color: for a bitmap color glyph, make the premultiplied RGBA plane an RGBA
    ///   bitmap draws (`GlyphImage.color`) rather than the luminance a gray one draws.
    /// - Returns: the coverage mask; `.empty` when the glyph has no outline or FreeType fails.
    func rasterize(glyph: UInt32, pixelSize: Double, phase: Int, synthesis: FontSynthesis = FontSynthesis(),
                   color: Bool = false) -> GlyphImage {
        guard let face else { return .empty }
        do {
            if isScalable {
                return try rasterizeOutline(face, glyph: glyph, pixelSize: pixelSize, phase: phase, synthesis: synthesis)
            }
            // A bitmap has no outline to embolden: its pixels grow as an outline would.
            let growth = synthesis.emboldened ? Int((pixelSize * FontSynthesis.emboldening).rounded()) : 0
            let image = try rasterizeColorBitmap(face, glyph: glyph, pixelSize: pixelSize, growth: growth, color: color)
            return growth > 0 ? image.emboldened(by: growth) : image
        } catch {
            return .empty
        }
    }

    private func rasterizeOutline(
        _ face: FT_Face, glyph: UInt32, pixelSize: Double, phase: Int, synthesis: FontSynthesis
    ) throws(FreeTypeError) -> GlyphImage {
        try check(FT_Set_Char_Size(face, 0, FT_F26Dot6((pixelSize * 64).rounded()), 72, 72))
        var delta = FT_Vector(x: FT_Pos(phase * 16), y: 0)
        // Synthetic oblique: x += slant × y, as FreeType's FT_GlyphSlot_Oblique and cairo shear.
        var shear = FT_Matrix(xx: 0x10000, xy: FT_Fixed((FontSynthesis.slant * 65536).rounded()), yx: 0, yy: 0x10000)
        if synthesis.slanted {
            FT_Set_Transform(face, &shear, &delta)
        } else {
            FT_Set_Transform(face, nil, &delta)
        }
        try check(FT_Load_Glyph(face, glyph, loadTargetLight | loadNoBitmap))
        let slot = face.pointee.glyph!
        if synthesis.emboldened, slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE {
            // Stems widened by the same amount the shaper widened the advance (`FontSynthesis`).
            let strength = FT_Pos((pixelSize * 64 * FontSynthesis.emboldening).rounded())
            try check(FT_Outline_EmboldenXY(&slot.pointee.outline, strength, strength))
        }
        // Refuse absurd rasters (a 50,000-pixel em) before FreeType allocates them.
        let area = (Double(slot.pointee.metrics.width) / 64 + 2) * (Double(slot.pointee.metrics.height) / 64 + 2)
        guard area <= Double(Self.maximumGlyphPixels) else { return .empty }
        try check(FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL))
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows)
        guard width > 0, height > 0, let buffer = bitmap.buffer,
              bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) else { return .empty }
        var coverage = [UInt8](repeating: 0, count: width * height)
        let pitch = Int(bitmap.pitch)
        coverage.withUnsafeMutableBufferPointer { out in
            for row in 0..<height {
                let source = pitch >= 0 ? buffer + row * pitch : buffer + (height - 1 - row) * -pitch
                (out.baseAddress! + row * width).update(from: source, count: width)
            }
        }
        return GlyphImage(width: width, height: height, left: Int(slot.pointee.bitmap_left),
                          top: Int(slot.pointee.bitmap_top), coverage: coverage, luminance: nil)
    }

    /// Loads a glyph of the bitmap strike and resamples it to `pixelSize`: coverage and
    /// luminance planes, and the premultiplied RGBA `color` plane.
    ///
    /// - Parameter growth: the pixels synthetic bold will add to each side afterwards,
    ///   counted against `maximumGlyphPixels` with the resampled size.
    /// - Returns: `.empty` for a glyph without a BGRA bitmap, or one over the pixel limit.
    private func rasterizeColorBitmap(
        _ face: FT_Face, glyph: UInt32, pixelSize: Double, growth: Int, color: Bool
    ) throws(FreeTypeError) -> GlyphImage {
        guard strikePixelSize > 0 else { return .empty }
        try check(FT_Select_Size(face, strikeIndex))
        try check(FT_Load_Glyph(face, glyph, loadColor))
        let slot = face.pointee.glyph!
        if slot.pointee.format != FT_GLYPH_FORMAT_BITMAP {
            try check(FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL))
        }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows)
        guard width > 0, height > 0, let buffer = bitmap.buffer,
              bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue) else { return .empty }
        let pitch = Int(bitmap.pitch)
        let source = BGRAImage(width: width, height: height, color: color) { x, y in
            let p = buffer + y * pitch + x * 4
            return (p[0], p[1], p[2], p[3])
        }
        let scale = pixelSize / strikePixelSize
        // In floating point first, so that an absurd size cannot overflow `Int` below; then
        // the exact size, grown by synthetic bold.
        guard Double(width * height) * scale * scale <= Double(Self.maximumGlyphPixels) else { return .empty }
        let size = source.scaledSize(by: scale)
        guard (size.width + growth) * (size.height + growth) <= Self.maximumGlyphPixels else { return .empty }
        return source.scaled(
            by: scale, left: Double(slot.pointee.bitmap_left), top: Double(slot.pointee.bitmap_top))
    }
}
