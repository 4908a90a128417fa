import TextKitLite

/// How a feed cell is composed from a post, for one cell style: its layout spec (avatar
/// and author, body with the expand token when truncated, optional quote box, optional
/// image grid, footer; mirrored for a right-to-left post) and the styled text of each of
/// its text blocks.
struct FeedCellSpec: Sendable {
    /// A cell's text blocks; the raw value is the block's element id.
    enum Field: String, Hashable, Sendable, CaseIterable {
        case author, meta, body, quote, footer

        /// The field whose element id is `id`: as `init(rawValue:)`, which goes through the
        /// standard library's generic string switch for every text a cell measures; `==`
        /// compares these short ASCII strings by their bits.
        init?(id: String) {
            switch id {
            case Self.body.rawValue: self = .body
            case Self.author.rawValue: self = .author
            case Self.quote.rawValue: self = .quote
            case Self.footer.rawValue: self = .footer
            case Self.meta.rawValue: self = .meta
            default: return nil
            }
        }

        /// The field's string in a post and the language it is styled in: the post's own
        /// texts in the post's language; the time and source line and the footer in its
        /// labels' (`FeedLabels`), the time relative to the style's `now`.
        func content(of post: FeedPost, style: FeedCellStyle) -> (string: String, language: String?) {
            switch self {
            case .author: return (post.author, post.language)
            case .body: return (post.text, post.language)
            case .quote: return (post.quote ?? "", post.language)
            case .meta:
                guard post.time != nil || !(post.source ?? "").isEmpty else { return ("", post.language) }
                let language = FeedLabels.language(of: post)
                return (FeedLabels.meta(post, now: style.now, language: language) ?? "", language)
            case .footer:
                let language = FeedLabels.language(of: post)
                return (FeedLabels.footer(post, language: language), language)
            }
        }
    }

    /// Which rows a cell has: the shape of its spec, the same for every post with these.
    struct Shape: Hashable, Sendable {
        var hasBody: Bool
        var hasQuote: Bool
        /// A time or a source: a line under the author.
        var hasMeta: Bool
        var images: Int
        /// Width over height of a single picture's box (1 for a grid, a placeholder, or a
        /// picture of unknown size), within `singlePictureAspectRatios`.
        var aspectRatio: Double

        /// The shape of a post's cell; a single picture's box takes the size the post declares
        /// (`FeedPrecomputer` declares it from the file's header when the post does not).
        init(_ post: FeedPost) {
            let aspectRatio = post.pictures.count == 1 ? post.pictures[0].declaredAspectRatio ?? 1 : 1
            self.init(hasBody: !post.text.isEmpty, hasQuote: !(post.quote ?? "").isEmpty, hasMeta: post.time != nil || !(post.source ?? "").isEmpty,
                      images: post.images, aspectRatio: aspectRatio)
        }

        init(hasBody: Bool, hasQuote: Bool, hasMeta: Bool = false, images: Int, aspectRatio: Double = 1) {
            self.hasBody = hasBody
            self.hasQuote = hasQuote
            self.hasMeta = hasMeta
            self.images = max(0, images)
            let range = FeedCellSpec.singlePictureAspectRatios
            self.aspectRatio = self.images == 1 ? min(range.upperBound, max(range.lowerBound, aspectRatio)) : 1
        }
    }

    /// The aspect ratios a single picture's box keeps (from 1:3, tall, to 3:1, wide): a
    /// picture beyond them is cropped to the nearest.
    static let singlePictureAspectRatios = (1.0 / 3)...3.0

    /// A text block's styles: its plain text, and its expand token in the highlight style
    /// (without its highlight, which names the post and is set per post).
    private struct BlockStyles: Sendable {
        let plain: TextStyle
        let token: AttributedText

        init(size: Double, style: FeedCellStyle, highlightStyle: HighlightStyle) {
            plain = TextStyle(size: size, ink: style.theme.text)
            token = AttributedText(style.expandToken, style: highlightStyle.applied(to: plain, kind: .expand))
        }
    }

    /// What the body and the quote highlight: mentions, topics, hashtags and URLs.
    static let highlighter = Highlighter()

