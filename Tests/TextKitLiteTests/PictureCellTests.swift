import Foundation
import Testing
@testable import TextKitLite
@testable import TextKitLiteFeed
import TextKitLiteMedia

/// Feed cells with pictures: sources resolved (`FeedMedia`), a single picture's box sized by
/// its aspect ratio (declared, or read from the file's header), avatars cut round, broken
/// files drawn as placeholders and reported once, cancellation between pictures, and
/// reference images of cells with an avatar and 1, 4 and 9 pictures.
@Suite struct PictureCellTests {
    /// examples/, which holds examples/media.
    static let examples = Fixtures.testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("examples").path

    static func media(root: String = examples, failures: Locked<[String]>? = nil) -> FeedMedia {
        FeedMedia(root: root) { error in failures?.withLock { $0.append(error.path) } }
    }

    /// The `now` of the cells' times: 2026-11-28T22:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_795_903_200)

    static func precomputer(_ media: FeedMedia?, theme: FeedTheme = .light) -> FeedPrecomputer {
        var style = FeedCellStyle()
        style.theme = theme
        style.now = now
        return FeedPrecomputer(engine: TextEngine(fonts: Fixtures.engine.fonts), style: style, pictures: media)
    }

    static func post(_ id: String, avatar: String? = nil, _ pictures: [PostPicture]) -> FeedPost {
        FeedPost(id: id, author: "Mia", text: "Pictures", avatar: avatar.map { PostPicture(source: $0) }, pictures: pictures)
    }

    @Test func sourcesResolveAgainstTheRootAndOnlyFilesAreRead() throws {
        let media = FeedMedia(root: "/srv/feed")
        #expect(try media.path(of: "media/a.jpg") == "/srv/feed/media/a.jpg")
        #expect(try media.path(of: "/abs/b.png") == "/abs/b.png")
        #expect(try media.path(of: "file:///abs/with%20space.png") == "/abs/with space.png")
        #expect(try media.path(of: "file://localhost/abs/c.png") == "/abs/c.png")
        for source in ["https://example.com/a.jpg", "data:image/png;base64,AAAA", "file://host/a.png"] {
            #expect(throws: ImageError.self, "\(source)") { try media.path(of: source) }
        }
    }

    @Test func aSinglePictureKeepsItsAspectRatio() throws {
        let media = Self.media()
        let precomputer = Self.precomputer(media)
        func box(_ picture: PostPicture) throws -> Rect {
            let cell = try precomputer.layout(Self.post("p", [picture]), width: 375)
            // Measuring (headers only) and layout agree on the height.
            #expect(try precomputer.measure(Self.post("p", [picture]), width: 375).height == cell.height)
            return try #require(cell.element("image0")).frame
        }
        let landscape = try box(PostPicture(source: "media/pictures/boats.jpg"))
        #expect(abs(landscape.width / landscape.height - 800.0 / 450) < 1e-9)
        // The size declared in the post gives the same box without reading the file.
        #expect(try box(PostPicture(source: "media/pictures/boats.jpg", width: 800, height: 450)) == landscape)
        let portrait = try box(PostPicture(source: "media/pictures/autumn-tree.jpg"))
        #expect(abs(portrait.width / portrait.height - 540.0 / 720) < 1e-9)
        #expect(portrait.height == landscape.width)  // both bounded by the same largest side
        // Stored 900 × 540 with EXIF orientation 6: shown 540 × 900, tall.
        let rotated = try box(PostPicture(source: "media/pictures/forest-rotated.jpg"))
        #expect(abs(rotated.width / rotated.height - 540.0 / 900) < 1e-9)
        // Taller than 1:3 is cropped to 1:3; no readable size is a square.
        let strip = try box(PostPicture(source: "media/pictures/leaf-strip.jpg"))
        #expect(abs(strip.width / strip.height - 1.0 / 3) < 1e-9)
        #expect(try box(PostPicture(source: "media/no-such-file.jpg")).width == landscape.width)
        let square = try box(PostPicture(source: "media/no-such-file.jpg"))
        #expect(square.width == square.height)
    }

    @Test func avatarsAreRoundAndPicturesFillTheirBoxes() throws {
        let media = Self.media()
        let cell = try Self.precomputer(media).layout(
            Self.post("a", avatar: "media/avatars/mia.png", [PostPicture(source: "media/pictures/cups.jpg"), PostPicture(source: "media/pictures/pier.jpg")]),
            width: 375)
        let bitmap = try #require(try CellRenderer(pictures: media).render(cell, options: RenderOptions(scale: 2, format: .rgba8, background: .white)))
        let avatar = try #require(cell.element("avatar")).frame
        #expect(cell.element("avatar")?.kind == .picture && cell.element("avatar")?.picture?.shape == .circle)
        let (x0, y0) = (Int(avatar.x * 2), Int(avatar.y * 2))
        let side = Int(avatar.width * 2)
        // Outside the circle: the background; at its centre: the picture (mia.png is pink-orange).
        #expect(bitmap.pixel(x: x0, y: y0) == (255, 255, 255, 255))
        let centre = bitmap.pixel(x: x0 + side / 2, y: y0 + side / 4)
        #expect(centre.0 > 200 && centre.2 < 160, "\(centre)")
        // The edge is anti-aliased: on the middle row, some pixel is between background and picture.
        let row = (x0..<x0 + side / 2).map { bitmap.pixel(x: $0, y: y0 + side / 2) }
        #expect(row.contains { $0.1 < 250 && $0.1 > 140 })
        // The gray JPEG is gray in the cell; the color one is colored.
        let pier = try #require(cell.element("image1")).frame
        let p = bitmap.pixel(x: Int(pier.midX * 2), y: Int(pier.midY * 2))
        #expect(p.0 == p.1 && p.1 == p.2)
        #expect(media.cache.statistics.misses == 3)
        // Drawn again: every picture from the cache.
        _ = try CellRenderer(pictures: media).render(cell, options: RenderOptions(scale: 2, format: .rgba8))
        #expect(media.cache.statistics.hits == 3)
    }

