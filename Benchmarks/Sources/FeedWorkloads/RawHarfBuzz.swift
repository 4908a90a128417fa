internal import CHarfBuzzBench
import TextKitLite
import TextKitLiteFeed

/// The shaping floor: HarfBuzz called directly on the feed's texts, with none of the
/// library's work (no itemization, bidi, line breaking, word cache or layout).
///
/// One `hb_face_t`/`hb_font_t` per bundled font file (immutable, font-unit scale, as the
/// library sets them up). Each post gets one `hb_buffer_t`; each of its texts (author, body,
/// quote: what `FeedPrecomputer` shapes) is shaped whole, as one run, after
/// `hb_buffer_guess_segment_properties`, with the font that maps the most of the text's
/// scalars (the first such font of the chain on a tie). That choice and the UTF-16
/// conversion are made once, outside the measurement (`plan`), so the floor is HarfBuzz
/// alone. Shaping a mixed text with one font draws its other scripts as .notdef glyphs;
/// that is cheaper, not dearer, so the floor is not flattered.
///
/// Owns C objects: one instance per thread, not `Sendable`.
public final class RawHarfBuzz {
    private let blobs: [OpaquePointer]
    private let faces: [OpaquePointer]
    private let fonts: [OpaquePointer]

    /// One text to shape: its UTF-16 code units and the index of its font.
    public struct Text: Sendable {
        public var units: [UInt16]
        public var font: Int
    }

    /// The texts of one post.
    public typealias Plan = [Text]

    /// - Parameter paths: the font files, in fallback order.
    public init(paths: [String] = Feed.fontPaths) {
        var blobs: [OpaquePointer] = [], faces: [OpaquePointer] = [], fonts: [OpaquePointer] = []
        for path in paths {
            let blob = hb_blob_create_from_file(path)!
            precondition(hb_blob_get_length(blob) > 0, "cannot read \(path)")
            let face = hb_face_create(blob, 0)!
            hb_face_make_immutable(face)
            let font = hb_font_create(face)!
            let upem = Int32(hb_face_get_upem(face))
            hb_font_set_scale(font, upem, upem)
            hb_font_make_immutable(font)
            blobs.append(blob)
            faces.append(face)
            fonts.append(font)
        }
        self.blobs = blobs
        self.faces = faces
        self.fonts = fonts
    }

    deinit {
        for font in fonts { hb_font_destroy(font) }
        for face in faces { hb_face_destroy(face) }
        for blob in blobs { hb_blob_destroy(blob) }
    }

    /// The texts of a post and their fonts (not measured).
    public func plan(_ post: FeedPost) -> Plan {
        ([post.author, post.text] + (post.quote.map { [$0] } ?? []))
            .filter { !$0.isEmpty }
            .map { Text(units: Array($0.utf16), font: bestFont(for: $0)) }
    }

    /// The font that maps the most scalars of `string`.
    func bestFont(for string: String) -> Int {
        var best = 0, bestCount = -1
        for (index, font) in fonts.enumerated() {
            var count = 0
            var glyph: hb_codepoint_t = 0
            for scalar in string.unicodeScalars where hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0 {
                count += 1
            }
            if count > bestCount { (best, bestCount) = (index, count) }
        }
        return best
    }

    /// Shapes the texts of one post with a new buffer.
    ///
    /// - Returns: a checksum (glyph count plus the sum of advances, in font units).
    public func shape(_ plan: Plan) -> Int {
        let buffer = hb_buffer_create()!
        defer { hb_buffer_destroy(buffer) }
        var checksum = 0
        for text in plan {
            hb_buffer_clear_contents(buffer)
            text.units.withUnsafeBufferPointer { units in
                hb_buffer_add_utf16(buffer, units.baseAddress, Int32(units.count), 0, Int32(units.count))
            }
            hb_buffer_guess_segment_properties(buffer)
            hb_shape(fonts[text.font], buffer, nil, 0)
            precondition(hb_buffer_allocation_successful(buffer) != 0, "HarfBuzz could not allocate")
            var count: UInt32 = 0
            guard let positions = hb_buffer_get_glyph_positions(buffer, &count) else { continue }
            checksum &+= Int(count)
            for i in 0..<Int(count) { checksum &+= Int(positions[i].x_advance) }
        }
        return checksum
    }

    /// rawHarfBuzz: shapes every post's plan.
    public func shapeAll(_ plans: [Plan]) -> Int {
        var checksum = 0
        for plan in plans { checksum &+= shape(plan) }
        return checksum
    }

    /// Which font each text was given, counted per font file (for the report).
    public func fontUsage(_ plans: [Plan]) -> [Int] {
        var usage = [Int](repeating: 0, count: fonts.count)
        for plan in plans { for text in plan { usage[text.font] += 1 } }
        return usage
    }
}
