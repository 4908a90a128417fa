import TextKitLite
import TextKitLiteFeed

/// TextKitLite's side of the Pango + cairo comparison (`PangoReport`): what a client does at
/// 1×, one post after another on one thread.
public enum OneScaleWorkloads {
    public static let scale = 1.0

    /// Drawing at 1× in `format`, on the default theme's background.
    static func options(_ format: Bitmap.PixelFormat) -> RenderOptions {
        RenderOptions(scale: scale, format: format, background: FeedCellStyle().theme.background)
    }

    /// The cells of `posts` at `Feed.width`, 1×.
    public static func cells(_ posts: [FeedPost], engine: TextEngine) -> [CellLayout] {
        let precomputer = Feed.precomputer(engine)
        return posts.map { post in
            do { return try precomputer.layout(post, width: Feed.width, scale: scale) } catch {
                fatalError("layout of \(post.id): \(error)")
            }
        }
    }

    /// Layout and drawing: a new precomputer over `engine` (words cached, heights not) lays
    /// every post out at 1× and `renderer` draws its cell into a new bitmap, as `textrender
    /// feed --scale 1` does before writing the file.
    ///
    /// - Returns: a checksum of the bitmaps.
    public static func layoutAndDraw(_ posts: [FeedPost], engine: TextEngine, renderer: CellRenderer, format: Bitmap.PixelFormat = .gray8) -> Int {
        let precomputer = Feed.precomputer(engine)
        let options = options(format)
        var checksum = 0
        for post in posts {
            do {
                let cell = try precomputer.layout(post, width: Feed.width, scale: scale)
                guard let bitmap = try renderer.render(cell, options: options) else { fatalError("cancelled") }
                checksum &+= bitmap.height &+ Int(bitmap.pixels[bitmap.pixels.count / 2])
            } catch {
                fatalError("\(post.id): \(error)")
            }
        }
        return checksum
    }

    /// The posts' texts alone, as the Pango + cairo peer is given them: plain text in the
    /// cell's body style (no highlights, no emoticon images).
    public static func bodies(_ posts: [FeedPost]) -> [AttributedText] {
        posts.map { AttributedText($0.text, style: TextStyle(size: FeedCellStyle().bodySize)) }
    }

    /// The body's options in a cell, as the peer sets its layout: the cell's width less its
    /// padding, its line limit (ending with "…") and its line spacing.
    public static let bodyOptions: LayoutOptions = {
        let style = FeedCellStyle()
        return LayoutOptions(width: Feed.width - style.padding.left - style.padding.right, maxLines: style.bodyMaxLines, lineSpacing: style.lineSpacing)
    }()

    /// Measuring the texts alone (`TextEngine.measure`): the peer of Pango's layout.
    ///
    /// - Returns: a checksum of the heights.
    public static func measureBodies(_ bodies: [AttributedText], engine: TextEngine) -> Int {
        var checksum = 0
        for body in bodies {
            do { checksum &+= Int(try engine.measure(body, options: bodyOptions).height) } catch { fatalError("body: \(error)") }
        }
        return checksum
    }

    /// Laying the texts out and drawing each into a new bitmap at 1× (`TextEngine.layout`,
    /// `TextRenderer.render`): the peer of Pango + cairo's layout and A8 (gray) or ARGB32
    /// (`.rgba8`) drawing.
    ///
    /// - Returns: a checksum of the bitmaps.
    public static func layoutAndDrawBodies(_ bodies: [AttributedText], engine: TextEngine, renderer: TextRenderer,
                                           format: Bitmap.PixelFormat = .gray8) -> Int {
        let options = options(format)
        var checksum = 0
        for body in bodies {
            do {
                let layout = try engine.layout(body, options: bodyOptions)
                guard let bitmap = try renderer.render(layout, options: options).bitmap else { fatalError("cancelled") }
                checksum &+= bitmap.height &+ (bitmap.pixels.isEmpty ? 0 : Int(bitmap.pixels[bitmap.pixels.count / 2]))
            } catch {
                fatalError("body: \(error)")
            }
        }
        return checksum
    }

    /// The texts' layouts at the body's options (`TextEngine.layout`), for drawing alone.
    public static func layouts(_ bodies: [AttributedText], engine: TextEngine) -> [TextLayout] {
        bodies.map { body in
            do { return try engine.layout(body, options: bodyOptions) } catch { fatalError("body: \(error)") }
        }
    }

    /// Drawing alone: each layout into a new bitmap at 1× (`TextRenderer.render`), the peer of
    /// Pango + cairo drawing a layout made ahead.
    ///
    /// - Returns: a checksum of the bitmaps.
    public static func drawBodies(_ layouts: [TextLayout], renderer: TextRenderer, format: Bitmap.PixelFormat = .gray8) -> Int {
        let options = options(format)
        var checksum = 0
        for layout in layouts {
            do {
                guard let bitmap = try renderer.render(layout, options: options).bitmap else { fatalError("cancelled") }
                checksum &+= bitmap.height &+ (bitmap.pixels.isEmpty ? 0 : Int(bitmap.pixels[bitmap.pixels.count / 2]))
            } catch {
                fatalError("body: \(error)")
            }
        }
        return checksum
    }

    /// Drawing alone: `renderer` draws precomputed 1× cells.
    public static func draw(_ cells: [CellLayout], renderer: CellRenderer, format: Bitmap.PixelFormat = .gray8) -> Int {
        let options = options(format)
        var checksum = 0
        for cell in cells {
            do {
                guard let bitmap = try renderer.render(cell, options: options) else { fatalError("cancelled") }
                checksum &+= bitmap.height &+ Int(bitmap.pixels[bitmap.pixels.count / 2])
            } catch {
                fatalError("\(cell.postID): \(error)")
            }
        }
        return checksum
    }
}
