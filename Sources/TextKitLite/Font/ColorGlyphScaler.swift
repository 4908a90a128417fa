/// The premultiplied BGRA pixels of a color glyph strike (Noto Color Emoji has one strike
/// at 109 ppem), resampled to the target size: alpha plus luminance for the gray renderer,
/// and premultiplied RGBA for the color one.
struct BGRAImage {
    let width: Int
    let height: Int
    private var alpha: [Float]
    private var luma: [Float]
    /// The pixels as premultiplied RGBA8, bytes R, G, B, A in memory, `width × height × 4`.
    private var rgba: [UInt8]

    /// Copies a strike's pixels.
    ///
    /// - Parameter pixel: the premultiplied (blue, green, red, alpha) bytes at (x, y), as
    ///   FreeType's `FT_PIXEL_MODE_BGRA` stores them.
    init(width: Int, height: Int, pixel: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) {
        self.width = width
        self.height = height
        alpha = [Float](repeating: 0, count: width * height)
        luma = [Float](repeating: 0, count: width * height)
        rgba = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let (b, g, r, a) = pixel(x, y)
                alpha[y * width + x] = Float(a)
                // Rec. 601 luma of premultiplied color stays premultiplied.
                luma[y * width + x] = 0.299 * Float(r) + 0.587 * Float(g) + 0.114 * Float(b)
                let i = (y * width + x) * 4
                (rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]) = (r, g, b, a)
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
    /// The gray planes (`coverage`, `luminance`) are box-filtered: area averaging when
    /// shrinking, mostly the nearest source pixel when growing. The `color` plane takes the
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
        var luminance = [UInt8](repeating: 0, count: outWidth * outHeight)
        let growing = scale > 1
        var color = growing
            ? bilinearColor(width: outWidth, height: outHeight, scale: scale)
            : [UInt8](repeating: 0, count: outWidth * outHeight * 4)
        let inverse = 1 / scale
        for oy in 0..<outHeight {
            let y0 = Double(oy) * inverse, y1 = min(Double(height), Double(oy + 1) * inverse)
            for ox in 0..<outWidth {
                let x0 = Double(ox) * inverse, x1 = min(Double(width), Double(ox + 1) * inverse)
                var sumA: Double = 0, sumL: Double = 0, area: Double = 0
                var sumR: Double = 0, sumG: Double = 0, sumB: Double = 0
                var sy = Int(y0)
                while Double(sy) < y1, sy < height {
                    let wy = min(Double(sy + 1), y1) - max(Double(sy), y0)
                    var sx = Int(x0)
                    while Double(sx) < x1, sx < width {
                        let w = wy * (min(Double(sx + 1), x1) - max(Double(sx), x0))
                        let i = sy * width + sx
                        sumA += w * Double(alpha[i])
                        sumL += w * Double(luma[i])
                        area += w
                        if !growing {
                            sumR += w * Double(rgba[i * 4])
                            sumG += w * Double(rgba[i * 4 + 1])
                            sumB += w * Double(rgba[i * 4 + 2])
                        }
                        sx += 1
                    }
                    sy += 1
                }
                guard area > 0 else { continue }
                coverage[oy * outWidth + ox] = UInt8(min(255, (sumA / area).rounded()))
                luminance[oy * outWidth + ox] = UInt8(min(255, (sumL / area).rounded()))
                if !growing {
                    let o = (oy * outWidth + ox) * 4, a = coverage[oy * outWidth + ox]
                    // Rounding each channel alone could lift one just past alpha.
                    color[o] = min(a, UInt8(min(255, (sumR / area).rounded())))
                    color[o + 1] = min(a, UInt8(min(255, (sumG / area).rounded())))
                    color[o + 2] = min(a, UInt8(min(255, (sumB / area).rounded())))
                    color[o + 3] = a
                }
            }
        }
        return GlyphImage(width: outWidth, height: outHeight, left: Int((left * scale).rounded()),
                          top: Int((top * scale).rounded()), coverage: coverage, luminance: luminance,
                          color: color)
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
