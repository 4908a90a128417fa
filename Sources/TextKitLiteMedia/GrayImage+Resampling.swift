import TextKitLite

extension GrayImage {
    /// Area-averaging (box filter with exact fractional pixel coverage) resampling in
    /// premultiplied space, to exactly width × height (downscaling; upscaling may be bilinear).
    ///
    /// Each output pixel is the average of the source area it covers, every source pixel
    /// weighted by the fraction of it inside that area (the filter is separable: one pass
    /// over the columns, one over the rows). Along an axis that is enlarged, the output is
    /// bilinear between source pixel centres. Color (or gray) is premultiplied by alpha
    /// before filtering and divided by the filtered alpha after, so transparent pixels lend
    /// no color to their neighbours. A color image stays color (its `gray` the Rec. 601 luma
    /// of the result's `rgb`); a gray image stays gray.
    ///
    /// - Parameters:
    ///   - width: the output width in pixels (below 1: an empty image).
    ///   - height: the output height in pixels (below 1: an empty image).
    /// - Returns: the resampled image; from an empty image, a transparent one.
    /// - Precondition: `width × height` pixels fit in memory (the caller's box, not input).
    /// - Complexity: O(width × source height + width × height) times the filter's span.
    public func scaled(width: Int, height: Int) -> GrayImage {
        resampled(x: 0, y: 0, width: Double(self.width), height: Double(self.height), toWidth: width, toHeight: height)
    }

    /// Aspect-fill: scaled so it covers width × height, centred, the overflow cropped — done
    /// as one resample of the centre crop (not scale-then-crop of the whole image).
    ///
    /// The crop is the largest centred rectangle of the box's aspect ratio, in fractional
    /// source pixels; it is resampled as `scaled(width:height:)` does (area averaging, exact
    /// coverage at its fractional edges).
    ///
    /// - Parameters:
    ///   - width: the box's width in pixels (below 1: an empty image).
    ///   - height: the box's height in pixels (below 1: an empty image).
    /// - Precondition: `width × height` pixels fit in memory.
    /// - Complexity: as `scaled(width:height:)`, over the crop only.
    public func aspectFilled(width: Int, height: Int) -> GrayImage {
        guard width > 0, height > 0, self.width > 0, self.height > 0 else { return scaled(width: width, height: height) }
        let scale = max(Double(width) / Double(self.width), Double(height) / Double(self.height))
        let cropWidth = min(Double(self.width), Double(width) / scale)
        let cropHeight = min(Double(self.height), Double(height) / scale)
        return resampled(x: (Double(self.width) - cropWidth) / 2, y: (Double(self.height) - cropHeight) / 2,
                         width: cropWidth, height: cropHeight, toWidth: width, toHeight: height)
    }

    /// The source rectangle (x, y, width, height in fractional pixels, inside the image)
    /// resampled to `toWidth × toHeight`: the one resampler behind scaling and aspect-fill.
    func resampled(x: Double, y: Double, width: Double, height: Double, toWidth: Int, toHeight: Int) -> GrayImage {
        let outWidth = max(0, toWidth), outHeight = max(0, toHeight), count = outWidth * outHeight
        guard count > 0, self.width > 0, self.height > 0 else {
            let zeros = [UInt8](repeating: 0, count: count)
            return GrayImage(width: outWidth, height: outHeight, gray: zeros, alpha: zeros,
                             rgb: isColor ? [UInt8](repeating: 0, count: 3 * count) : nil)
        }
        let columns = ResamplingAxis(origin: x, length: width, sourceCount: self.width, count: outWidth)
        let rows = ResamplingAxis(origin: y, length: height, sourceCount: self.height, count: outHeight)
        let filtered = filterColumns(columns, rows: rows.sources)
        return filterRows(rows, of: filtered, width: outWidth)
    }

    /// The first pass: each source row in `rows`, premultiplied (R, G, B, A; a gray image
    /// puts its gray in R), filtered along x to `columns.count` pixels.
    private func filterColumns(_ columns: ResamplingAxis, rows: Range<Int>) -> [SIMD4<Float>] {
        let outWidth = columns.count, used = columns.sources
        var line = [SIMD4<Float>](repeating: .zero, count: used.count)
        var result = [SIMD4<Float>](repeating: .zero, count: outWidth * rows.count)
        let rgb = self.rgb ?? []
        gray.withUnsafeBufferPointer { gray in
            alpha.withUnsafeBufferPointer { alpha in
                rgb.withUnsafeBufferPointer { rgb in
                    line.withUnsafeMutableBufferPointer { line in
                        result.withUnsafeMutableBufferPointer { result in
                            for (row, y) in rows.enumerated() {
                                for x in used {
                                    let index = y * width + x
                                    let a = Float(alpha[index])
                                    let color = rgb.isEmpty
                                        ? SIMD4<Float>(Float(gray[index]), 0, 0, 255)
                                        : SIMD4<Float>(Float(rgb[3 * index]), Float(rgb[3 * index + 1]), Float(rgb[3 * index + 2]), 255)
                                    line[x - used.lowerBound] = color * (a / 255)
                                }
                                columns.apply(line, offset: used.lowerBound, into: UnsafeMutableBufferPointer(rebasing: result[(row * outWidth)...]))
                            }
                        }
                    }
                }
            }
        }
        return result
    }

