import Synchronization

/// Turns feed posts into cell layouts ahead of time, as the YYKit Weibo demo's CellLayout
/// and Texture's layout specs do, so that a list never measures text while scrolling.
///
/// Three caches make repeated work free: the engine's shaped-word cache (a word is shaped
/// once for the whole feed), a shaped-text cache by field and string (a post laid out at a
/// new width is only broken into lines again, and an author or quoted text that recurs is
/// itemized once), and the height cache (a post seen before at the same width and style
/// is a hash lookup). All are thread-safe and bounded.
public final class FeedPrecomputer: Sendable {
    public let engine: TextEngine
    public let style: FeedCellStyle
    public let heightCache: HeightCache
    private let shapedCache: BoundedCache<FieldKey, ShapedText>
    /// Measurements of the texts that recur across posts (authors, quoted posts, the footer).
    private let measuredCache: BoundedCache<FieldKey, TextMeasurement>
    private let layouts = Atomic<Int>(0)
    private let measurements = Atomic<Int>(0)
    private let styleHash: Int
    /// Cells with frames, heights and line counts but no glyph runs (`LayoutOptions.measureOnly`):
    /// for measuring, not drawing.
    public let measureOnly: Bool
    /// The styles every cell uses, made once from `style` (not for every post).
    private let authorStyle: TextStyle
    private let body: FieldStyles, quote: FieldStyles
    /// The footer line, the same in every cell.
    private let footerText: AttributedText

    /// A text block's styles: its plain and link text, and its expand token (without the
    /// post's link, which is set per post).
    private struct FieldStyles: Sendable {
        let plain: TextStyle
        let link: TextStyle
        let token: AttributedText

        init(size: Double, style: FeedCellStyle) {
            plain = TextStyle(size: size, ink: style.textInk)
            link = TextStyle(size: size, ink: style.linkInk)
            token = AttributedText(style.expandToken, style: link)
        }
    }

    /// A shaped text is a function of its string and its field's style (one per
    /// precomputer), so it is kept by those, not by post: a post laid out at a new width
    /// finds it again, and so does every other post with the same author, the same quoted
    /// text or the same body. A measured text is kept by those and its width.
    ///
    /// Strings are compared and hashed by their UTF-8 bytes, not as `String`s: canonically
    /// equivalent strings ("é" and "e\u{301}") compare equal as `String`s but are not
    /// shaped alike (nor indexed alike), and `String` hashing normalizes, which costs more
    /// than the rest of a lookup. The hash is computed once per key.
    struct FieldKey: Hashable, Sendable {
        let field: Field
        let text: String
        /// The width measured at; 0 for a shaped text (any width).
        let width: Double
        private let hash: Int

        init(field: Field, text: String, width: Double = 0) {
            self.field = field
            self.text = text
            self.width = width
            var hasher = Hasher()
            hasher.combine(field)
            hasher.combine(width)
            var bytes = text
            bytes.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            hash = hasher.finalize()
        }

        static func == (a: FieldKey, b: FieldKey) -> Bool {
            a.hash == b.hash && a.field == b.field && a.width == b.width && a.text.utf8.elementsEqual(b.text.utf8)
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
        var hashValue: Int { hash }
    }

    enum Field: Hashable, Sendable { case author, body, quote, footer }

    /// - Parameters:
    ///   - shapedTextLimit: most shaped texts kept (for relayout at other widths, and for
    ///     texts that recur across posts: authors, quoted posts).
    ///   - measureOnly: lay cells out for their heights and frames only (no glyph runs:
    ///     cheaper, and `CellRenderer` refuses them).
    public init(engine: TextEngine, style: FeedCellStyle = FeedCellStyle(),
                heightCache: HeightCache = HeightCache(), shapedTextLimit: Int = 20_000, measureOnly: Bool = false) {
        self.engine = engine
        self.measureOnly = measureOnly
        self.style = style
        styleHash = style.hashValue
        authorStyle = TextStyle(size: style.authorSize, ink: style.textInk)
        body = FieldStyles(size: style.bodySize, style: style)
        quote = FieldStyles(size: style.quoteSize, style: style)
        footerText = AttributedText(style.footerText, style: TextStyle(size: style.footerSize, ink: style.secondaryInk))
        self.heightCache = heightCache
        shapedCache = BoundedCache(maxCount: shapedTextLimit, maxCost: 256 << 20, shards: 16)
        measuredCache = BoundedCache(maxCount: shapedTextLimit, maxCost: 16 << 20, shards: 16)
    }

