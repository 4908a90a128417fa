import Synchronization
import TextKitLite

/// Turns feed posts into cell layouts ahead of time, as the YYKit Weibo demo's CellLayout
/// and Texture's layout specs do, so that a list never measures text while scrolling.
///
/// Caches make repeated work free: the engine's shaped-word cache (a word is shaped once for
/// the whole feed), a shaped-text cache by field and string (a post laid out at a new width
/// is only broken into lines again, and an author or quoted text that recurs is itemized
/// once), a measured-text cache by field, string and width (the same for `measure`), and the
/// height cache (a post seen before at the same width and style is a hash lookup, for a
/// layout or a measurement). All are thread-safe and bounded.
///
/// `measure` gives what a list needs ahead of scrolling (heights, line counts, line starts,
/// truncation) without laying cells out; `layout` gives cells to draw. Both are safe to call
/// from any thread: a feed is precomputed on all cores, in input order and flat memory, by
/// mapping it with `RenderQueuePool.orderedMap` (a sequence or an async sequence).
public final class FeedPrecomputer: Sendable {
    public let engine: TextEngine
    public let style: FeedCellStyle
    public let heightCache: HeightCache
    private let shapedCache: BoundedCache<FieldKey, ShapedText>
    /// Measurements of the texts that recur across posts (authors, quoted posts, the footer),
    /// at the key's widths, in order.
    private let measuredCache: BoundedCache<FieldKey, [TextMeasurement]>
    private let layouts = Atomic<Int>(0)
    private let measurements = Atomic<Int>(0)
    /// `style`, hashed with the engine's fonts once, for every height-cache key.
    private let keySettings: HeightCache.Key.Settings
    /// What `style.validate()` throws, found once: the style never changes.
    private let styleError: LayoutError?
    /// How a cell is composed: its spec and the styled text of each field.
    private let cell: FeedCellSpec
    /// Where a single picture's size is read when its post does not declare it.
    public let pictures: (any PictureSource)?
    /// A shaped text is a function of its string and its field's style (one per
    /// precomputer), so it is kept by those, not by post: a post laid out at a new width
    /// finds it again, and so does every other post with the same author, the same quoted
    /// text or the same body. A measured text is kept by those and its widths (all the
    /// widths a post is measured at: one lookup).
    ///
    /// Strings are compared and hashed by their UTF-8 bytes, not as `String`s: canonically
    /// equivalent strings ("é" and "e\u{301}") compare equal as `String`s but are not
    /// shaped alike (nor indexed alike), and `String` hashing normalizes, which costs more
    /// than the rest of a lookup. The hash is computed once per key.
    struct FieldKey: Hashable, Sendable {
        let field: Field
        let text: String
        /// The field's language (`FeedCellSpec.Field.language(of:)`).
        let language: String?
        /// The widths measured at; `.one(0)` for a shaped text (any width).
        let widths: Widths
        private let hash: Int

        /// Widths in order: most often one, held without an array.
        enum Widths: Hashable, Sendable {
            case one(Double)
            case many([Double])

            /// Hashes one width, or a list's count and first width (equal lists hash alike,
            /// and a run measures at one list): the rest is left to `==`, as hashing every
            /// width of every author and footer looked up costs more than comparing them.
            func hash(into hasher: inout Hasher) {
                switch self {
                case .one(let width): hasher.combine(width)
                case .many(let widths):
                    hasher.combine(widths.count)
                    hasher.combine(widths.first)
                }
            }
        }

        init(field: Field, text: String, language: String?, widths: Widths = .one(0)) {
            self.field = field
            self.text = text
            self.language = language
            self.widths = widths
            var hasher = Hasher()
            hasher.combine(field)
            hasher.combine(widths)
            hasher.combine(self.language)
            text.hashUTF8(into: &hasher)
            hash = hasher.finalize()
        }

        static func == (a: FieldKey, b: FieldKey) -> Bool {
            a.hash == b.hash && a.field == b.field && a.widths == b.widths && a.language == b.language && a.text.hasSameUTF8(as: b.text)
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
        var hashValue: Int { hash }
    }

    typealias Field = FeedCellSpec.Field

