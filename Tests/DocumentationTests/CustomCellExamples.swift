import Foundation
import Testing
import TextKitLite
import TextKitLiteFeed

/// The code of the article "Building a custom cell", block by block as it shows it.
@Suite struct CustomCellExamples {
    /// The app's assets folder of the article: the repository's examples/, which holds media/.
    let assets = ArticleCodeTests.packageRoot.appendingPathComponent("examples").path

    @Test func buildingACustomCell() async throws {
        let engine = try TextEngine.bundled()
        let name = AttributedText("Mia Chen", style: TextStyle(size: 15, weight: .bold))
        let comment = Highlighter().attributed("Worth the early start, @Omar", style: TextStyle(size: 15),
                                               highlightStyle: HighlightStyle(ink: 70))
        let quoted = AttributedText("Boats at the pier, six in the morning", style: TextStyle(size: 14))

        let header = LayoutSpec.stack(StackSpec(axis: .horizontal, spacing: 8, alignment: .center, children: [
            .picture(id: "avatar", picture: CellPicture(source: "media/avatars/mia.png", shape: .circle),
                     size: Size(width: 40, height: 40), fill: 200),
            .attributedText(id: "name", text: name, options: LayoutOptions(maxLines: 1)),
            .absolute(AbsoluteSpec(children: [                  // 24 × 13: its slot's bounding box
                AbsoluteSpec.Child(.box(id: "more", size: nil, fill: 120), at: Point(x: 4, y: 9), size: Size(width: 20, height: 4)),
            ])),
        ]))

        let photo = LayoutSpec.ratio(9.0 / 16, .picture(id: "photo", picture: CellPicture(source: "media/pictures/boats.jpg"),
                                                        size: nil, fill: 220))
        let badge = LayoutSpec.absolute(AbsoluteSpec(children: [
            AbsoluteSpec.Child(.background(id: "badge", fill: 30, .inset(EdgeInsets(top: 2, left: 6, bottom: 2, right: 6),
                .attributedText(id: "badgeText", text: AttributedText("4K", style: TextStyle(size: 11, ink: .white)),
                                options: LayoutOptions(maxLines: 1)))),
                at: Point(x: 8, y: 8), size: Size(width: 32, height: 18)),
        ]))
        let repost = LayoutSpec.background(id: "repostBox", fill: 240, .inset(EdgeInsets(all: 8),
            .stack(StackSpec(axis: .vertical, spacing: 6, children: [
                .overlay(badge, over: photo),
                .attributedText(id: "quote", text: quoted, options: LayoutOptions(maxLines: 2)),
            ]))))
        let card = LayoutSpec.inset(EdgeInsets(all: 12), .stack(StackSpec(axis: .vertical, spacing: 10, children: [
            header,
            .attributedText(id: "comment", text: comment, options: LayoutOptions(maxLines: 4)),
            repost,
        ])))

        let cell = try CellLayout(spec: card, width: 375, engine: engine, id: "repost-7")
        let photoFrame = cell.element("photo")?.frame       // 335 wide, 335 × 9/16 tall
        let badgeFrame = cell.element("badge")?.frame       // 8 points into the photo's corner
        let measured = try card.measure(width: 375, engine: engine)
        // measured.size.height == cell.height
        #expect(measured.size.height == cell.height && cell.width == 375 && cell.postID == "repost-7")
        #expect(cell.elements.map(\.id) == ["avatar", "name", "more", "comment", "repostBox", "photo", "badge", "badgeText", "quote"])
        let frame = try #require(photoFrame)
        #expect(frame.x == 20 && frame.width == 335 && frame.height == 335 * 9 / 16)
        #expect(badgeFrame?.x == frame.x + 8 && badgeFrame?.y == frame.y + 8 && badgeFrame?.width == 32)
        #expect(cell.element("avatar")?.frame == Rect(x: 12, y: 12, width: 40, height: 40))
        #expect(cell.element("more")?.frame == Rect(x: 363 - 24 + 4, y: 12 + 13.5 + 9, width: 20, height: 4))
        #expect(measured.texts.map(\.id) == ["name", "comment", "badgeText", "quote"])

        let options = RenderOptions(scale: 2, format: .rgba8)
        let renderer = CellRenderer(pictures: FeedMedia(root: assets))   // "media/…" under your assets
        let bitmap = try renderer.render(cell, options: options)
        // bitmap: options.pixels(375) × options.pixels(cell.height) pixels
        let drawn = try #require(bitmap)
        #expect(drawn.width == 750 && drawn.height == options.pixels(cell.height))
        // The picture is drawn (not its fill), the badge over it.
        let inPhoto = drawn.pixel(x: Int(frame.midX * 2), y: Int(frame.maxY * 2) - 20)
        #expect(inPhoto != (220, 220, 220, 255))
        #expect(drawn.pixel(x: Int(frame.x * 2) + 19, y: Int(frame.y * 2) + 19) == (30, 30, 30, 255))

        let target = RenderTarget(name: "repost-7")
        let task = try DisplayTask.cell(cell, renderer: renderer, options: options)
        let transaction = AsyncRenderer.shared.makeTransaction()
        _ = transaction.add(task, on: target)
        let outcomes = await transaction.commit()           // outcomes[0].bitmap: what render gave
        #expect(outcomes.count == 1 && outcomes[0].bitmap == bitmap && target.contents == bitmap)
        #expect(task.width == 750 && task.height == drawn.height)

        let tapped = cell.element(at: Point(x: 30, y: 30))?.id                // "avatar"
        let mention = cell.highlights.first { $0.highlight.highlight.kind == .mention }
        let value = mention?.highlight.highlight.value                       // "@Omar"
        #expect(tapped == "avatar" && value == "@Omar" && mention?.elementID == "comment")
        let rect = try #require(mention?.highlight.rects.first)
        #expect(cell.highlight(at: Point(x: rect.midX, y: rect.midY))?.highlight.highlight.value == "@Omar")
        #expect(cell.element(at: Point(x: frame.x + 9, y: frame.y + 9))?.id == "badge")
        #expect(cell.element(at: Point(x: frame.x + 16, y: frame.y + 14))?.id == "badgeText")
        #expect(cell.element(at: Point(x: frame.midX, y: frame.maxY - 5))?.id == "photo")

        let data = try JSONEncoder().encode(cell)
        let received = try JSONDecoder().decode(CellLayout.self, from: data)
        #expect(received.elements.map(\.frame) == cell.elements.map(\.frame) && received.height == cell.height)
        #expect(try renderer.render(received, options: options) == bitmap)
    }
}