    /// The ids of the image grid's boxes: this prefix and the image's index ("image0", …),
    /// drawn with the theme's `imageStroke` as their outline.
    static let imageIDPrefix = "image"

    let style: FeedCellStyle
    // The styles every cell uses, made once (not for every post).
    private let authorStyle: TextStyle
    private let body: BlockStyles, quote: BlockStyles
    /// Mentions, topics, hashtags, URLs and the expand token: the theme's highlight style.
    private let highlightStyle: HighlightStyle
    private let footerStyle: TextStyle, metaStyle: TextStyle
    /// `[codes]` in the body and the quote drawn as inline images.
    let emoticons: EmoticonTable
    /// The measuring specs of the usual shapes (up to 9 images), made once, not per post.
    private var measuringSpecs: [Shape: Measuring] = [:]

    /// The spec for measuring posts of a shape (`measuring(_:)`), and its plans.
    struct Measuring: Sendable {
        let spec: LayoutSpec
        /// The plan for the first list of widths asked for (a run measures every post at the
        /// same widths; another list is planned per post); nil for a spec not kept.
        fileprivate let plan: Locked<MeasuringPlan?>?

        /// The plan for measuring posts of the shape at `widths` (`LayoutSpec.measuringPlan`).
        func plan(widths: [Double], engine: TextEngine) throws(LayoutError) -> MeasuringPlan {
            if let kept = plan?.withLock({ $0 }), kept.widths == widths { return kept }
            let made = try spec.measuringPlan(widths: widths, engine: engine)
            plan?.withLock { if $0 == nil { $0 = made } }
            return made
        }
    }

    init(style: FeedCellStyle, emoticons: EmoticonTable = .empty) {
        self.style = style
        self.emoticons = emoticons
        authorStyle = TextStyle(size: style.authorSize, ink: style.theme.text, weight: style.authorWeight)
        highlightStyle = style.theme.highlight
        body = BlockStyles(size: style.bodySize, style: style, highlightStyle: highlightStyle)
        quote = BlockStyles(size: style.quoteSize, style: style, highlightStyle: highlightStyle)
        footerStyle = TextStyle(size: style.footerSize, ink: style.theme.secondaryText)
        metaStyle = TextStyle(size: style.metaSize, ink: style.theme.secondaryText)
        for hasBody in [false, true] {
            for hasQuote in [false, true] {
                for hasMeta in [false, true] {
                    for images in 0..<10 {
                        let shape = Shape(hasBody: hasBody, hasQuote: hasQuote, hasMeta: hasMeta, images: images)
                        measuringSpecs[shape] = Measuring(spec: measuring(shape).spec, plan: Locked(nil))
                    }
                }
            }
        }
    }

    /// The cell's spec for posts of `shape`, showing `post`'s avatar and pictures (nil:
    /// placeholders, for measuring); `text` makes each text block from its field and the
    /// options the cell gives it. A right-to-left cell is the same spec mirrored,
    /// its author and footer lines aligned to the right (to the avatar's side) rather than
    /// the left; neither changes a size or a line, so every cell is measured left to right.
    ///
    /// - Throws: what `text` throws.
    func spec<E: Error>(_ shape: Shape, post: FeedPost? = nil, rightToLeft: Bool = false,
                        text: (Field, LayoutOptions) throws(E) -> LayoutSpec) throws(E) -> LayoutSpec {
        let s = style
        var rows: [LayoutSpec] = []
        rows.reserveCapacity(5)
        let line = LayoutOptions(maxLines: 1, alignment: rightToLeft ? .right : .left, lineHeightMode: s.lineHeightMode)
        let avatarSize = Size(width: s.avatarSize, height: s.avatarSize)
        let avatar: LayoutSpec = if let source = post?.avatar?.source {
            .picture(id: "avatar", picture: CellPicture(source: source, shape: .circle), size: avatarSize, fill: s.theme.avatarFill)
        } else {
            .box(id: "avatar", size: avatarSize, fill: s.theme.avatarFill)
        }
        // The author, and under it the time and source line when the post has one.
        let name = try text(.author, line)
        let names: LayoutSpec = shape.hasMeta ? .stack(StackSpec(axis: .vertical, spacing: 2, children: [name, try text(.meta, line)])) : name
        rows.append(.stack(StackSpec(axis: .horizontal, spacing: 10, alignment: .center, children: [avatar, names])))
        if shape.hasBody { rows.append(try text(.body, blockOptions(body, maxLines: s.bodyMaxLines))) }
        if shape.hasQuote {
            rows.append(.background(id: "quoteBox", fill: s.theme.quoteFill, .inset(EdgeInsets(all: 8),
                try text(.quote, blockOptions(quote, maxLines: s.quoteMaxLines)))))
        }
        if shape.images > 0 { rows.append(imageGrid(shape, pictures: post?.pictures ?? [])) }
        rows.append(try text(.footer, line))
        let cell = LayoutSpec.inset(s.padding, .stack(StackSpec(axis: .vertical, spacing: s.spacing, children: rows)))
        return rightToLeft ? .mirrored(cell) : cell
    }

