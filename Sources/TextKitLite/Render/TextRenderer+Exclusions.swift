extension TextRenderer {
    /// The debug overlay of a layout's exclusion shapes: each one filled in light gray, pixel
    /// row by pixel row, over its extent in that row (`ExclusionShape.extent`, what the line
    /// breaker keeps lines out of), under the line boxes and the text.
    func drawExclusions(of layout: TextLayout, into bitmap: inout Bitmap, x: Double, y: Double,
                        shiftX: Int, shiftY: Int, scale: Double) {
        for shape in layout.options.exclusions {
            let span = shape.verticalExtent
            // Rows of the bitmap only: a shape far outside it costs nothing.
            let first = max(RenderOptions.wholePixel((y + span.top) * scale), -shiftY)
            let last = min(RenderOptions.wholePixel((y + span.bottom) * scale), bitmap.height - shiftY)
            guard first < last else { continue }
            for row in first..<last {
                let top = Double(row) / scale - y
                guard let extent = shape.extent(top: top, bottom: top + 1 / scale) else { continue }
                let left = RenderOptions.wholePixel((x + extent.left) * scale), right = RenderOptions.wholePixel((x + extent.right) * scale)
                bitmap.fill(x: left + shiftX, y: row + shiftY, width: max(1, right - left), height: 1, level: 228)
            }
        }
    }
}
