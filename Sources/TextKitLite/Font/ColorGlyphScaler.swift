/// The premultiplied BGRA pixels of a color glyph strike (Noto Color Emoji has one strike
/// at 109 ppem), resampled to the target size and reduced to alpha plus luminance.
struct BGRAImage {
    let width: Int
    let height: Int
    private var alpha: [Float]
    private var luma: [Float]

    init(width: Int, height: Int, pixel: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) {
        self.width = width
        self.height = height
        alpha = [Float](repeating: 0, count: width * height)
        luma = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let (b, g, r, a) = pixel(x, y)
                alpha[y * width + x] = Float(a)
                // Rec. 601 luma of premultiplied color stays premultiplied.
                luma[y * width + x] = 0.299 * Float(r) + 0.587 * Float(g) + 0.114 * Float(b)
            }
        }
    }

    /// Box-filters the image by `scale` (area averaging when shrinking, nearest source
    /// pixel when growing) and places it relative to the pen with the strike's bearings.
    func scaledToGray(by scale: Double, left: Double, top: Double) -> GlyphImage {
        guard scale > 0, scale.isFinite else { return .empty }
        let outWidth = max(1, Int((Double(width) * scale).rounded(.up)))
        let outHeight = max(1, Int((Double(height) * scale).rounded(.up)))
        var coverage = [UInt8](repeating: 0, count: outWidth * outHeight)
        var luminance = [UInt8](repeating: 0, count: outWidth * outHeight)
        let inverse = 1 / scale
        for oy in 0..<outHeight {
            let y0 = Double(oy) * inverse, y1 = min(Double(height), Double(oy + 1) * inverse)
            for ox in 0..<outWidth {
                let x0 = Double(ox) * inverse, x1 = min(Double(width), Double(ox + 1) * inverse)
                var sumA: Double = 0, sumL: Double = 0, area: Double = 0
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
                        sx += 1
                    }
                    sy += 1
                }
                guard area > 0 else { continue }
                coverage[oy * outWidth + ox] = UInt8(min(255, (sumA / area).rounded()))
                luminance[oy * outWidth + ox] = UInt8(min(255, (sumL / area).rounded()))
            }
        }
        return GlyphImage(width: outWidth, height: outHeight, left: Int((left * scale).rounded()),
                          top: Int((top * scale).rounded()), coverage: coverage, luminance: luminance)
    }
}