    @Test func brokenPicturesArePlaceholdersReportedOnce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("picture-cells-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let boats = try Data(contentsOf: URL(fileURLWithPath: Self.examples + "/media/pictures/boats.jpg"))
        try boats.prefix(3000).write(to: folder.appendingPathComponent("cut.jpg"))
        try Data("not a picture".utf8).write(to: folder.appendingPathComponent("text.jpg"))
        let failures = Locked<[String]>([])
        let media = Self.media(root: folder.path, failures: failures)
        let post = Self.post("b", avatar: "missing.png", ["cut.jpg", "text.jpg", "missing.png"].map { PostPicture(source: $0) })
        let precomputer = Self.precomputer(media)
        let cell = try precomputer.layout(post, width: 375)
        let renderer = CellRenderer(pictures: media)
        for _ in 0..<2 {
            let bitmap = try #require(try renderer.render(cell, options: RenderOptions(scale: 1, format: .rgba8, background: .white)))
            // Each box shows its placeholder: the theme's image fill.
            for i in 0..<3 {
                let frame = try #require(cell.element("image\(i)")).frame
                let fill = FeedTheme.light.imageFill
                #expect(bitmap.pixel(x: Int(frame.midX), y: Int(frame.midY)) == (fill.red, fill.green, fill.blue, 255))
            }
        }
        // One report per source, each naming its file.
        let reported = failures.withLock { $0 }
        #expect(Set(reported) == [folder.path + "/missing.png", folder.path + "/cut.jpg", folder.path + "/text.jpg"])
        #expect(reported.count == 3 && media.failureCount == 3)
    }

    @Test func cancellationStopsBetweenPictures() throws {
        let media = Self.media()
        let sources = ["boats.jpg", "cups.jpg", "deck.jpg", "dawn.jpg"].map { PostPicture(source: "media/pictures/" + $0) }
        let cell = try Self.precomputer(media).layout(Self.post("c", sources), width: 375)
        // Cancelled once the first picture is decoded: the others never are.
        let result = try CellRenderer(pictures: media).render(cell, options: RenderOptions(scale: 2, format: .rgba8)) {
            media.cache.statistics.misses > 0
        }
        #expect(result == nil)
        #expect(media.cache.statistics.misses == 1)
    }

    /// Cells as `textrender feed` draws them, with an avatar and 1, 4 and 9 pictures: made
    /// from small drawn pictures (written here as PNG and JPEG-free, so the references stay
    /// small) and the example avatars, in both themes.
    @Test func pictureCellSnapshots() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("picture-snapshots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Four-color quadrants with a diagonal, in three shapes.
        func picture(_ name: String, width: Int, height: Int, seed: Int) throws {
            let palette: [(UInt8, UInt8, UInt8)] = [(230, 80, 60), (60, 140, 220), (250, 200, 60), (70, 170, 110), (150, 90, 200)]
            var rgb: [UInt8] = [], gray: [UInt8] = []
            for y in 0..<height {
                for x in 0..<width {
                    let quadrant = (x * 2 / width) + 2 * (y * 2 / height)
                    let c = abs(x * height - y * width) < width * 2 ? palette[4] : palette[(quadrant + seed) % 4]
                    rgb += [c.0, c.1, c.2]
                    gray.append(c.1)
                }
            }
            let image = GrayImage(width: width, height: height, gray: gray, rgb: rgb)
            try Data(try image.pngData()).write(to: folder.appendingPathComponent(name))
        }
        try picture("wide.png", width: 240, height: 160, seed: 0)
        try picture("tall.png", width: 120, height: 180, seed: 1)
        try picture("square.png", width: 150, height: 150, seed: 2)
        let avatar = Self.examples + "/media/avatars/mia.png"
        let names = ["wide.png", "tall.png", "square.png"]
        var posts = [
            Self.post("1", avatar: avatar, [PostPicture(source: "wide.png")]),
            Self.post("4", avatar: avatar, (0..<4).map { PostPicture(source: names[$0 % 3]) }),
            Self.post("9", avatar: "file://" + avatar, (0..<9).map { PostPicture(source: names[$0 % 3]) }),
        ]
        // A time and source line under the author, and counts in the footer: in English, and
        // in Chinese for a Chinese post.
        (posts[1].time, posts[1].source, posts[1].likes) = (Self.now.addingTimeInterval(-180), "iPhone", 45)
        posts[2].text = "九张图"
        (posts[2].time, posts[2].source) = (Self.now.addingTimeInterval(-7200), "微博 weibo.com")
        (posts[2].reposts, posts[2].comments, posts[2].likes) = (12, 3, 45_000)
        let media = Self.media(root: folder.path)
        for (name, theme) in [("light", FeedTheme.light), ("dark", FeedTheme.dark)] {
            let precomputer = Self.precomputer(media, theme: theme)
            for post in posts {
                let cell = try precomputer.layout(post, width: 375)
                let options = RenderOptions(scale: 2, format: .rgba8, background: theme.background)
                let bitmap = try #require(try CellRenderer(pictures: media).render(cell, options: options))
                try SnapshotTests().checkColor("picture-cell-\(post.id)-\(name)", bitmap)
            }
        }
        #expect(media.failureCount == 0)
    }
}
