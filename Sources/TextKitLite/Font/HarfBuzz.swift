internal import CHarfBuzz

// Every call into HarfBuzz lives in this file.

/// One face of a font file as HarfBuzz sees it, set up for shaping at font-unit scale.
///
/// `@unchecked Sendable`: the face and font are made immutable at the end of `init`
/// (`hb_face_make_immutable`, `hb_font_make_immutable`); HarfBuzz documents immutable
/// faces and fonts as safe to share between threads that shape at once, and the font
/// uses HarfBuzz's own OpenType functions (the default of `hb_font_create`), never
/// FreeType. The bytes are kept alive by `data` until `deinit` destroys the objects. The
/// only mutable state, `inkCache`, is behind a lock.
final class HarfBuzzFont: @unchecked Sendable {
    private let blob: OpaquePointer
    private let face: OpaquePointer
    fileprivate let font: OpaquePointer
    let data: FontData
    let unitsPerEm: Int32
    /// Ink extents found before, by glyph (nil: no ink): HarfBuzz reads them from the
    /// glyph's outline or bitmap on every call (it interprets a CFF glyph's charstring), and
    /// a render asks for every glyph it draws. At most one entry per glyph of the face.
    private let inkCache = Locked<[UInt32: InkExtents?]>([:])

    /// A glyph's ink box in font units, y up.
    struct InkExtents: Sendable {
        var xMin: Int32, yMin: Int32, xMax: Int32, yMax: Int32
    }

    /// The number of faces HarfBuzz finds in the bytes (0 for a non-font).
    static func faceCount(_ data: FontData) -> Int {
        guard let blob = makeBlob(data) else { return 0 }
        defer { hb_blob_destroy(blob) }
        return Int(hb_face_count(blob))
    }

    private static func makeBlob(_ data: FontData) -> OpaquePointer? {
        guard let base = data.bytes.baseAddress else { return nil }
        return hb_blob_create(
            base.assumingMemoryBound(to: CChar.self), UInt32(data.bytes.count),
            HB_MEMORY_MODE_READONLY, nil, nil)
    }

    init?(data: FontData, faceIndex: Int) {
        guard let blob = Self.makeBlob(data) else { return nil }
        let face = hb_face_create(blob, UInt32(faceIndex))!
        let upem = hb_face_get_upem(face)
        // An empty face (index beyond the file, or no font tables) has no glyphs.
        guard hb_face_get_glyph_count(face) > 0, upem > 0 else {
            hb_face_destroy(face)
            hb_blob_destroy(blob)
            return nil
        }
        hb_face_make_immutable(face)
        let font = hb_font_create(face)!
        hb_font_set_scale(font, Int32(upem), Int32(upem))
        hb_font_make_immutable(font)
        self.blob = blob
        self.face = face
        self.font = font
        self.data = data
        self.unitsPerEm = Int32(upem)
    }

    /// An instance of `base`'s face at other variation-axis coordinates (`hb_font_set_variations`):
    /// its own immutable font over the same face and bytes, so glyph advances, ink extents and
    /// metrics (`HVAR`, `gvar`, `MVAR`) are the instance's.
    ///
    /// - Parameter variations: axis tags and design values, inside the axes' ranges.
    init(instanceOf base: HarfBuzzFont, variations: [FontVariation]) {
        blob = hb_blob_reference(base.blob)
        face = hb_face_reference(base.face)
        font = hb_font_create(face)!
        hb_font_set_scale(font, base.unitsPerEm, base.unitsPerEm)
        let settings = variations.map { hb_variation_t(tag: $0.tagValue, value: Float($0.value)) }
        hb_font_set_variations(font, settings, UInt32(settings.count))
        hb_font_make_immutable(font)
        data = base.data
        unitsPerEm = base.unitsPerEm
    }

