/// Horizontal alignment of lines.
public enum TextAlignment: String, Sendable, Hashable, Codable, CaseIterable {
    /// Left for left-to-right paragraphs, right for right-to-left ones.
    case natural
    case left
    case center
    case right
    /// Lines stretched to the full width (at spaces, or between clusters for text with no
    /// spaces such as Chinese), except a paragraph's last line, which is natural.
    case justify
}

/// Where text is cut when it does not fit in `maxLines`.
public enum TruncationMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// At the end of the last visible line.
    case end
    /// At the start: the text's last `maxLines` lines are shown, the token starting the
    /// first of them (its start cut to make room). A single line (`maxLines == 1`) holds the
    /// first paragraph: the token, then as much of the paragraph's end as fits.
    case start
    /// In the middle of the last visible line: the lines before it are shown as they break,
    /// and it holds its own start, the token, and the end of its paragraph (the paragraphs
    /// after it are left out). A single line (`maxLines == 1`) shows the first paragraph's
    /// start and end.
    case middle
}

/// How tall each line box is.
public enum LineHeightMode: Sendable, Hashable, Codable {
    /// Each line as tall as the tallest font it holds (ascent + descent + line gap),
    /// times `lineHeightMultiple`.
    case natural
    /// Every line as tall as the primary font at the text's base size, times
    /// `lineHeightMultiple`, whatever script or fallback font it holds: mixed
    /// Chinese/Latin/emoji posts get even lines (the Weibo demo's line position modifier).
    case uniform
    /// Every line exactly this many points tall.
    case fixed(Double)
}

/// Everything that shapes a layout besides the text.
public struct LayoutOptions: Sendable, Hashable, Codable {
    /// The length of a line, including `insets`, in points; `.infinity` for no wrapping: the
    /// layout box's width, or its height when `writingMode` is vertical (lines are columns).
    public var width: Double
    /// Most lines shown; 0 for no limit.
    public var maxLines: Int
    /// Where the text is cut when it needs more than `maxLines`.
    public var truncation: TruncationMode
    /// Shown where text is cut. Nil: "…" in the style of the text at the cut.
    public var truncationToken: AttributedText?
    public var alignment: TextAlignment
    /// Line box height factor (1 = the font's own line height).
    public var lineHeightMultiple: Double
    /// Extra points between lines.
    public var lineSpacing: Double
    public var lineHeightMode: LineHeightMode
    /// Space around the text inside the box.
    public var insets: EdgeInsets
    public var direction: ParagraphDirection
    /// Lines of even length, as CSS `text-wrap: balance`: the text keeps the number of lines
    /// greedy breaking gives at the width, broken at the narrowest width that keeps it
    /// (`TextEngine.narrowestWidth(of:lines:options:)`); the lines are still aligned in the
    /// full width, and `TextLayout.measuredWidth` is the balanced one. One width for every
    /// paragraph. A truncated text (more lines than `maxLines`) is not balanced. Off by default.
    public var lineBalance: Bool {
        get { balance ?? false }
        set { balance = newValue ? true : nil }
    }
    /// `lineBalance` when on: encoded only then, so options without it encode as before.
    private var balance: Bool?
    /// Shapes the lines flow around, in the layout's coordinates (none by default): each
    /// line takes the widest free interval of its band, and moves down when it has no room.
    public var exclusions: [ExclusionShape] {
        get { exclusionList ?? [] }
        set { exclusionList = newValue.isEmpty ? nil : newValue }
    }
    /// The exclusions, nil for none: options without any encode as they always did.
    private var exclusionList: [ExclusionShape]?
    /// There are exclusion shapes (`exclusions` is not empty), found without making the array.
    var hasExclusions: Bool { exclusionList != nil }
    /// Hyphenation of words that do not fit a line (soft hyphens only by default).
    public var hyphenation: Hyphenation {
        get { hyphenationSetting ?? .none }
        set { hyphenationSetting = newValue == .none ? nil : newValue }
    }
    /// `hyphenation` unless `.none`: encoded only then, so options without it encode as before.
    private var hyphenationSetting: Hyphenation?
    /// Horizontal lines (the default), or vertical columns for Chinese and Japanese.
    public var writingMode: WritingMode {
        get { mode ?? .horizontal }
        set { mode = newValue == .horizontal ? nil : newValue }
    }
    /// `writingMode` unless horizontal: encoded only then, so options without it encode as before.
    private var mode: WritingMode?

    /// Which way lines run.
    public enum WritingMode: String, Sendable, Hashable, Codable, CaseIterable {
        /// Lines left to right (or right to left), stacked top to bottom.
        case horizontal
        /// Columns top to bottom, stacked right to left, as Chinese and Japanese are set
        /// vertically (CSS `vertical-rl`): CJK characters upright in their vertical forms
        /// (HarfBuzz's vertical shaping: `vert`, `vrt2`), other scripts' runs turned 90°
        /// clockwise (Unicode's Vertical_Orientation, UAX #50). The layout is made as
        /// horizontal lines and turned: `width` is then the column length (the box's
        /// height), `insets` stay the box's physical edges, and a line's geometry is in line
        /// coordinates (see `TextLayout`).
        case vertical
    }

