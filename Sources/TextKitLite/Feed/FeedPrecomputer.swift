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
    private let shapedCache: BoundedCache<ShapedKey, ShapedText>
    private let layouts = Atomic<Int>(0)
    private let styleHash: Int
    /// Cells with frames, heights and line counts but no glyph runs (`LayoutOptions.measureOnly`):
    /// for measuring, not drawing.
    public let measureOnly: Bool
    /// The styles every cell uses, made once from `style` (not for every post).
    private let authorStyle: TextStyle
    private let body: FieldStyles, quote: FieldStyles

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
    /// text or the same body.
    ///
    /// Strings are compared and hashed by their UTF-8 bytes, not as `String`s: canonically
    /// equivalent strings ("é" and "e\u{301}") compare equal as `String`s but are not
    /// shaped alike (nor indexed alike), and `String` hashing normalizes, which costs more
    /// than the rest of a lookup. The hash is computed once per key.
    struct ShapedKey: Hashable, Sendable {
        let field: Field
        let text: String
        private let hash: Int

        init(field: Field, text: String) {
            self.field = field
            self.text = text
            var hasher = Hasher()
            hasher.combine(field)
            var bytes = text
            bytes.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            hash = hasher.finalize()
        }

        static func == (a: ShapedKey, b: ShapedKey) -> Bool {
            a.hash == b.hash && a.field == b.field && a.text.utf8.elementsEqual(b.text.utf8)
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
        self.heightCache = heightCache
        shapedCache = BoundedCache(maxCount: shapedTextLimit, maxCost: 256 << 20, shards: 16)
    }

    /// The cell layout of a post at a width: from the height cache, or laid out (and cached).
    ///
    /// - Throws: `LayoutError` for an invalid width, scale or style.
    public func layout(_ post: FeedPost, width: Double, scale: Double = 2) throws(LayoutError) -> CellLayout {
        guard width.isFinite, width > style.padding.horizontal, width <= 1e6 else {
            throw .invalidOption(name: "width", value: "\(width)", reason: "must be a finite number of points wider than the cell padding (\(style.padding.horizontal)) and at most 1000000")
        }
        guard scale.isFinite, scale > 0, scale <= 100 else {
            throw .invalidOption(name: "scale", value: "\(scale)", reason: "must be in (0, 100]")
        }
        let key = HeightCache.Key(postID: post.id, contentHash: post.contentHash, width: width, scale: scale,
                                  style: style, styleHash: styleHash, measureOnly: measureOnly)
        if let cached = heightCache.layout(for: key) { return cached }
        try style.validate()
        let spec = cellSpec(post)
        let (size, elements) = try spec.solve(width: width, engine: engine)
        layouts.add(1, ordering: .relaxed)
        let cell = CellLayout(postID: post.id, width: width, height: size.height, elements: elements)
        heightCache.insert(cell, for: key)
        return cell
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

    /// Shaped-text cache counters (relayout at a new width hits here).
    public var shapedTextStatistics: CacheStatistics { shapedCache.statistics }

    // MARK: - The cell

    /// The feed cell's layout spec: avatar and author, body (with the expand token when
    /// truncated), optional quote box, optional image grid, footer.
    func cellSpec(_ post: FeedPost) -> LayoutSpec {
        let s = style
        var rows: [LayoutSpec] = []
        rows.reserveCapacity(5)
        let author = authorStyle
        rows.append(.stack(StackSpec(axis: .horizontal, spacing: 10, alignment: .center, children: [
            .box(id: "avatar", size: Size(width: s.avatarSize, height: s.avatarSize), fill: s.avatarFill),
            .text(id: "author", text: shaped(.author, post.author) { AttributedText($0.isEmpty ? "—" : $0, style: author) },
                  options: LayoutOptions(maxLines: 1, lineHeightMode: s.lineHeightMode, measureOnly: measureOnly)),
        ])))
        if !post.text.isEmpty {
            rows.append(textBlock("body", post, .body, post.text, styles: body, maxLines: s.bodyMaxLines))
        }
        if let quote = post.quote, !quote.isEmpty {
            rows.append(.background(id: "quoteBox", fill: s.quoteFill, .inset(EdgeInsets(all: 8),
                textBlock("quote", post, .quote, quote, styles: self.quote, maxLines: s.quoteMaxLines))))
        }
        if post.images > 0 { rows.append(imageGrid(post.images)) }
        rows.append(.text(id: "footer", text: footer, options: LayoutOptions(maxLines: 1, lineHeightMode: s.lineHeightMode,
                                                                             measureOnly: measureOnly)))
        return .inset(s.padding, .stack(StackSpec(axis: .vertical, spacing: s.spacing, children: rows)))
    }

    private func textBlock(_ id: String, _ post: FeedPost, _ field: Field, _ string: String, styles: FieldStyles,
                           maxLines: Int) -> LayoutSpec {
        let shapedText = shaped(field, string) { FeedTextHighlighter.attributed($0, style: styles.plain, linkStyle: styles.link) }
        var token = styles.token
        token.setLink("expand:\(post.id)")
        return .text(id: id, text: shapedText, options: LayoutOptions(
            maxLines: maxLines, truncationToken: token,
            lineSpacing: style.lineSpacing, lineHeightMode: style.lineHeightMode, measureOnly: measureOnly))
    }

    private func imageGrid(_ count: Int) -> LayoutSpec {
        // One image: a large square; 2 and 4: two columns; otherwise three (as Weibo does).
        let columns = count == 1 ? 1 : (count == 2 || count == 4) ? 2 : 3
        return .grid(GridSpec(idPrefix: "image", count: count, columns: columns, spacing: style.imageSpacing,
                              fill: style.imageFill, maxSideFraction: count == 1 ? 0.6 : 1))
    }

    private var footer: ShapedText {
        // The same for every post: shaped once per precomputer.
        let key = ShapedKey(field: .footer, text: "")
        if let cached = shapedCache.value(for: key, record: false) { return cached }
        let text = AttributedText(style.footerText, style: TextStyle(size: style.footerSize, ink: style.secondaryInk))
        let shaped = (try? engine.shape(text)) ?? (try! engine.shape(""))
        shapedCache.insert(shaped, for: key, cost: 1024)
        return shaped
    }

    /// The shaped text of one field's string, from the cache when that string was seen
    /// before in that field; `text` builds the attributed text from the string only on a
    /// miss (a relayout at a new width neither highlights nor shapes again).
    private func shaped(_ field: Field, _ string: String, _ text: (String) -> AttributedText) -> ShapedText {
        let key = ShapedKey(field: field, text: string)
        if let cached = shapedCache.value(for: key) { return cached }
        // Styles here are validated by FeedCellStyle.validate(), so shaping cannot fail.
        let shaped = (try? engine.shape(text(string))) ?? (try! engine.shape(""))
        shapedCache.insert(shaped, for: key, cost: 512 + shaped.glyphCount * 24)
        return shaped
    }
}
