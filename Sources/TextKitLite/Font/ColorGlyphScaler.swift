/// The premultiplied BGRA pixels of a color glyph strike (Noto Color Emoji has one strike
/// at 109 ppem), resampled to the target size: alpha plus luminance for the gray renderer,
/// or alpha plus premultiplied RGBA for the color one (each only what it draws: the glyph
/// cache keeps the two apart).
struct BGRAImage {
    let width: Int
    let height: Int
    /// Whether this image makes the color plane (`rgba`) rather than the luminance (`luma`).
    let color: Bool
    private var alpha: [Float]
    private var luma: [Float]
    /// The pixels as premultiplied RGBA8, bytes R, G, B, A in memory, `width × height × 4`.
    private var rgba: [UInt8]

    /// Copies a strike's pixels.
    ///
    /// - Parameters:
    ///   - color: keep the pixels' colors (for `GlyphImage.color`) rather than their luma.
    ///   - pixel: the premultiplied (blue, green, red, alpha) bytes at (x, y), as
    ///     FreeType's `FT_PIXEL_MODE_BGRA` stores them.
    init(width: Int, height: Int, color: Bool, pixel: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) {
        self.width = width
        self.height = height
        self.color = color
        alpha = [Float](repeating: 0, count: width * height)
        luma = color ? [] : [Float](repeating: 0, count: width * height)
        rgba = color ? [UInt8](repeating: 0, count: width * height * 4) : []
        if color {
            for y in 0..<height {
                for x in 0..<width {
                    let (b, g, r, a) = pixel(x, y), i = (y * width + x) * 4
                    alpha[y * width + x] = Float(a)
                    (rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]) = (r, g, b, a)
                }
            }
        } else {
            for y in 0..<height {
                for x in 0..<width {
                    let (b, g, r, a) = pixel(x, y)
                    alpha[y * width + x] = Float(a)
                    // Rec. 601 luma of premultiplied color stays premultiplied.
                    luma[y * width + x] = 0.299 * Float(r) + 0.587 * Float(g) + 0.114 * Float(b)
                }
            }
        }
    }

    /// The size of the image `scaled(by:left:top:)` makes: each side times `scale`, rounded
    /// up, at least one pixel.
    func scaledSize(by scale: Double) -> (width: Int, height: Int) {
        (max(1, Int((Double(width) * scale).rounded(.up))), max(1, Int((Double(height) * scale).rounded(.up))))
    }

    /// Resamples the image by `scale` and places it relative to the pen with the strike's
    /// bearings.
    ///
    /// The coverage, and the luminance of a gray image, are box-filtered: area averaging when
    /// shrinking, mostly the nearest source pixel when growing. A color image's plane takes the
    /// same area averages when shrinking (its alpha is then the coverage byte for byte), and
    /// is interpolated bilinearly when growing (`bilinearColor(width:height:scale:)`), so an
    /// enlarged emoji is smooth rather than blocky. Premultiplied values are averaged as they
    /// are, which is the correct way to filter them.
    ///
    /// - Complexity: O(output pixels × source pixels under each) when shrinking, O(output
    ///   pixels) when growing.
    func scaled(by scale: Double, left: Double, top: Double) -> GlyphImage {
        guard scale > 0, scale.isFinite else { return .empty }
        let (outWidth, outHeight) = scaledSize(by: scale)
        var coverage = [UInt8](repeating: 0, count: outWidth * outHeight)
        let luminance: [UInt8]?, colorPlane: [UInt8]?
        if !color {
            var sumA = 0.0, sumL = 0.0
            var plane = [UInt8](repeating: 0, count: outWidth * outHeight)
            areaAverages(scale: scale, outWidth: outWidth, outHeight: outHeight) { i, w in
                sumA += w * Double(alpha[i])
                sumL += w * Double(luma[i])
            } finish: { o, area in
                coverage[o] = UInt8(min(255, (sumA / area).rounded()))
                plane[o] = UInt8(min(255, (sumL / area).rounded()))
                (sumA, sumL) = (0, 0)
            }
            (luminance, colorPlane) = (plane, nil)
        } else if scale > 1 {
            var sumA = 0.0
            areaAverages(scale: scale, outWidth: outWidth, outHeight: outHeight) { i, w in
                sumA += w * Double(alpha[i])
            } finish: { o, area in
                coverage[o] = UInt8(min(255, (sumA / area).rounded()))
                sumA = 0
            }
            (luminance, colorPlane) = (nil, bilinearColor(width: outWidth, height: outHeight, scale: scale))
        } else {
            var sumA = 0.0, sumR = 0.0, sumG = 0.0, sumB = 0.0
            var plane = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
            areaAverages(scale: scale, outWidth: outWidth, outHeight: outHeight) { i, w in
                sumA += w * Double(alpha[i])
                sumR += w * Double(rgba[i * 4])
                sumG += w * Double(rgba[i * 4 + 1])
                sumB += w * Double(rgba[i * 4 + 2])
            } finish: { o, area in
                let a = UInt8(min(255, (sumA / area).rounded()))
                coverage[o] = a
                // Rounding each channel alone could lift one just past alpha.
                plane[o * 4] = min(a, UInt8(min(255, (sumR / area).rounded())))
                plane[o * 4 + 1] = min(a, UInt8(min(255, (sumG / area).rounded())))
                plane[o * 4 + 2] = min(a, UInt8(min(255, (sumB / area).rounded())))
                plane[o * 4 + 3] = a
                (sumA, sumR, sumG, sumB) = (0, 0, 0, 0)
            }
            (luminance, colorPlane) = (nil, plane)
        }
        return GlyphImage(width: outWidth, height: outHeight, left: Int((left * scale).rounded()),
                          top: Int((top * scale).rounded()), coverage: coverage, luminance: luminance, color: colorPlane)
    }

    /// The box filter of `scaled(by:left:top:)`: for each output pixel `o` (row by row), every
    /// source pixel `i` under it with the area `w` it covers (`accumulate`), then the total
    /// area (`finish`, skipped when it is 0).
    @inline(__always)
    private func areaAverages(scale: Double, outWidth: Int, outHeight: Int, accumulate: (_ i: Int, _ w: Double) -> Void,
                              finish: (_ o: Int, _ area: Double) -> Void) {
        let inverse = 1 / scale
        for oy in 0..<outHeight {
            let y0 = Double(oy) * inverse, y1 = min(Double(height), Double(oy + 1) * inverse)
            for ox in 0..<outWidth {
                let x0 = Double(ox) * inverse, x1 = min(Double(width), Double(ox + 1) * inverse)
                var area = 0.0
                var sy = Int(y0)
                while Double(sy) < y1, sy < height {
                    let wy = min(Double(sy + 1), y1) - max(Double(sy), y0)
                    var sx = Int(x0)
                    while Double(sx) < x1, sx < width {
                        let w = wy * (min(Double(sx + 1), x1) - max(Double(sx), x0))
                        accumulate(sy * width + sx, w)
                        area += w
                        sx += 1
                    }
                    sy += 1
                }
                if area > 0 { finish(oy * outWidth + ox, area) }
            }
        }
    }

    /// The image enlarged to `width × height` by bilinear interpolation of its premultiplied
    /// RGBA: each output pixel's centre mapped back into the source (pixel centres aligned,
    /// as the area filter aligns them), edges clamped, as cairo's `CAIRO_FILTER_BILINEAR`
    /// with `CAIRO_EXTEND_PAD` samples.
    ///
    /// - Returns: premultiplied RGBA8, `width × height × 4` bytes; every color channel at
    ///   most its alpha.
    /// - Complexity: O(width × height).
    private func bilinearColor(width outWidth: Int, height outHeight: Int, scale: Double) -> [UInt8] {
        /// For each output column (or row): the two source columns around its centre and the
        /// weight of the second.
        func taps(_ count: Int, source: Int) -> [(Int, Int, Double)] {
            (0..<count).map { o in
                let s = min(max((Double(o) + 0.5) / scale - 0.5, 0), Double(source - 1))
                let s0 = Int(s)
                return (s0, min(s0 + 1, source - 1), s - Double(s0))
            }
        }
        let columns = taps(outWidth, source: width), rows = taps(outHeight, source: height)
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
        for (oy, (y0, y1, fy)) in rows.enumerated() {
            for (ox, (x0, x1, fx)) in columns.enumerated() {
                let p00 = (y0 * width + x0) * 4, p10 = (y0 * width + x1) * 4
                let p01 = (y1 * width + x0) * 4, p11 = (y1 * width + x1) * 4
                func sample(_ c: Int) -> UInt8 {
                    let top = Double(rgba[p00 + c]) * (1 - fx) + Double(rgba[p10 + c]) * fx
                    let bottom = Double(rgba[p01 + c]) * (1 - fx) + Double(rgba[p11 + c]) * fx
                    return UInt8(min(255, (top * (1 - fy) + bottom * fy).rounded()))
                }
                let o = (oy * outWidth + ox) * 4, a = sample(3)
                // Interpolation keeps premultiplied channels under alpha; rounding might not.
                (out[o], out[o + 1], out[o + 2], out[o + 3]) = (min(a, sample(0)), min(a, sample(1)), min(a, sample(2)), a)
            }
        }
        return out
    }
}
