import TextKitLite

extension GrayImage {
    /// The image with its alpha multiplied by the shape's coverage: `.circle` is the inscribed
    /// circle (ellipse for a non-square image) with an anti-aliased edge, `.rectangle`
    /// returns self.
    ///
    /// The coverage of a pixel is the fraction of its 4 × 4 sample points (at the centres of
    /// its sixteenths) inside the ellipse; a pixel whose samples are all inside or all outside
    /// is settled from the ellipse's half-widths at its four sample rows without testing
    /// each sample. The mask is symmetric about both axes, as the samples are. Color and gray
    /// stay as they are (straight, not premultiplied).
    ///
    /// - Parameter shape: the outline.
    /// - Complexity: O(pixels).
    public func masked(to shape: PictureShape) -> GrayImage {
        guard shape == .circle, width > 0, height > 0 else { return self }
        var alpha = self.alpha
        let centreX = Double(width) / 2, centreY = Double(height) / 2
        let samples = (0..<4).map { (Double($0) + 0.5) / 4 }
        for y in 0..<height {
            // The ellipse's half-width at each sample row (-1: the row misses it).
            let halfWidths = samples.map { offset in
                let t = (Double(y) + offset - centreY) / centreY
                return t * t < 1 ? centreX * (1 - t * t).squareRoot() : -1
            }
            let narrowest = halfWidths.min() ?? -1, widest = halfWidths.max() ?? -1
            for x in 0..<width {
                // The samples' offsets from the centre: left, left + 1/4, …, right (exact
                // in binary, so a pixel and its mirror image see the same distances).
                let left = Double(x) + samples[0] - centreX, right = Double(x) + samples[3] - centreX
                let far = max(abs(left), abs(right)), near = left <= 0 && right >= 0 ? 0 : min(abs(left), abs(right))
                var covered = 0
                if far < narrowest {
                    covered = 16
                } else if near < widest {
                    for k in 0..<4 {
                        let distance = abs(left + Double(k) / 4)
                        for half in halfWidths where distance < half { covered += 1 }
                    }
                }
                let index = y * width + x
                alpha[index] = UInt8((Int(alpha[index]) * covered + 8) / 16)
            }
        }
        return GrayImage(width: width, height: height, gray: gray, alpha: alpha, rgb: rgb)
    }
}
