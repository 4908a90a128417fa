import TextKitLite
import TextKitLiteFeed

/// TextKitLite's side of the Pango + cairo comparison (`PangoReport`): what a client does at
/// 1×, one post after another on one thread.
public enum OneScaleWorkloads {
    public static let scale = 1.0

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
    public static func layoutAndDraw(_ posts: [FeedPost], engine: TextEngine, renderer: CellRenderer) -> Int {
        let precomputer = Feed.precomputer(engine)
        let options = RenderOptions(scale: scale)
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

    /// Drawing alone: `renderer` draws precomputed 1× cells.
    public static func draw(_ cells: [CellLayout], renderer: CellRenderer) -> Int {
        let options = RenderOptions(scale: scale)
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