    /// The face's variation axes from its `fvar` table, in the table's order; empty for a font
    /// that is not variable.
    func axes() -> [Font.Axis] {
        let count = hb_ot_var_get_axis_count(face)
        guard count > 0 else { return [] }
        var length = count
        var infos = [hb_ot_var_axis_info_t](repeating: hb_ot_var_axis_info_t(), count: Int(count))
        hb_ot_var_get_axis_infos(face, 0, &length, &infos)
        return infos.prefix(Int(length)).map { info in
            let tag = String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: info.tag >> (24 - 8 * $0)) }, as: UTF8.self)
            return Font.Axis(tag: tag, minimum: Double(info.min_value), defaultValue: Double(info.default_value),
                            maximum: Double(info.max_value))
        }
    }

    /// The number of named instances in the face's `fvar` table.
    var namedInstanceCount: Int { Int(hb_ot_var_get_named_instance_count(face)) }

    /// A named instance's design coordinates, one per axis in `axes()` order.
    ///
    /// - Parameter index: 0 for the first named instance of the `fvar` table.
    func namedInstanceCoordinates(_ index: Int) -> [Double] {
        var count = hb_ot_var_get_axis_count(face)
        var coordinates = [Float](repeating: 0, count: Int(count))
        hb_ot_var_named_instance_get_design_coords(face, UInt32(index), &count, &coordinates)
        return coordinates.prefix(Int(count)).map(Double.init)
    }

    deinit {
        hb_font_destroy(font)
        hb_face_destroy(face)
        hb_blob_destroy(blob)
    }

    /// The nominal glyph of a code point, or nil when the font does not map it.
    func glyph(for scalar: UInt32) -> UInt32? {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font, scalar, &glyph) != 0 ? glyph : nil
    }

    /// Where a glyph's vertical origin (the top centre of its vertical advance box, from
    /// `VORG` or `vmtx`, else half its advance and the ascender) lies from its horizontal
    /// origin, in font units, y up.
    func verticalOrigin(_ glyph: UInt32) -> (x: Int32, y: Int32) {
        var x: hb_position_t = 0, y: hb_position_t = 0
        hb_font_get_glyph_v_origin(font, glyph, &x, &y)
        return (x, y)
    }

    /// A glyph's ink box in font units, y up: the outline's bounds (or a color bitmap's box,
    /// as HarfBuzz reads it from CBDT), unhinted; nil for a glyph without ink (a space).
    func inkExtents(_ glyph: UInt32) -> InkExtents? {
        if let known = inkCache.withLock({ $0[glyph] }) { return known }
        var extents = hb_glyph_extents_t()
        var ink: InkExtents?
        if hb_font_get_glyph_extents(font, glyph, &extents) != 0, extents.width != 0, extents.height != 0 {
            let (x0, x1) = (extents.x_bearing, extents.x_bearing &+ extents.width)
            let (y0, y1) = (extents.y_bearing &+ extents.height, extents.y_bearing)
            ink = InkExtents(xMin: min(x0, x1), yMin: min(y0, y1), xMax: max(x0, x1), yMax: max(y0, y1))
        }
        inkCache.withLock { $0[glyph] = ink }
        return ink
    }

    /// Ascender, descender (positive, downward) and line gap, in font units.
    func verticalMetrics() -> (ascender: Int32, descender: Int32, lineGap: Int32) {
        var ascender: hb_position_t = 0, descender: hb_position_t = 0, gap: hb_position_t = 0
        if hb_ot_metrics_get_position(font, HB_OT_METRICS_TAG_HORIZONTAL_ASCENDER, &ascender) == 0 {
            var extents = hb_font_extents_t()
            hb_font_get_h_extents(font, &extents)
            ascender = extents.ascender
            descender = extents.descender
            gap = extents.line_gap
        } else {
            hb_ot_metrics_get_position(font, HB_OT_METRICS_TAG_HORIZONTAL_DESCENDER, &descender)
            hb_ot_metrics_get_position(font, HB_OT_METRICS_TAG_HORIZONTAL_LINE_GAP, &gap)
        }
        return (ascender, -descender, max(0, gap))
    }

    /// Underline and strikeout: the centre of each stroke above the baseline and its
    /// thickness, in font units, from the `post` and `OS/2` tables (which give a stroke's
    /// top, as FreeType reads them); em-based defaults where a table has none.
    func decorationMetrics() -> (underline: Int32, underlineThickness: Int32, strikeout: Int32, strikeoutThickness: Int32) {
        func position(_ tag: hb_ot_metrics_tag_t) -> Int32? {
            var value: hb_position_t = 0
            return hb_ot_metrics_get_position(font, tag, &value) != 0 ? value : nil
        }
        let upem = unitsPerEm
        let underlineThickness = position(HB_OT_METRICS_TAG_UNDERLINE_SIZE).flatMap { $0 > 0 ? $0 : nil } ?? max(1, upem / 14)
        let underlineTop = position(HB_OT_METRICS_TAG_UNDERLINE_OFFSET) ?? -upem / 10
        let strikeoutThickness = position(HB_OT_METRICS_TAG_STRIKEOUT_SIZE).flatMap { $0 > 0 ? $0 : nil } ?? underlineThickness
        let strikeoutTop = position(HB_OT_METRICS_TAG_STRIKEOUT_OFFSET).flatMap { $0 > 0 ? $0 : nil }
            ?? (position(HB_OT_METRICS_TAG_X_HEIGHT).map { $0 / 2 } ?? upem / 4) + strikeoutThickness / 2
        return (underlineTop - underlineThickness / 2, underlineThickness, strikeoutTop - strikeoutThickness / 2, strikeoutThickness)
    }

    /// True when the face has COLRv0 color glyphs: a `COLR` table with layers.
    var hasColorLayers: Bool { hb_ot_color_has_layers(face) != 0 }

    /// A glyph's COLRv0 layers in the order they are painted, bottom first: each layer's
    /// glyph and its `CPAL` palette entry (0xFFFF: the text's foreground color); empty when
    /// the glyph has none.
    ///
    /// Safe from any thread: the face is immutable and HarfBuzz loads its tables lazily
    /// with atomic operations.
    func colorLayers(_ glyph: UInt32) -> [(glyph: UInt32, paletteIndex: Int)] {
        let total = hb_ot_color_glyph_get_layers(face, glyph, 0, nil, nil)
        guard total > 0 else { return [] }
        var count = total
        var layers = [hb_ot_color_layer_t](repeating: hb_ot_color_layer_t(), count: Int(total))
        hb_ot_color_glyph_get_layers(face, glyph, 0, &count, &layers)
        return layers.prefix(Int(count)).map { ($0.glyph, Int($0.color_index)) }
    }

    /// The colors of one `CPAL` palette, in entry order; empty when the face has no such
    /// palette.
    ///
    /// `hb_color_t` packs B, G, R, A from the high byte down, with straight alpha (the
    /// `hb_color_get_*` accessors are C macros, out of Swift's reach).
    func paletteColors(_ palette: Int) -> [Color] {
        guard palette >= 0, palette < Int(hb_ot_color_palette_get_count(face)) else { return [] }
        let total = hb_ot_color_palette_get_colors(face, UInt32(palette), 0, nil, nil)
        guard total > 0 else { return [] }
        var count = total
        var colors = [hb_color_t](repeating: 0, count: Int(total))
        hb_ot_color_palette_get_colors(face, UInt32(palette), 0, &count, &colors)
        return colors.prefix(Int(count)).map { c in
            Color(red: UInt8(truncatingIfNeeded: c >> 8), green: UInt8(truncatingIfNeeded: c >> 16),
                  blue: UInt8(truncatingIfNeeded: c >> 24), alpha: UInt8(truncatingIfNeeded: c))
        }
    }

    /// Family and style names from the `name` table.
    func names() -> (family: String, style: String) {
        (name(hb_ot_name_id_t(HB_OT_NAME_ID_TYPOGRAPHIC_FAMILY)) ?? name(hb_ot_name_id_t(HB_OT_NAME_ID_FONT_FAMILY)) ?? "",
         name(hb_ot_name_id_t(HB_OT_NAME_ID_TYPOGRAPHIC_SUBFAMILY)) ?? name(hb_ot_name_id_t(HB_OT_NAME_ID_FONT_SUBFAMILY)) ?? "")
    }

    private func name(_ id: hb_ot_name_id_t) -> String? {
        var length: UInt32 = 128
        var buffer = [UInt8](repeating: 0, count: Int(length))
        let total = hb_ot_name_get_utf8(face, id, hb_language_from_string("en", -1), &length, &buffer)
        guard total > 0 else { return nil }
        return String(decoding: buffer[0..<Int(length)], as: UTF8.self)
    }
}

