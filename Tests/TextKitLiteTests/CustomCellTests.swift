import Dispatch
import Foundation
import Testing
@testable import TextKitLite
@testable import TextKitLiteFeed
import TextKitLiteMedia

/// An app's own cell made of layout specs: ratio, overlay and absolute specs and boxes and
/// pictures that fill the space they are given, laid out (`CellLayout(spec:width:engine:id:)`),
/// measured alike, mirrored, drawn, displayed on the queue pool, hit tested and encoded.
@Suite struct CustomCellTests {
    static let engine = TextEngine(fonts: Fixtures.engine.fonts)

    /// A repost card: an avatar, a name and an absolutely placed dot in a row; a picture
    /// twice as wide as tall with a badge over it; a body with a mention.
    static func card(body: String = "Reposting @Mia: a morning at the pier") -> LayoutSpec {
        let body = Highlighter().attributed(body, style: TextStyle(size: 15), highlightStyle: HighlightStyle(ink: 70))
        return .inset(EdgeInsets(all: 10), .stack(StackSpec(axis: .vertical, spacing: 8, children: [
            .stack(StackSpec(axis: .horizontal, spacing: 8, alignment: .center, children: [
                .picture(id: "avatar", picture: CellPicture(source: "media/avatars/mia.png", shape: .circle),
                         size: Size(width: 40, height: 40), fill: 200),
                .attributedText(id: "name", text: AttributedText("Mia Chen", style: TextStyle(size: 15, weight: .bold)),
                                options: LayoutOptions(maxLines: 1)),
                .absolute(AbsoluteSpec(children: [
                    AbsoluteSpec.Child(.box(id: "dot", size: nil, fill: 0), at: Point(x: 4, y: 4), size: Size(width: 12, height: 12)),
                ])),
            ])),
            .overlay(.absolute(AbsoluteSpec(children: [
                AbsoluteSpec.Child(.box(id: "badge", size: nil, fill: 30), at: Point(x: 6, y: 6), size: Size(width: 30, height: 14)),
            ])), over: .ratio(0.5, .picture(id: "photo", picture: CellPicture(source: "media/pictures/cups.jpg"), size: nil, fill: 150))),
            .attributedText(id: "body", text: body, options: LayoutOptions(maxLines: 3)),
        ])))
    }

    static func media() -> FeedMedia { FeedMedia(root: PictureCellTests.examples) }

    @Test func ratioOverlayAndAbsoluteChildrenAreLaidOut() throws {
        let cell = try CellLayout(spec: Self.card(), width: 300, engine: Self.engine, id: "card")
        #expect(cell.elements.map(\.id) == ["avatar", "name", "dot", "photo", "badge", "body"])
        #expect(cell.postID == "card" && cell.width == 300)
        let frame = { (id: String) in cell.element(id)?.frame }
        #expect(frame("avatar") == Rect(x: 10, y: 10, width: 40, height: 40))
        // The name shares the row's rest: 280 − 40 − 16 (the absolute spec's slots) − 2 gaps.
        #expect(frame("name")?.x == 58 && frame("name")?.width == 208)
        // The absolute spec is 16 × 16 (its slot's bounding box), centred in the 40-point row.
        #expect(frame("dot") == Rect(x: 278, y: 26, width: 12, height: 12))
        // The picture fills its ratio: 280 wide, 140 tall; the badge lies over its corner.
        #expect(frame("photo") == Rect(x: 10, y: 58, width: 280, height: 140))
        #expect(frame("badge") == Rect(x: 16, y: 64, width: 30, height: 14))
        let body = try #require(cell.element("body"))
        #expect(body.frame.x == 10 && body.frame.y == 206 && body.frame.width == 280)
        #expect(cell.height == body.frame.maxY + 10)
        #expect(cell.element("photo")?.kind == .picture && cell.element("badge")?.kind == .box)
    }