    /// A post's cell is right to left when the style's direction, resolved for its body
    /// (`auto`: the body's first strong character), is.
    func isRightToLeft(_ post: FeedPost) -> Bool { style.direction.resolved(for: post.text) == .rightToLeft }

    /// The spec for measuring posts of `shape`: its text blocks are placeholders, each
    /// measured from its field of the post being measured. Kept, with its plan, for the
    /// usual shapes.
    func measuring(_ shape: Shape) -> Measuring {
        measuringSpecs[shape]
            ?? Measuring(spec: spec(shape) { field, options in .attributedText(id: field.rawValue, text: Self.placeholder, options: options) },
                         plan: nil)
    }

    private static let placeholder = AttributedText("")

    /// A field's string styled, in `language` (`Field.language(of:)`): mentions, topics,
    /// hashtags and URLs highlighted in the body and the quote.
    ///
    /// - Throws: `LayoutError` for an emoticon too large to lay out (its table's size times
    ///   the field's point size over 100,000 points): the one thing a post brings that the
    ///   cell style does not bound.
    func attributedText(_ field: Field, _ string: String, language: String?) throws(LayoutError) -> AttributedText {
        func styled(_ style: TextStyle) -> TextStyle {
            guard language != nil else { return style }
            var style = style
            style.language = language
            return style
        }
        switch field {
        case .author: return AttributedText(string.isEmpty ? "—" : string, style: styled(authorStyle))
        case .body: return try richText(string, style: styled(body.plain))
        case .quote: return try richText(string, style: styled(quote.plain))
        case .meta: return AttributedText(string, style: styled(metaStyle))
        case .footer: return AttributedText(string, style: styled(footerStyle))
        }
    }

    /// A body or quote: highlighted (URLs underlined too, when the style says so), then
    /// its emoticon codes made images.
    private func richText(_ string: String, style plain: TextStyle) throws(LayoutError) -> AttributedText {
        var text = Self.highlighter.attributed(string, style: plain, highlightStyle: highlightStyle)
        if style.theme.underlinesURLs {
            text.updateStyles(in: text.highlights.filter { $0.kind == .url }.map(\.range)) { $0.underline = true }
        }
        text = emoticons.attributed(text)
        for attachment in text.attachments { try attachment.attachment.validate() }
        return text
    }

    private func blockOptions(_ styles: BlockStyles, maxLines: Int) -> LayoutOptions {
        LayoutOptions(maxLines: maxLines, truncationToken: styles.token, lineSpacing: style.lineSpacing,
                      lineHeightMode: style.lineHeightMode, hyphenation: style.hyphenation)
    }

    private func imageGrid(_ shape: Shape, pictures: [PostPicture]) -> LayoutSpec {
        // One image: a large box in its own aspect ratio; 2 and 4: two columns of squares;
        // otherwise three (as Weibo does).
        let count = shape.images
        let columns = count == 1 ? 1 : (count == 2 || count == 4) ? 2 : 3
        return .grid(GridSpec(idPrefix: Self.imageIDPrefix, count: count, columns: columns, spacing: style.imageSpacing,
                              fill: style.theme.imageFill, stroke: style.theme.imageStroke, maxSideFraction: count == 1 ? 0.6 : 1,
                              aspectRatio: shape.aspectRatio, pictures: pictures.map { $0.source.map { CellPicture(source: $0) } }))
    }
}