    public init(width: Double = .infinity, maxLines: Int = 0, truncation: TruncationMode = .end,
                truncationToken: AttributedText? = nil, alignment: TextAlignment = .natural,
                lineHeightMultiple: Double = 1, lineSpacing: Double = 0, lineHeightMode: LineHeightMode = .natural,
                insets: EdgeInsets = .zero, direction: ParagraphDirection = .auto, exclusions: [ExclusionShape] = [],
                hyphenation: Hyphenation = .none, writingMode: WritingMode = .horizontal) {
        self.width = width
        self.maxLines = maxLines
        self.truncation = truncation
        self.truncationToken = truncationToken
        self.alignment = alignment
        self.lineHeightMultiple = lineHeightMultiple
        self.lineSpacing = lineSpacing
        self.lineHeightMode = lineHeightMode
        self.insets = insets
        self.direction = direction
        self.exclusions = exclusions
        self.hyphenation = hyphenation
        self.writingMode = writingMode
    }

    private enum CodingKeys: String, CodingKey {
        case width, maxLines, truncation, truncationToken, alignment, lineHeightMultiple, lineSpacing, lineHeightMode,
             insets, direction
        case balance = "lineBalance"
        case exclusionList = "exclusions"
        case hyphenationSetting = "hyphenation"
        case mode = "writingMode"
    }

    /// Decodes options; `truncationToken`, `lineBalance`, `exclusions`, `hyphenation` and
    /// `writingMode` may be missing.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            width: try c.decode(Double.self, forKey: .width), maxLines: try c.decode(Int.self, forKey: .maxLines),
            truncation: try c.decode(TruncationMode.self, forKey: .truncation),
            truncationToken: try c.decodeIfPresent(AttributedText.self, forKey: .truncationToken),
            alignment: try c.decode(TextAlignment.self, forKey: .alignment),
            lineHeightMultiple: try c.decode(Double.self, forKey: .lineHeightMultiple),
            lineSpacing: try c.decode(Double.self, forKey: .lineSpacing),
            lineHeightMode: try c.decode(LineHeightMode.self, forKey: .lineHeightMode),
            insets: try c.decode(EdgeInsets.self, forKey: .insets), direction: try c.decode(ParagraphDirection.self, forKey: .direction))
        lineBalance = try c.decodeIfPresent(Bool.self, forKey: .balance) ?? false
        exclusions = try c.decodeIfPresent([ExclusionShape].self, forKey: .exclusionList) ?? []
        hyphenation = try c.decodeIfPresent(Hyphenation.self, forKey: .hyphenationSetting) ?? .none
        writingMode = try c.decodeIfPresent(WritingMode.self, forKey: .mode) ?? .horizontal
    }

    /// The longest finite width, and the largest inset, in points. Every coordinate a layout
    /// makes is then far inside what a `Float` glyph position and a pixel `Int` can hold at
    /// any scale, so no conversion can meet an infinite or out-of-range value; wider boxes
    /// are refused, as a user who wants no wrapping gives `.infinity`.
    public static let maximumLength = 1e6

    /// Why a finite width is refused, or nil: a layout box (a feed's cell too) is more than 0
    /// and at most `maximumLength` points wide; NaN and the infinities are refused.
    package static func finiteWidthProblem(_ width: Double) -> String? {
        width > 0 && width <= maximumLength ? nil : "must be a positive number of points up to \(Int(maximumLength))"
    }

    /// Why a line spacing is refused, or nil: a finite number of points within ±10⁶.
    package static func lineSpacingProblem(_ lineSpacing: Double) -> String? {
        lineSpacing.isFinite && abs(lineSpacing) <= 1e6 ? nil : "must be a finite number of points within ±1e6"
    }

    /// Why an inset (a text's, a feed cell's padding) is refused.
    package static let insetReason = "must be from 0 to \(Int(maximumLength)) points"

    /// Checks every value, naming the first bad one.
    public func validate() throws(LayoutError) {
        if width != .infinity, let reason = Self.finiteWidthProblem(width) {
            throw .invalidOption(name: "width", value: "\(width)", reason: reason + ", or infinity (no wrapping)")
        }
        guard maxLines >= 0 else { throw .invalidOption(name: "maxLines", value: "\(maxLines)", reason: "must be 0 (no limit) or more") }
        guard lineHeightMultiple.isFinite, lineHeightMultiple > 0, lineHeightMultiple <= 100 else {
            throw .invalidOption(name: "lineHeightMultiple", value: "\(lineHeightMultiple)", reason: "must be in (0, 100]")
        }
        if let reason = Self.lineSpacingProblem(lineSpacing) {
            throw .invalidOption(name: "lineSpacing", value: "\(lineSpacing)", reason: reason)
        }
        if case .fixed(let height) = lineHeightMode, !(height.isFinite && height > 0 && height <= 1e6) {
            throw .invalidOption(name: "lineHeightMode", value: "fixed(\(height))", reason: "line height must be in (0, 1e6] points")
        }
        guard insets.isWithin(Self.maximumLength) else {
            throw .invalidOption(name: "insets", value: "\(insets)", reason: Self.insetReason)
        }
        // Read once, and only when there are shapes: every layout and measurement validates.
        if let shapes = exclusionList {
            // Options that take no shapes are refused first, whatever the shapes. Lines around
            // exclusion shapes each have their own width and place: balancing breaks every line
            // at one width, and start truncation over several lines drops the first lines,
            // which would move the others past the shapes they were broken beside.
            if writingMode == .vertical {
                throw .invalidOption(name: "exclusions", value: shapes[0].description, reason: "shapes are placed around horizontal lines; vertical text takes none")
            }
            if lineBalance {
                throw .invalidOption(name: "lineBalance", value: "true", reason: "lines around exclusion shapes each have their own width; balance them without exclusions")
            }
            if keepsLastLines {
                throw .invalidOption(name: "truncation", value: "start", reason: "start truncation over several lines cannot be combined with exclusion shapes; use end or middle truncation, or one line")
            }
            guard shapes.count <= ExclusionShape.maximumCount else {
                throw .invalidOption(name: "exclusions", value: "\(shapes.count) shapes", reason: "at most \(ExclusionShape.maximumCount) shapes")
            }
            if let bad = shapes.first(where: { $0.problem != nil }) {
                throw .invalidOption(name: "exclusions", value: bad.description, reason: bad.problem!)
            }
            let vertices = shapes.reduce(0) { $0 + $1.vertexCount }
            guard vertices <= ExclusionShape.maximumVertices else {
                throw .invalidOption(name: "exclusions", value: "\(vertices) polygon vertices", reason: "at most \(ExclusionShape.maximumVertices) polygon vertices in all")
            }
        }
        if width.isFinite, width <= lineInsets.horizontal {
            throw .invalidOption(name: "width", value: "\(width)", reason: "leaves no room inside the insets (\(lineInsets.horizontal) points)")
        }
        try hyphenationSetting?.validate()
    }
}