    /// The cell layout of a post at a width: from the height cache, or laid out (and cached).
    ///
    /// - Throws: `LayoutError` for an invalid width, scale or style.
    public func layout(_ post: FeedPost, width: Double, scale: Double = 2) throws(LayoutError) -> CellLayout {
        let key = try cacheKey(post, width: width, scale: scale, kind: measureOnly ? .measureOnly : .drawable)
        if let cached = heightCache.layout(for: key) { return cached }
        try style.validate()
        let (size, elements) = try cellSpec(post, measuring: false).solve(width: width, engine: engine)
        layouts.add(1, ordering: .relaxed)
        let cell = CellLayout(postID: post.id, width: width, height: size.height, elements: elements)
        heightCache.insert(cell, for: key)
        return cell
    }

    /// The cell's measurement at a width: its height and each text block's lines, equal to
    /// the layout's (`layout(_:width:scale:)`) to the bit, from the height cache or measured
    /// (and cached). Measuring makes no frames, lines, glyph positions or shaped texts: the
    /// words stream from the itemizer (through the shaped-word cache) into line counts.
    ///
    /// - Throws: `LayoutError` for an invalid width or style.
    public func measure(_ post: FeedPost, width: Double) throws(LayoutError) -> CellMeasurement {
        let key = try cacheKey(post, width: width, scale: 1, kind: .measurement)
        if let cached = heightCache.measurement(for: key) { return cached }
        try style.validate()
        let (size, texts) = try cellSpec(post, measuring: true).measure(width: width, engine: engine, textMeasurer: self)
        measurements.add(1, ordering: .relaxed)
        let cell = CellMeasurement(postID: post.id, width: width, height: size.height, texts: texts)
        heightCache.insert(cell, for: key)
        return cell
    }

    private func cacheKey(_ post: FeedPost, width: Double, scale: Double, kind: HeightCache.Kind) throws(LayoutError) -> HeightCache.Key {
        guard width.isFinite, width > style.padding.horizontal, width <= 1e6 else {
            throw .invalidOption(name: "width", value: "\(width)", reason: "must be a finite number of points wider than the cell padding (\(style.padding.horizontal)) and at most 1000000")
        }
        guard scale.isFinite, scale > 0, scale <= 100 else {
            throw .invalidOption(name: "scale", value: "\(scale)", reason: "must be in (0, 100]")
        }
        return HeightCache.Key(postID: post.id, contentHash: post.contentHash, width: width, scale: scale,
                               style: style, styleHash: styleHash, kind: kind)
    }

    /// Cell layouts for a sequence of posts, computed on `pool`'s workers and delivered to
    /// `consume` on the calling thread in input order. Streaming: at most `window` posts
    /// are in flight, so memory stays flat for a million posts.
    ///
    /// - Parameters:
    ///   - progress: called on the calling thread after each delivered post with the count so far.
    public func precompute<Posts: Sequence>(
        _ posts: Posts, width: Double, scale: Double = 2, pool: RenderQueuePool = .shared, window: Int = 256,
        progress: (Int) -> Void = { _ in }, consume: (FeedPost, Result<CellLayout, LayoutError>) -> Void
    ) where Posts.Element == FeedPost {
        var done = 0
        OrderedParallelMap.run(posts, pool: pool, priority: .prefetch, window: window, transform: { post in
            (post, Result { () throws(LayoutError) -> CellLayout in try self.layout(post, width: width, scale: scale) })
        }, consume: { (post: FeedPost, result: Result<CellLayout, LayoutError>) in
            consume(post, result)
            done += 1
            progress(done)
        })
    }