    /// A precomputer of cells in one style.
    ///
    /// - Parameters:
    ///   - engine: lays out and measures the texts (its fonts and shaped-word cache).
    ///   - style: the cell's sizes, spacing, inks, line limits and tokens.
    ///   - heightCache: the cache of cell layouts and measurements by post; may be shared
    ///     by precomputers.
    ///   - shapedTextLimit: most shaped texts kept (for relayout at other widths, and for
    ///     texts that recur across posts: authors, quoted posts); `measure` keeps up to this
    ///     many measured texts, and at least 10,000 (within 4 MB).
    ///   - emoticons: `[codes]` in bodies and quotes drawn as inline images (none by default;
    ///     `EmoticonTable.bundled()` is the table `textrender` uses).
    ///   - pictures: where the size of a post's single picture is read (its file's header)
    ///     when the post does not declare it; nil (or a size it cannot read) makes the box
    ///     square. Grids are squares whatever the pictures.
    public init(engine: TextEngine, style: FeedCellStyle = FeedCellStyle(),
                heightCache: HeightCache = HeightCache(), shapedTextLimit: Int = 20_000,
                emoticons: EmoticonTable = .empty, pictures: (any PictureSource)? = nil) {
        self.engine = engine
        self.pictures = pictures
        self.style = style
        keySettings = HeightCache.Key.Settings(style: style, fonts: engine.fonts)
        do { try style.validate(); styleError = nil } catch { styleError = error }
        cell = FeedCellSpec(style: style, emoticons: emoticons)
        self.heightCache = heightCache
        shapedCache = BoundedCache(maxCount: shapedTextLimit, maxCost: 256 << 20, shards: 16)
        // A measurement is a few hundred bytes: many more are kept than shaped texts.
        measuredCache = BoundedCache(maxCount: max(shapedTextLimit, 10_000), maxCost: 4 << 20, shards: 16)
    }

    /// The emoticon table the cells draw their `[codes]` with.
    public var emoticons: EmoticonTable { cell.emoticons }

    /// The cell layout of a post at a width: from the height cache, or laid out (and cached).
    ///
    /// - Throws: `LayoutError` for an invalid width, scale or style, or a post with an
    ///   emoticon too large to lay out (as `measure` does).
    public func layout(_ post: FeedPost, width: Double, scale: Double = 2) throws(LayoutError) -> CellLayout {
        try validate(width: width, scale: scale)
        let post = sized(post)
        let key = cacheKey(post, width: width, scale: scale, kind: .drawable)
        if let cached = heightCache.layout(for: key) { return cached }
        if let styleError { throw styleError }
        let (size, elements) = try cellSpec(post).solve(width: width, engine: engine)
        layouts.add(1, ordering: .relaxed)
        var cell = CellLayout(postID: post.id, width: width, height: size.height, elements: elements)
        if style.showsSeparator {
            // The bitmap's last row of pixels at the scale (its height is the cell's rounded
            // up: `RenderOptions.pixels`), so the cell's height does not change.
            let rows = max(1, (size.height * scale - 1e-6).rounded(.up))
            cell.elements.append(CellElement(id: "separator", kind: .box, frame: Rect(x: 0, y: (rows - 1) / scale, width: width, height: 1 / scale),
                                             fill: style.theme.separator))
        }
        heightCache.insert(cell, for: key)
        return cell
    }

    /// The cell's measurement at a width: its height and each text block's lines, equal to
    /// the layout's (`layout(_:width:scale:)`) to the bit, from the height cache or measured
    /// (and cached). Measuring makes no frames, lines, glyph positions or shaped texts: the
    /// words stream from the itemizer (through the shaped-word cache) into line counts.
    ///
    /// - Throws: `LayoutError` for an invalid width or style, or a post with an emoticon too
    ///   large to lay out (as `layout` does).
    public func measure(_ post: FeedPost, width: Double) throws(LayoutError) -> CellMeasurement {
        try measure(post, widths: [width])[0]
    }