/// Unicode script, as HarfBuzz numbers it (ISO 15924 tags).
struct Script: Hashable, Sendable {
    let rawValue: UInt32

    static let common = Script(rawValue: HB_SCRIPT_COMMON.rawValue)
    static let inherited = Script(rawValue: HB_SCRIPT_INHERITED.rawValue)
    static let unknown = Script(rawValue: HB_SCRIPT_UNKNOWN.rawValue)
    static let han = Script(rawValue: HB_SCRIPT_HAN.rawValue)
    static let latin = Script(rawValue: HB_SCRIPT_LATIN.rawValue)

    /// The Script property of a code point (UAX #24). ASCII and the CJK Unified
    /// Ideographs block (most of a feed's characters) are answered without a call into
    /// HarfBuzz; `scriptFastPathAgreesWithHarfBuzz` checks every one of them.
    @inline(__always)
    init(of scalar: UInt32) {
        switch scalar {
        case 0x41...0x5A, 0x61...0x7A: self = .latin
        case 0x00...0x7F: self = .common
        case 0x4E00...0x9FFF: self = .han
        default: self = Self.harfBuzzScript(of: scalar)
        }
    }

    /// HarfBuzz's Script property of a code point.
    static func harfBuzzScript(of scalar: UInt32) -> Script {
        Script(rawValue: hb_unicode_script(hb_unicode_funcs_get_default(), scalar).rawValue)
    }

