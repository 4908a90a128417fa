/// Something drawn inline in text in place of one U+FFFC OBJECT REPLACEMENT CHARACTER: an
/// image (an emoticon) or an empty box the caller draws into, as YYText's attachments,
/// parley's inline boxes and SkParagraph's placeholders.
///
/// An attachment is measured, broken and laid out like an ideograph (line breaks are
/// allowed before and after it, UAX #14 class CB), with its own width and a height that can
/// raise its line.
public struct TextAttachment: Sendable, Hashable, Codable {
    /// How an attachment sits on its line (YYText's `YYTextVerticalAlignment`, plus the
    /// baseline placement of its run delegates).
    public enum Alignment: Sendable, Hashable, Codable {
        /// Bottom `descent` points below the baseline (0: standing on it).
        case baseline(descent: Double)
        /// Centred on the text's font: the middle of its ascent and descent.
        case center
        /// Top at the font's ascent.
        case top
        /// Bottom at the font's descent.
        case bottom
    }

    /// What is drawn.
    public enum Content: Sendable, Hashable, Codable {
        /// An image scaled to the attachment's size, drawn with its alpha over the text's background.
        case image(GrayImage)
        /// Nothing: a box the caller draws into (a tag tells its boxes apart).
        case box(tag: String)
    }

    /// Width and height in points.
    public var size: Size
    public var alignment: Alignment
    public var content: Content

    public init(size: Size, alignment: Alignment = .center, content: Content) {
        self.size = size
        self.alignment = alignment
        self.content = content
    }

    /// The character an attachment stands for.
    public static let character: Character = "\u{FFFC}"
    static let unit: UInt16 = 0xFFFC

    /// Ascent and descent (points, positive) the attachment gives its line, placed on the
    /// metrics of the text's font at that point.
    func lineMetrics(font: FontMetrics) -> (ascent: Double, descent: Double) {
        let height = size.height
        switch alignment {
        case .baseline(let descent): return (height - descent, descent)
        case .top: return (font.ascent, height - font.ascent)
        case .bottom: return (height - font.descent, font.descent)
        case .center:
            let middle = (font.ascent - font.descent) / 2  // above the baseline
            return (height / 2 + middle, height / 2 - middle)
        }
    }

    /// What a layout accepts: a finite size, not negative, at most 100,000 points a side.
    package func validate() throws(LayoutError) {
        guard size.width.isFinite, size.height.isFinite, size.width >= 0, size.height >= 0,
              size.width <= 100_000, size.height <= 100_000 else {
            throw .invalidOption(name: "attachment size", value: "\(size.width)×\(size.height)",
                                 reason: "must be finite, not negative and at most 100000 points a side")
        }
        if case .baseline(let descent) = alignment, !descent.isFinite || descent.magnitude > 100_000 {
            throw .invalidOption(name: "attachment descent", value: "\(descent)", reason: "must be finite, within ±100000 points")
        }
    }
}