extension FontFallbackChain {
    /// The primary font's metrics at a text's base size (its first run's, else its base
    /// style's): uniform and fixed line heights are centred on them.
    func primaryMetrics(for text: AttributedText) -> FontMetrics {
        let runs = text.runs
        return primary.metrics(size: runs.isEmpty ? text.baseStyle.size : runs[0].style.size)  // no run copied
    }
}

/// Why a layout could not be made.
public enum LayoutError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An option or style value is out of range.
    case invalidOption(name: String, value: String, reason: String)

    public var description: String {
        switch self {
        case .invalidOption(let name, let value, let reason): "invalid \(name) \(value): \(reason)"
        }
    }
}

extension LayoutOptions {
    /// These options at another width.
    package func at(width: Double) -> LayoutOptions {
        var options = self
        options.width = width
        return options
    }
}

extension TextStyle {
    /// The largest accepted point size.
    public static let maximumSize = 100_000.0

    func validate(fonts: FontFallbackChain) throws(LayoutError) {
        try validate()
        if case .family(let name) = font, fonts.preferredFont(for: self) == nil {
            throw .invalidOption(name: "font family", value: "\"\(name)\"", reason: "no font of the chain and no installed font (fontconfig) has this family")
        }
    }

    /// Why a point size (a style's, a feed cell's text sizes) is refused, or nil: more than
    /// 0 and at most `maximumSize`.
    package static func sizeProblem(_ size: Double) -> String? {
        size.isFinite && size > 0 && size <= maximumSize ? nil : "must be in (0, \(Int(maximumSize))] points"
    }

    /// Why a letter spacing is refused, or nil: a finite number of points within ±10⁴.
    package static func letterSpacingProblem(_ letterSpacing: Double) -> String? {
        letterSpacing.isFinite && letterSpacing.magnitude <= 10_000 ? nil : "must be a finite number of points within ±10000"
    }

    /// Checks the size and the letter spacing, naming the first bad one.
    func validate() throws(LayoutError) {
        if let reason = Self.sizeProblem(size) { throw .invalidOption(name: "font size", value: "\(size)", reason: reason) }
        if let reason = Self.letterSpacingProblem(letterSpacing) {
            throw .invalidOption(name: "letter spacing", value: "\(letterSpacing)", reason: reason)
        }
    }
}