    /// Boxes and pictures without a size: the width given and the height proposed, square
    /// without a proposal, flexible in a horizontal stack; ratios are clamped; insets take
    /// their share of a proposal; an absolute spec may have its own size.
    @Test func fillingElementsAndTheirProposals() throws {
        func frames(_ spec: LayoutSpec, width: Double = 100) throws -> (Size, [Rect]) {
            let solved = try spec.solve(width: width, engine: Self.engine)
            return (solved.size, solved.elements.map(\.frame))
        }
        #expect(try frames(.box(id: "b", size: nil, fill: 0)) == (Size(width: 100, height: 100), [Rect(x: 0, y: 0, width: 100, height: 100)]))
        #expect(try frames(.ratio(0.25, .inset(EdgeInsets(all: 5), .box(id: "b", size: nil, fill: 0))))
                == (Size(width: 100, height: 25), [Rect(x: 5, y: 5, width: 90, height: 15)]))
        // A fixed box inside a ratio keeps its size; the ratio's is the ratio's.
        #expect(try frames(.ratio(2, .box(id: "b", size: Size(width: 10, height: 10), fill: 0)))
                == (Size(width: 100, height: 200), [Rect(x: 0, y: 0, width: 10, height: 10)]))
        for (ratio, height) in [(Double.nan, 100.0), (-3, 0), (1e9, 10_000), (.infinity, 10_000)] {
            #expect(try frames(.ratio(ratio, .box(id: "b", size: nil, fill: 0))).0 == Size(width: 100, height: height), "\(ratio)")
        }
        // Flexible in a horizontal stack, which proposes its height (a ratio's) to it.
        let row = LayoutSpec.ratio(0.2, .stack(StackSpec(axis: .horizontal, spacing: 10, children: [
            .box(id: "fixed", size: Size(width: 30, height: 5), fill: 0),
            .box(id: "fill", size: nil, fill: 0),
        ])))
        #expect(try frames(row).1 == [Rect(x: 0, y: 0, width: 30, height: 5), Rect(x: 40, y: 0, width: 60, height: 20)])
        // An absolute spec of its own size, whatever its slots.
        let sized = LayoutSpec.stack(StackSpec(axis: .horizontal, children: [
            .absolute(AbsoluteSpec(size: Size(width: 50, height: 8), children: [
                AbsoluteSpec.Child(.box(id: "a", size: nil, fill: 0), at: Point(x: 40, y: 2), size: Size(width: 20, height: 20)),
            ])),
            .box(id: "rest", size: nil, fill: 0),
        ]))
        #expect(try frames(sized) == (Size(width: 100, height: 50), [Rect(x: 40, y: 2, width: 20, height: 20),
                                                                     Rect(x: 50, y: 0, width: 50, height: 50)]))
        // No trap on hostile numbers.
        let hostile = LayoutSpec.absolute(AbsoluteSpec(children: [
            AbsoluteSpec.Child(.ratio(.nan, .picture(id: "p", picture: CellPicture(source: "x"), size: nil, fill: 0)),
                               at: Point(x: .infinity, y: -1e300), size: Size(width: .nan, height: -5)),
        ]))
        _ = try hostile.solve(width: 100, engine: Self.engine)
        _ = try hostile.measure(width: 100, engine: Self.engine)
        #expect(throws: LayoutError.self) { try CellLayout(spec: hostile, width: .nan, engine: Self.engine) }
        #expect(throws: RenderError.self) {
            try CellRenderer().render(CellLayout(postID: "", width: 10, height: .infinity, elements: []))
        }
    }

    /// Measuring equals solving, at each width and at several at once: six widths are placed
    /// four at a time (`SIMD4` lanes), then two with their lanes padded.
    @Test func measuringAgreesWithSolving() throws {
        let widths = [120.0, 300, 375, 90, 414, 768]
        let caption = try Self.engine.shape(AttributedText("A caption under the card, shaped ahead", style: TextStyle(size: 13)))
        let withGrid = LayoutSpec.stack(StackSpec(axis: .vertical, spacing: 4, alignment: .center, children: [
            Self.card(), .text(id: "caption", text: caption, options: LayoutOptions(maxLines: 2)),
            .grid(GridSpec(idPrefix: "image", count: 5, columns: 3, spacing: 4, fill: 90)),
        ]))
        for spec in [Self.card(), .mirrored(Self.card()), Self.card(body: ""), withGrid] {
            for width in widths {
                let solved = try spec.solve(width: width, engine: Self.engine)
                let measured = try spec.measure(width: width, engine: Self.engine)
                #expect(measured.size == solved.size, "\(width)")
                #expect(measured.texts == solved.elements.compactMap { e in e.text.map { MeasuredText(id: e.id, measurement: TextMeasurement($0)) } })
            }
            let plan = try spec.measuringPlan(widths: widths, engine: Self.engine)
            #expect(plan.blocks.map(\.id) == ["name", "body"])
            let planned = try spec.measure(plan, engine: Self.engine, textMeasurer: EngineTextMeasurer())
            for (result, width) in zip(planned, widths) {
                let measured = try spec.measure(width: width, engine: Self.engine)
                #expect(result.size == measured.size && result.texts == measured.texts, "\(width)")
            }
        }
    }

    @Test func mirroringFlipsTheNewSpecsFrames() throws {
        let plain = try Self.card().solve(width: 300, engine: Self.engine)
        let mirrored = try LayoutSpec.mirrored(Self.card()).solve(width: 300, engine: Self.engine)
        #expect(mirrored.size == plain.size && mirrored.elements.map(\.id) == plain.elements.map(\.id))
        for (m, p) in zip(mirrored.elements, plain.elements) {
            #expect(m.frame == Rect(x: 300 - p.frame.maxX, y: p.frame.y, width: p.frame.width, height: p.frame.height), "\(m.id)")
        }
        // The badge ends up over the picture's right corner.
        #expect(mirrored.elements.first { $0.id == "badge" }?.frame == Rect(x: 254, y: 64, width: 30, height: 14))
    }

    @Test func drawnAndHitTested() throws {
        let media = Self.media()
        let cell = try CellLayout(spec: Self.card(), width: 300, engine: Self.engine, id: "card")
        let options = RenderOptions(scale: 2, format: .rgba8)
        let bitmap = try #require(try CellRenderer(pictures: media).render(cell, options: options))
        #expect(bitmap.width == 600 && bitmap.height == options.pixels(cell.height))
        // The badge is drawn over the picture; the picture (cups.jpg) beside it, not its fill.
        #expect(bitmap.pixel(x: 2 * 30, y: 2 * 70) == (30, 30, 30, 255))
        let photo = bitmap.pixel(x: 2 * 150, y: 2 * 128)
        #expect(photo != (150, 150, 150, 255) && photo != (255, 255, 255, 255))
        #expect(bitmap.pixel(x: 2 * 284, y: 2 * 32) == (0, 0, 0, 255))
        #expect(media.cache.statistics.misses == 2)

        #expect(cell.element(at: Point(x: 30, y: 70))?.id == "badge")
        #expect(cell.element(at: Point(x: 150, y: 128))?.id == "photo")
        #expect(cell.element(at: Point(x: 284, y: 32))?.id == "dot")
        #expect(cell.element(at: Point(x: 5, y: 5)) == nil)
        let mention = try #require(cell.highlights.first)
        #expect(mention.elementID == "body" && mention.highlight.highlight.kind == .mention)
        let rect = try #require(mention.highlight.rects.first)
        #expect(cell.highlight(at: Point(x: rect.midX, y: rect.midY))?.highlight.highlight.value == "@Mia")
        #expect(cell.highlight(at: Point(x: 150, y: 128)) == nil)
    }

    @Test func encodedAndDecodedAlike() throws {
        let cell = try CellLayout(spec: Self.card(), width: 300, engine: Self.engine, id: "card")
        let decoded = try JSONDecoder().decode(CellLayout.self, from: JSONEncoder().encode(cell))
        #expect(decoded.postID == "card" && decoded.size == cell.size)
        #expect(decoded.elements.map(\.id) == cell.elements.map(\.id) && decoded.elements.map(\.frame) == cell.elements.map(\.frame))
        #expect(decoded.elements.map(\.picture) == cell.elements.map(\.picture))
        let renderer = CellRenderer(pictures: Self.media())
        #expect(try renderer.render(decoded, options: RenderOptions(scale: 2)) == renderer.render(cell, options: RenderOptions(scale: 2)))
    }

    @Test func displayedOnThePoolAsRendered() async throws {
        let cell = try CellLayout(spec: Self.card(), width: 300, engine: Self.engine)
        let renderer = CellRenderer(pictures: Self.media())
        let options = RenderOptions(scale: 2, format: .rgba8)
        let reference = try #require(try renderer.render(cell, options: options))
        let task = try DisplayTask.cell(cell, renderer: renderer, options: options)
        #expect(task.width == 600 && task.height == reference.height)
        let async = AsyncRenderer(pool: RenderQueuePool(workerCount: 1), callbackQueue: DispatchQueue(label: "test.cells"))
        let transaction = async.makeTransaction()
        _ = transaction.add(task, on: RenderTarget(name: "card"))
        let outcomes = await transaction.commit()
        #expect(outcomes.count == 1 && outcomes[0].bitmap == reference)
        #expect(throws: RenderError.self) { try DisplayTask.cell(cell, options: RenderOptions(scale: .nan)) }
    }

    /// Cancels a target when a picture is first asked for (the target scrolled away while
    /// its cell was drawn), and gives the pictures of `media`.
    struct CancellingSource: PictureSource {
        let media: FeedMedia
        let target: RenderTarget

        func pixelSize(of source: String) -> (width: Int, height: Int)? { media.pixelSize(of: source) }

        func image(_ picture: CellPicture, width: Int, height: Int) -> GrayImage? {
            target.cancel()
            return media.image(picture, width: width, height: height)
        }
    }

    @Test func cancelledWhileDrawingGivesNoBitmap() async throws {
        let cell = try CellLayout(spec: Self.card(), width: 300, engine: Self.engine)
        let target = RenderTarget(name: "card")
        let media = Self.media()
        let pool = RenderQueuePool(workerCount: 1)
        let callbacks = DispatchQueue(label: "test.cells")
        let outcomes = Recorder<DisplayTask.Outcome>()
        let reported = Latch(1)
        let task = try DisplayTask.cell(cell, renderer: CellRenderer(pictures: CancellingSource(media: media, target: target)),
                                        options: RenderOptions(scale: 2), didDisplay: { _, outcome in
                                            outcomes.append(outcome)
                                            reported.countDown()
                                        })
        AsyncRenderer(pool: pool, callbackQueue: callbacks).display(task, on: target)
        await reported.wait()
        await AsyncFixtures.flush(pool)
        await AsyncFixtures.flush(callbacks)
        #expect(outcomes.values.count == 1 && outcomes.values[0].isCancelled && outcomes.values[0].bitmap == nil)
        #expect(target.contents == nil)
        // Stopped before the element after the avatar: the photo was never decoded.
        #expect(media.cache.statistics.misses == 1)
    }
}