    /// Cell layouts for an async sequence of posts, in input order, computed on `pool`'s
    /// workers. A pipeline: up to `window` posts are in flight, and each finished head is
    /// yielded at once while the workers go on with the posts behind it. Honours task
    /// cancellation (throws `CancellationError`) between posts; a layout error ends the
    /// stream with that error.
    public func precompute<Posts: AsyncSequence & Sendable>(
        _ posts: Posts, width: Double, scale: Double = 2, pool: RenderQueuePool = .shared, window: Int = 64
    ) -> AsyncThrowingStream<CellLayout, Error> where Posts.Element == FeedPost {
        let window = max(1, window)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var inFlight: [Task<Result<CellLayout, LayoutError>, Never>] = []
                    var head = 0  // inFlight[..<head] were yielded
                    func yieldHead() async throws {
                        let cell = try await inFlight[head].value.get()
                        head += 1
                        if head >= window {  // drop the yielded prefix now and then
                            inFlight.removeFirst(head)
                            head = 0
                        }
                        try Task.checkCancellation()
                        continuation.yield(cell)
                    }
                    for try await post in posts {
                        try Task.checkCancellation()
                        inFlight.append(self.submit(post, width: width, scale: scale, pool: pool))
                        if inFlight.count - head >= window { try await yieldHead() }
                    }
                    while head < inFlight.count { try await yieldHead() }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Lays a post out on one of `pool`'s workers; the task's value is the result.
    private func submit(_ post: FeedPost, width: Double, scale: Double,
                        pool: RenderQueuePool) -> Task<Result<CellLayout, LayoutError>, Never> {
        Task {
            await withCheckedContinuation { (resume: CheckedContinuation<Result<CellLayout, LayoutError>, Never>) in
                pool.submit(priority: .prefetch) {
                    resume.resume(returning: Result { () throws(LayoutError) -> CellLayout in
                        try self.layout(post, width: width, scale: scale)
                    })
                }
            }
        }
    }

    /// Number of cell layouts computed (height-cache misses that were laid out).
    public var layoutCount: Int { layouts.load(ordering: .relaxed) }

    /// Number of cell measurements computed (height-cache misses that were measured).
    public var measurementCount: Int { measurements.load(ordering: .relaxed) }

    /// Shaped-text cache counters (relayout at a new width hits here).
    public var shapedTextStatistics: CacheStatistics { shapedCache.statistics }

    // MARK: - The cell

    /// The feed cell's layout spec: avatar and author, body (with the expand token when
    /// truncated), optional quote box, optional image grid, footer. For measuring, its
    /// text blocks are attributed texts (measured, never shaped whole); otherwise shaped
    /// texts from the shaped-text cache.
    func cellSpec(_ post: FeedPost, measuring: Bool) -> LayoutSpec {
        let s = style
        var rows: [LayoutSpec] = []
        rows.reserveCapacity(5)
        let author = authorStyle
        rows.append(.stack(StackSpec(axis: .horizontal, spacing: 10, alignment: .center, children: [
            .box(id: "avatar", size: Size(width: s.avatarSize, height: s.avatarSize), fill: s.avatarFill),
            textNode("author", .author, post.author, measuring: measuring,
                     options: LayoutOptions(maxLines: 1, lineHeightMode: s.lineHeightMode, measureOnly: measureOnly)) {
                AttributedText($0.isEmpty ? "—" : $0, style: author)
            },
        ])))
        if !post.text.isEmpty {
            rows.append(textBlock("body", post, .body, post.text, styles: body, maxLines: s.bodyMaxLines, measuring: measuring))
        }
        if let quote = post.quote, !quote.isEmpty {
            rows.append(.background(id: "quoteBox", fill: s.quoteFill, .inset(EdgeInsets(all: 8),
                textBlock("quote", post, .quote, quote, styles: self.quote, maxLines: s.quoteMaxLines, measuring: measuring))))
        }
        if post.images > 0 { rows.append(imageGrid(post.images)) }
        let footerOptions = LayoutOptions(maxLines: 1, lineHeightMode: s.lineHeightMode, measureOnly: measureOnly)
        rows.append(measuring ? .attributedText(id: "footer", text: footerText, options: footerOptions)
                              : .text(id: "footer", text: footer, options: footerOptions))
        return .inset(s.padding, .stack(StackSpec(axis: .vertical, spacing: s.spacing, children: rows)))
    }

    private func textBlock(_ id: String, _ post: FeedPost, _ field: Field, _ string: String, styles: FieldStyles,
                           maxLines: Int, measuring: Bool) -> LayoutSpec {
        var token = styles.token
        // The link is the post's, for a renderer's hit test; a measurement does not depend on it.
        if !measuring { token.setLink("expand:\(post.id)") }
        let options = LayoutOptions(maxLines: maxLines, truncationToken: token, lineSpacing: style.lineSpacing,
                                    lineHeightMode: style.lineHeightMode, measureOnly: measureOnly)
        return textNode(id, field, string, measuring: measuring, options: options) {
            FeedTextHighlighter.attributed($0, style: styles.plain, linkStyle: styles.link)
        }
    }

    /// A text block of one field: the attributed text itself for measuring, else its shaped
    /// text (from the cache when that string was seen before in that field).
    private func textNode(_ id: String, _ field: Field, _ string: String, measuring: Bool, options: LayoutOptions,
                          _ text: (String) -> AttributedText) -> LayoutSpec {
        measuring ? .attributedText(id: id, text: text(string), options: options)
                  : .text(id: id, text: shaped(field, string, text), options: options)
    }

    private func imageGrid(_ count: Int) -> LayoutSpec {
        // One image: a large square; 2 and 4: two columns; otherwise three (as Weibo does).
        let columns = count == 1 ? 1 : (count == 2 || count == 4) ? 2 : 3
        return .grid(GridSpec(idPrefix: "image", count: count, columns: columns, spacing: style.imageSpacing,
                              fill: style.imageFill, maxSideFraction: count == 1 ? 0.6 : 1))
    }

    private var footer: ShapedText {
        // The same for every post: shaped once per precomputer.
        let key = FieldKey(field: .footer, text: "")
        if let cached = shapedCache.value(for: key, record: false) { return cached }
        let shaped = (try? engine.shape(footerText)) ?? (try! engine.shape(""))
        shapedCache.insert(shaped, for: key, cost: 1024)
        return shaped
    }

    /// The shaped text of one field's string, from the cache when that string was seen
    /// before in that field; `text` builds the attributed text from the string only on a
    /// miss (a relayout at a new width neither highlights nor shapes again).
    private func shaped(_ field: Field, _ string: String, _ text: (String) -> AttributedText) -> ShapedText {
        let key = FieldKey(field: field, text: string)
        if let cached = shapedCache.value(for: key) { return cached }
        // Styles here are validated by FeedCellStyle.validate(), so shaping cannot fail.
        let shaped = (try? engine.shape(text(string))) ?? (try! engine.shape(""))
        shapedCache.insert(shaped, for: key, cost: 512 + shaped.glyphCount * 24)
        return shaped
    }
}

extension FeedPrecomputer: SpecTextMeasuring {
    /// Measures a text block of a cell being measured: bodies as they come (each post has
    /// its own), the texts that recur across posts (author, quote, footer) through the
    /// measured-text cache.
    func measure(id: String, text: AttributedText, options: LayoutOptions, engine: TextEngine) throws(LayoutError) -> TextMeasurement {
        let field: Field
        switch id {
        case "author": field = .author
        case "quote": field = .quote
        case "footer": field = .footer
        default: return try engine.measure(text, options: options)
        }
        let key = FieldKey(field: field, text: text.string, width: options.width)
        if let cached = measuredCache.value(for: key) { return cached }
        let measured = try engine.measure(text, options: options)
        measuredCache.insert(measured, for: key, cost: 96 + text.string.utf8.count + measured.lineStarts.count * 8)
        return measured
    }
}
