extension Font {
    /// True when the face has a variation axis of this tag ("wght").
    public func hasAxis(_ tag: String) -> Bool { axes.contains { $0.tag == tag } }

    /// The axis values this face draws a run of `style` at, in axis order: the style's own
    /// setting of each axis the face has (the last one of a tag wins), else `wght` 700 for a
    /// bold style (unless the font is that heavy already) and, for an italic one, `ital` 1 or
    /// `slnt` −14 (CSS's oblique angle) when the face is not bold or italic itself, else the
    /// font's own value (a named instance's); each clamped to its axis's range (as CSS
    /// `font-variation-settings` and HarfBuzz clamp) and rounded to FreeType's 16.16 fixed
    /// point, so HarfBuzz shapes at the coordinates FreeType draws. A value at its axis's
    /// default is left out: a style that sets nothing the face has gives `[]`, the face itself.
    func variations(for style: TextStyle) -> [FontVariation] {
        guard !axes.isEmpty else { return [] }
        var result: [FontVariation] = []
        for axis in axes {
            let own = variations.first { $0.tag == axis.tag }?.value
            var value = style.variations.last { $0.tag == axis.tag }?.value
            if value == nil {
                switch axis.tag {
                case "wght" where style.weight == .bold && !isBold && (own ?? axis.defaultValue) < 700: value = 700
                case "ital" where style.isItalic && !isItalic: value = 1
                case "slnt" where style.isItalic && !isItalic && !hasAxis("ital"): value = -14
                default: value = own
                }
            }
            guard let value else { continue }
            let clamped = (min(max(value, axis.minimum), axis.maximum) * 65536).rounded() / 65536
            if clamped != axis.defaultValue, let variation = FontVariation(tag: axis.tag, value: clamped) {
                result.append(variation)
            }
        }
        return result
    }

    /// This face at one of its named instances (the `fvar` table's instances, "Bold" of a
    /// variable Inter): the variant at the instance's axis values.
    ///
    /// - Parameter instance: 1 for the first named instance, as FreeType and fontconfig number
    ///   them in a face index's bits 16 and up.
    /// - Throws: `FontError` with `.namedInstanceOutOfRange` for an instance the face lacks.
    func namedInstance(_ instance: Int) throws(FontError) -> Font {
        let count = harfBuzz.namedInstanceCount
        guard instance >= 1, instance <= count else {
            throw FontError(path: path, reason: .namedInstanceOutOfRange(instance: instance, instanceCount: count))
        }
        var style = TextStyle()
        style.variations = zip(axes, harfBuzz.namedInstanceCoordinates(instance - 1)).compactMap { FontVariation(tag: $0.tag, value: $1) }
        return variant(FontSynthesis(), features: [], variations: variations(for: style))
    }

    /// True when the face draws the style's weight with its `wght` axis rather than with a
    /// bold face or synthetic emboldening.
    func drawsWeightWithAxis(_ style: TextStyle) -> Bool {
        style.weight == .bold && !isBold && hasAxis("wght")
    }

    /// True when the face draws the style's italic with its `ital` or `slnt` axis rather than
    /// with synthetic oblique.
    func drawsItalicWithAxis(_ style: TextStyle) -> Bool {
        style.isItalic && !isItalic && (hasAxis("ital") || hasAxis("slnt"))
    }
}