    /// The cell's measurements at several widths, in their order, each equal to
    /// `measure(_:width:)` at that width to the bit. Each text block is itemized and shaped
    /// once for all widths, its pieces broken into lines at each as they come (a service
    /// measuring for several device widths). A post's measurements at all its widths are
    /// one height-cache entry: when all the widths are there, they cost one lookup.
    ///
    /// - Throws: `LayoutError` as `measure(_:width:)`.
    public func measure(_ post: FeedPost, widths: [Double]) throws(LayoutError) -> [CellMeasurement] {
        for width in widths { try validate(width: width, scale: 1) }
        guard !widths.isEmpty else { return [] }
        let post = sized(post)
        let key = cacheKey(post, width: 0, scale: 1, kind: .measurement)
        if let cached = heightCache.measurements(for: key, widths: widths) { return cached }
        if let styleError { throw styleError }
        let shape = FeedCellSpec.Shape(post)
        let measuring = cell.measuring(shape)
        let texts = PostTexts(precomputer: self, post: post)
        let results: [CellMeasurement]
        if widths.count == 1 {
            let (size, measured) = try measuring.spec.measure(width: widths[0], engine: engine, textMeasurer: texts)
            results = [CellMeasurement(postID: post.id, width: widths[0], height: size.height, texts: measured)]
        } else {
            let plan = try measuring.plan(widths: widths, engine: engine)
            results = try zip(widths, measuring.spec.measure(plan, engine: engine, textMeasurer: texts)).map { width, measured in
                CellMeasurement(postID: post.id, width: width, height: measured.size.height, texts: measured.texts)
            }
        }
        measurements.add(results.count, ordering: .relaxed)
        heightCache.insert(results, for: key)
        return results
    }

    /// The post with its single picture's size declared, read from `pictures` when the post
    /// does not declare it (and it can be read): the size is then part of the post, in
    /// every cache key, as a declared one is.
    private func sized(_ post: FeedPost) -> FeedPost {
        guard post.pictures.count == 1, post.pictures[0].declaredAspectRatio == nil, let source = post.pictures[0].source,
              let size = pictures?.pixelSize(of: source), size.width > 0, size.height > 0 else { return post }
        var post = post
        post.pictures[0].width = size.width
        post.pictures[0].height = size.height
        return post
    }

    /// Checks a width and a scale a cell is asked at.
    private func validate(width: Double, scale: Double) throws(LayoutError) {
        guard style.cellWidthProblem(width) == nil, LayoutOptions.finiteWidthProblem(width) == nil else {
            throw .invalidOption(name: "width", value: "\(width)", reason: "must be a finite number of points wider than the cell padding (\(style.padding.horizontal)) and at most \(Int(LayoutOptions.maximumLength))")
        }
        guard scale.isFinite, scale > 0, scale <= 100 else {
            throw .invalidOption(name: "scale", value: "\(scale)", reason: "must be in (0, 100]")
        }
    }

    private func cacheKey(_ post: FeedPost, width: Double, scale: Double, kind: HeightCache.Kind) -> HeightCache.Key {
        HeightCache.Key(post: post, width: width, scale: scale, settings: keySettings, fonts: engine.fonts, emoticons: cell.emoticons,
                        kind: kind)
    }

    /// Number of cell layouts computed (height-cache misses that were laid out).
    public var layoutCount: Int { layouts.load(ordering: .relaxed) }

    /// Number of cell measurements computed (height-cache misses that were measured).
    public var measurementCount: Int { measurements.load(ordering: .relaxed) }

    /// Shaped-text cache counters (relayout at a new width hits here).
    public var shapedTextStatistics: CacheStatistics { shapedCache.statistics }

    /// Measured-text cache counters (`measure`: authors and quoted texts that recur hit
    /// here; the footer, the same in every cell, is not counted).
    public var measuredTextStatistics: CacheStatistics { measuredCache.statistics }

    // MARK: - The cell

