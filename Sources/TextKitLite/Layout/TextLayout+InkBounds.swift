extension TextLayout {
    /// The box of everything the layout inks, in layout coordinates (points): every glyph's
    /// ink box at its position (`Font.inkBox`: outlines and color bitmaps, synthetic bold
    /// and oblique included), the underline and strikethrough strokes, and the attachments'
    /// boxes. It may reach past `bounds`: stacked marks above the first line, an italic
    /// overhang left of x = 0, a descender below the last line. nil when nothing is inked
    /// (no text, only spaces).
    ///
    /// Computed on each call from HarfBuzz's glyph extents (no rasterizing, no lock), so
    /// measuring and laying out pay nothing for it; keep the value if you need it twice.
    /// The renderer does not use it to size bitmaps: it unions the drawn pixels themselves
    /// (`RenderOptions.inkOverflow`), which hinting and pixel snapping may move by up to two
    /// pixels from these unhinted boxes.
    ///
    /// - Complexity: O(glyphs).
    public var inkBounds: Rect? {
        var ink = InkBox()  // in line coordinates
        for line in lines {
            for run in line.runs {
                for glyph in run.glyphs {
                    let position = glyph.position
                    guard let box = run.font.inkBox(glyph: glyph.id, size: run.fontSize) else { continue }
                    let x = Double(position.x), y = line.baseline + Double(position.y)
                    guard run.isUpright else {
                        ink.add(box.offsetBy(dx: x, dy: y))
                        continue
                    }
                    // Upright: the box stands in the layout's coordinates, from the horizontal
                    // origin, which is (-origin.x, +origin.y) from the vertical origin at (x, y);
                    // the layout's right is the line's up.
                    let origin = run.font.verticalOrigin(glyph: glyph.id, size: run.fontSize)
                    ink.add(Rect(x: x + origin.y + box.y, y: y + origin.x - box.maxX, width: box.height, height: box.width))
                }
            }
            for kind in [Decorations.Kind.underline, .strikethrough] {
                for stroke in Decorations.strokes(line, kind) where stroke.width > 0 {
                    ink.add(Rect(x: stroke.x, y: line.baseline + stroke.offset - stroke.thickness / 2,
                                 width: stroke.width, height: stroke.thickness))
                }
            }
            for attachment in line.attachments { ink.add(attachment.rect) }
        }
        return ink.rect.map(layoutRect)
    }
}

/// A growing union of rectangles; non-finite ones are left out.
private struct InkBox {
    var minX = Double.infinity, minY = Double.infinity
    var maxX = -Double.infinity, maxY = -Double.infinity

    mutating func add(_ rect: Rect) {
        guard rect.x.isFinite, rect.y.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else { return }
        minX = min(minX, rect.x)
        minY = min(minY, rect.y)
        maxX = max(maxX, rect.maxX)
        maxY = max(maxY, rect.maxY)
    }

    var rect: Rect? { minX <= maxX ? Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) : nil }
}