    init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Scripts whose letters join within a word (UAX #9's joining types apply): letter
    /// spacing goes after such a word, never between its letters.
    var isCursive: Bool {
        switch hb_script_t(rawValue: rawValue) {
        case HB_SCRIPT_ARABIC, HB_SCRIPT_SYRIAC, HB_SCRIPT_MONGOLIAN, HB_SCRIPT_NKO, HB_SCRIPT_MANDAIC,
             HB_SCRIPT_MANICHAEAN, HB_SCRIPT_PSALTER_PAHLAVI, HB_SCRIPT_ADLAM, HB_SCRIPT_HANIFI_ROHINGYA,
             HB_SCRIPT_SOGDIAN, HB_SCRIPT_PHAGS_PA, HB_SCRIPT_OLD_UYGHUR: true
        default: false
        }
    }

    /// Common, Inherited and Unknown take the script of their neighbours.
    @inline(__always)
    var isNeutral: Bool { self == .common || self == .inherited || self == .unknown }
}

/// A reusable HarfBuzz buffer. One per thread of work: `hb_buffer_t` is not thread-safe.
/// The buffer is made on the first miss of the word cache, so text whose words are all
/// cached never touches HarfBuzz.
final class HarfBuzzShaper {
    private var storage: OpaquePointer?

    init() {}
    deinit { if let storage { hb_buffer_destroy(storage) } }

    private var buffer: OpaquePointer {
        if let storage { return storage }
        let created = hb_buffer_create()!  // never NULL: the inert empty buffer when out of memory
        storage = created
        return created
    }