    /// The cell spec of a post, its text blocks shaped (from the shaped-text cache), the
    /// expand token an `expand` highlight whose value is the post's id; mirrored for a
    /// right-to-left post.
    ///
    /// - Throws: `LayoutError` for a text block that cannot be laid out.
    func cellSpec(_ post: FeedPost) throws(LayoutError) -> LayoutSpec {
        try cell.spec(FeedCellSpec.Shape(post), post: post, rightToLeft: cell.isRightToLeft(post)) { field, options throws(LayoutError) in
            var options = options
            if let count = options.truncationToken?.utf16Count {
                options.truncationToken?.setHighlights([AttributedText.Highlight(kind: .expand, value: post.id, range: 0..<count)])
            }
            let (string, language) = field.content(of: post, style: style)
            return .text(id: field.rawValue, text: try shaped(field, string, language: language), options: options)
        }
    }

    /// The shaped text of one field's string, from the cache when that string was seen
    /// before in that field; the attributed text is made from the string only on a miss (a
    /// relayout at a new width neither highlights nor shapes again).
    private func shaped(_ field: Field, _ string: String, language: String?) throws(LayoutError) -> ShapedText {
        let key = FieldKey(field: field, text: string, language: language)
        // The footer is the same for every post: not counted.
        if let cached = shapedCache.value(for: key, record: field != .footer) { return cached }
        let shaped = try engine.shape(cell.attributedText(field, string, language: language))
        shapedCache.insert(shaped, for: key, cost: 512 + shaped.glyphCount * 24)
        return shaped
    }

    /// A field of a post measured with the options its spec gives it: a body as it comes
    /// (each post has its own), the texts that recur across posts (author, quote, footer)
    /// through the measured-text cache, made into attributed texts only on a miss.
    fileprivate func measure(_ field: Field, of post: FeedPost, options: LayoutOptions) throws(LayoutError) -> TextMeasurement {
        // The style was checked at init (`styleError`), the width by `cacheKey`.
        guard field != .body else {
            return engine.measureValid(try cell.attributedText(field, post.text, language: post.language), options: options)
        }
        return try recurring(field, of: post, widths: .one(options.width)) { [engine.measureValid($0, options: options)] }[0]
    }

    /// `measure(_:of:options:)` at several widths (`options` at each), in their order, the
    /// text itemized once.
    fileprivate func measure(_ field: Field, of post: FeedPost, options: LayoutOptions, widths: [Double]) throws(LayoutError) -> [TextMeasurement] {
        guard field != .body else {
            return engine.measureValid(try cell.attributedText(field, post.text, language: post.language), options: options, widths: widths)
        }
        return try recurring(field, of: post, widths: .many(widths)) { engine.measureValid($0, options: options, widths: widths) }
    }

    /// A text that recurs across posts (not a body) at `widths`: from the measured-text cache,
    /// else measured by `measure` from its attributed text and kept.
    @inline(__always)
    private func recurring(_ field: Field, of post: FeedPost, widths: FieldKey.Widths,
                           measure: (AttributedText) -> [TextMeasurement]) throws(LayoutError) -> [TextMeasurement] {
        let (string, language) = field.content(of: post, style: style)
        let key = FieldKey(field: field, text: string, language: language, widths: widths)
        // The footer is the same for every post: not counted.
        if let cached = measuredCache.value(for: key, record: field != .footer) { return cached }
        let measurements = measure(try cell.attributedText(field, string, language: language))
        measuredCache.insert(measurements, for: key,
                             cost: measurements.reduce(64 + string.utf8.count) { $0 + 32 + $1.lineStarts.count * 8 })
        return measurements
    }
}

/// The texts of one post, measured by field into the cell's measuring spec.
private struct PostTexts: SpecTextMeasuring {
    let precomputer: FeedPrecomputer
    let post: FeedPost

    func measure(id: String, text: AttributedText, options: LayoutOptions, engine: TextEngine) throws(LayoutError) -> TextMeasurement {
        guard let field = FeedCellSpec.Field(id: id) else { return try engine.measure(text, options: options) }
        return try precomputer.measure(field, of: post, options: options)
    }

    func measure(id: String, text: AttributedText, options: LayoutOptions, widths: [Double],
                 engine: TextEngine) throws(LayoutError) -> [TextMeasurement] {
        guard let field = FeedCellSpec.Field(id: id) else { return try engine.measure(text, options: options, widths: widths) }
        return try precomputer.measure(field, of: post, options: options, widths: widths)
    }
}
