internal import CFreetype

// Every call into FreeType lives in this file.

/// A FreeType error code (`FT_Error`) with FreeType's own message.
struct FreeTypeError: Error, Sendable, Equatable, CustomStringConvertible {
    let code: Int32

    var description: String {
        switch code {
        case 0x01: "cannot open resource"
        case 0x02: "unknown file format"
        case 0x03: "broken file"
        case 0x06: "invalid argument"
        case 0x08: "broken table"
        case 0x10: "invalid glyph index"
        case 0x17: "invalid pixel size"
        case 0x40: "out of memory"
        default: "FreeType error 0x\(String(code, radix: 16))"
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

    deinit {
        if let face { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
    }

    /// Rasterizes one glyph at a pixel size (em size in pixels) and a horizontal subpixel
    /// phase in quarters of a pixel (0...3).
    ///
    /// - Returns: the coverage mask; `.empty` when the glyph has no outline or FreeType fails.
    func rasterize(glyph: UInt32, pixelSize: Double, phase: Int) -> GlyphImage {
        guard let face else { return .empty }
        do {
            if isScalable {
                return try rasterizeOutline(face, glyph: glyph, pixelSize: pixelSize, phase: phase)
            }
            return try rasterizeColorBitmap(face, glyph: glyph, pixelSize: pixelSize)
        } catch {
            return .empty
        }
    }

    private func rasterizeOutline(_ face: FT_Face, glyph: UInt32, pixelSize: Double, phase: Int) throws(FreeTypeError) -> GlyphImage {
        try check(FT_Set_Char_Size(face, 0, FT_F26Dot6((pixelSize * 64).rounded()), 72, 72))
        var delta = FT_Vector(x: FT_Pos(phase * 16), y: 0)
        FT_Set_Transform(face, nil, &delta)
        try check(FT_Load_Glyph(face, glyph, loadTargetLight | loadNoBitmap))
        let slot = face.pointee.glyph!
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

    private func rasterizeColorBitmap(_ face: FT_Face, glyph: UInt32, pixelSize: Double) throws(FreeTypeError) -> GlyphImage {
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
        let source = BGRAImage(width: width, height: height) { x, y in
            let p = buffer + y * pitch + x * 4
            return (p[0], p[1], p[2], p[3])
        }
        let scale = pixelSize / strikePixelSize
        guard Double(width * height) * scale * scale <= Double(Self.maximumGlyphPixels) else { return .empty }
        return source.scaledToGray(
            by: scale, left: Double(slot.pointee.bitmap_left), top: Double(slot.pointee.bitmap_top))
    }
}