    /// Shapes `text` (one word of one run) with HarfBuzz's OpenType shaper.
    ///
    /// - Returns: glyphs in HarfBuzz's output order (visual: reversed for right-to-left),
    ///   with advances and offsets in font units and clusters as UTF-16 offsets into
    ///   `text`; nil when HarfBuzz could not allocate.
    ///
    /// `upright` shapes top to bottom (`HB_DIRECTION_TTB`: the font's vertical forms and
    /// metrics) and gives each glyph in line coordinates, as a vertical line is made before it
    /// is turned (`LayoutOptions.WritingMode.vertical`): the advance is the vertical advance,
    /// and the offsets are those of the glyph's vertical origin (the top centre of its
    /// vertical advance box) from the pen: x down the column, y (up positive, as HarfBuzz's)
    /// towards the right of the column. A glyph HarfBuzz does not move has offsets 0. An
    /// upright right-to-left word's glyphs come in visual order (the last cluster first), as
    /// every right-to-left word's do.
    func shape(
        _ font: Font, text: UnsafeBufferPointer<UInt16>,
        rightToLeft: Bool, upright: Bool = false, script: Script, language: String?
    ) -> ShapedGlyphs? {
        let buffer = self.buffer
        hb_buffer_clear_contents(buffer)
        hb_buffer_add_utf16(buffer, text.baseAddress, Int32(text.count), 0, Int32(text.count))
        hb_buffer_set_direction(buffer, upright ? HB_DIRECTION_TTB : rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, hb_script_t(rawValue: script.rawValue))
        if let language {
            hb_buffer_set_language(buffer, hb_language_from_string(language, -1))
        }
        hb_buffer_set_cluster_level(buffer, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_GRAPHEMES)
        if font.features.isEmpty {
            hb_shape(font.harfBuzz.font, buffer, nil, 0)
        } else {
            let features = font.features.map { feature in
                let tag = feature.tag.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                return hb_feature_t(tag: tag, value: feature.value, start: 0, end: UInt32.max)
            }
            hb_shape(font.harfBuzz.font, buffer, features, UInt32(features.count))
        }
        guard hb_buffer_allocation_successful(buffer) != 0 else { return nil }
        // Top to bottom is logical order; a right-to-left word (upright neutrals at an odd
        // bidi level, UAX #9) is in visual order, as HB_DIRECTION_RTL gives it: reversed.
        if upright, rightToLeft { hb_buffer_reverse(buffer) }
        // Synthetic bold widens every advancing glyph (not zero-width marks) as its outlines grow.
        let widening = font.synthesis.emboldened ? Int32((Double(font.unitsPerEm) * FontSynthesis.emboldening).rounded()) : 0
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return ShapedGlyphs() }
        let n = Int(count)
        var glyphs = [UInt32](filled: 0, count: n)
        var advances = [Int32](filled: 0, count: n)
        var xOffsets = [Int32](filled: 0, count: n)
        var yOffsets = [Int32](filled: 0, count: n)
        var clusters = [Int32](filled: 0, count: n)
        for i in 0..<n {
            glyphs[i] = infos[i].codepoint
            clusters[i] = Int32(infos[i].cluster)
            if upright {
                // HarfBuzz gives the horizontal origin's offsets (y up), the pen moving down.
                let (originX, originY) = font.harfBuzz.verticalOrigin(infos[i].codepoint)
                advances[i] = positions[i].y_advance == 0 ? 0 : -positions[i].y_advance &+ widening
                xOffsets[i] = -(positions[i].y_offset &+ originY)
                yOffsets[i] = positions[i].x_offset &+ originX
            } else {
                advances[i] = positions[i].x_advance == 0 ? 0 : positions[i].x_advance &+ widening
                xOffsets[i] = positions[i].x_offset
                yOffsets[i] = positions[i].y_offset
            }
        }
        return ShapedGlyphs(glyphs: glyphs, advances: advances, xOffsets: xOffsets, yOffsets: yOffsets, clusters: clusters)
    }
}

/// HarfBuzz's output for one word: parallel arrays in output order, font units.
struct ShapedGlyphs {
    var glyphs: [UInt32] = []
    var advances: [Int32] = []
    var xOffsets: [Int32] = []
    var yOffsets: [Int32] = []
    /// UTF-16 offsets from the word's start.
    var clusters: [Int32] = []
}