    /// The second pass: the rows of `filtered` (one per source row of `rows.sources`,
    /// `width` pixels each) filtered along y, unpremultiplied into an image.
    private func filterRows(_ rows: ResamplingAxis, of filtered: [SIMD4<Float>], width: Int) -> GrayImage {
        let height = rows.count, count = width * height
        var gray = [UInt8](repeating: 0, count: count), alpha = gray
        var rgb = [UInt8](repeating: 0, count: isColor ? 3 * count : 0)
        var sum = [SIMD4<Float>](repeating: .zero, count: width)
        filtered.withUnsafeBufferPointer { filtered in
            sum.withUnsafeMutableBufferPointer { sum in
                for y in 0..<height {
                    sum.update(repeating: .zero)
                    for (k, weight) in rows.weights(of: y).enumerated() {
                        let start = (rows.first[y] + k - rows.sources.lowerBound) * width
                        for x in 0..<width { sum[x] += weight * filtered[start + x] }
                    }
                    for x in 0..<width {
                        let pixel = sum[x], index = y * width + x
                        alpha[index] = byte(pixel.w)
                        let straight = pixel.w > 0 ? pixel * (255 / pixel.w) : .zero
                        if rgb.isEmpty {
                            gray[index] = byte(straight.x)
                        } else {
                            let r = byte(straight.x), g = byte(straight.y), b = byte(straight.z)
                            rgb[3 * index] = r
                            rgb[3 * index + 1] = g
                            rgb[3 * index + 2] = b
                            gray[index] = luma(r, g, b)
                        }
                    }
                }
            }
        }
        return GrayImage(width: width, height: height, gray: gray, alpha: alpha, rgb: isColor ? rgb : nil)
    }
}

/// A filtered value (0 to 255, give or take rounding) as a byte, rounded to the nearest.
private func byte(_ value: Float) -> UInt8 { UInt8(min(255, max(0, value + 0.5))) }

/// Rec. 601 luma of 8-bit R, G, B, rounded, exactly as CPNG.c computes a color PNG's gray.
func luma(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
    let red: UInt32 = 19595 * UInt32(r), green: UInt32 = 38470 * UInt32(g), blue: UInt32 = 7471 * UInt32(b)
    return UInt8((red + green + blue + 32768) >> 16)
}

/// The weights of one axis of a resampling, computed once per axis (not per pixel): for
/// each output index, the first source index it reads and the weight of each source index
/// from there (summing to 1).
struct ResamplingAxis {
    /// Output pixels along the axis.
    let count: Int
    /// The first source index of each output index.
    private(set) var first: [Int] = []
    /// Where each output index's weights start in `allWeights` (`count + 1` entries).
    private var offsets: [Int] = [0]
    private var allWeights: [Float] = []
    /// Every source index some output index reads.
    private(set) var sources: Range<Int> = 0..<0

    /// - Parameters:
    ///   - origin: where the source span starts, in source pixels (fractional).
    ///   - length: the source span's length in source pixels (fractional, above 0).
    ///   - sourceCount: the source's pixels along the axis (at least 1).
    ///   - count: output pixels along the axis (at least 1).
    init(origin: Double, length: Double, sourceCount: Int, count: Int) {
        self.count = count
        let step = length / Double(count)
        first.reserveCapacity(count)
        offsets.reserveCapacity(count + 1)
        for i in 0..<count {
            if step >= 1 {
                // Box: the source pixels [j, j + 1) meeting [a, b), weighted by the overlap.
                let a = origin + Double(i) * step, b = a + step
                let low = min(max(0, Int(a.rounded(.down))), sourceCount - 1)
                let high = max(low + 1, min(sourceCount, Int(b.rounded(.up))))
                let overlaps = (low..<high).map { max(0, min(b, Double($0 + 1)) - max(a, Double($0))) }
                let total = overlaps.reduce(0, +)
                append(first: low, overlaps.map { Float(total > 0 ? $0 / total : 1 / Double(overlaps.count)) })
            } else {
                // Bilinear between the two source pixel centres around the output centre.
                let centre = min(max(origin + (Double(i) + 0.5) * step - 0.5, 0), Double(sourceCount - 1))
                let low = Int(centre.rounded(.down)), fraction = Float(centre - Double(low))
                append(first: low, low + 1 < sourceCount && fraction > 0 ? [1 - fraction, fraction] : [1])
            }
        }
    }

    private mutating func append(first index: Int, _ weights: [Float]) {
        first.append(index)
        allWeights.append(contentsOf: weights)
        offsets.append(allWeights.count)
        let end = index + weights.count
        sources = sources.isEmpty ? index..<end : min(sources.lowerBound, index)..<max(sources.upperBound, end)
    }

    /// The weights of output index `i`, for source indices `first[i]`, `first[i] + 1`, ….
    func weights(of i: Int) -> ArraySlice<Float> { allWeights[offsets[i]..<offsets[i + 1]] }

    /// Filters one line: output `i` of `output` is the weighted sum of `line` (source index
    /// `j` at `j - offset`).
    func apply(_ line: UnsafeMutableBufferPointer<SIMD4<Float>>, offset: Int, into output: UnsafeMutableBufferPointer<SIMD4<Float>>) {
        allWeights.withUnsafeBufferPointer { weights in
            for i in 0..<count {
                var sum = SIMD4<Float>.zero
                var source = first[i] - offset
                for t in offsets[i]..<offsets[i + 1] {
                    sum += weights[t] * line[source]
                    source += 1
                }
                output[i] = sum
            }
        }
    }
}
