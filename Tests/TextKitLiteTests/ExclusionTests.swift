import Foundation
import Testing
@testable import TextKitLite

/// Exclusion shapes (`LayoutOptions.exclusions`): lines flow around rectangles, circles and
/// polygons, checked on drawn pixels, against measuring, hit testing and Codable.
@Suite struct ExclusionTests {
    static let paragraph = """
        TextKitLite lays out text around shapes the way a magazine page wraps words around a photograph. \
        Each line takes the widest free interval beside the shapes, and lines with no room move down past them.
        A second paragraph, with a 中文句子，标点「引号」。 and more words to fill the lines below the shape again.
        """

    /// Whether a point lies inside a shape by more than `margin` points (inside its shrunk outline).
    static func isDeepInside(_ point: Point, _ shape: ExclusionShape, margin: Double) -> Bool {
        switch shape {
        case .rect(let r):
            return point.x > r.x + margin && point.x < r.maxX - margin && point.y > r.y + margin && point.y < r.maxY - margin
        case .circle(let c, let radius):
            return ((point.x - c.x) * (point.x - c.x) + (point.y - c.y) * (point.y - c.y)).squareRoot() < radius - margin
        case .polygon(let points):
            var inside = false
            for (i, p) in points.enumerated() {
                let q = points[(i + 1) % points.count]
                if (p.y > point.y) != (q.y > point.y), point.x < p.x + (point.y - p.y) * (q.x - p.x) / (q.y - p.y) { inside.toggle() }
                // Distance to the edge: too close counts as outside (antialiasing).
                let (dx, dy) = (q.x - p.x, q.y - p.y)
                let t = max(0, min(1, ((point.x - p.x) * dx + (point.y - p.y) * dy) / (dx * dx + dy * dy)))
                let (ex, ey) = (p.x + t * dx - point.x, p.y + t * dy - point.y)
                if (ex * ex + ey * ey).squareRoot() <= margin { return false }
            }
            return inside
        }
    }

    /// Draws a layout in gray at `scale` (the bitmap exactly the layout's box) and returns
    /// the inked pixels inside its shapes (shrunk by a pixel) and the inked pixels in all.
    static func inkInsideShapes(_ layout: TextLayout, scale: Double = 2) throws -> (inside: Int, inked: Int) {
        let bitmap = try #require(try TextRenderer().render(layout, options: RenderOptions(scale: scale, inkOverflow: .clip)).bitmap)
        var inside = 0, inked = 0
        for py in 0..<bitmap.height {
            for px in 0..<bitmap.width where bitmap.pixels[py * bitmap.width + px] != 255 {
                inked += 1
                let point = Point(x: (Double(px) + 0.5) / scale, y: (Double(py) + 0.5) / scale)
                if layout.options.exclusions.contains(where: { isDeepInside(point, $0, margin: 1 / scale) }) { inside += 1 }
            }
        }
        return (inside, inked)
    }

    static let shapeSets: [[ExclusionShape]] = [
        [.circle(center: Point(x: 40, y: 40), radius: 36)],  // the avatar
        [.circle(center: Point(x: 150, y: 90), radius: 50)],  // in the middle: the wider side
        [.rect(Rect(x: 190, y: 10, width: 110, height: 70)), .rect(Rect(x: 0, y: 120, width: 90, height: 40))],
        [.polygon([Point(x: 0, y: 30), Point(x: 170, y: 90), Point(x: 0, y: 150)])],
        [.polygon([Point(x: 300, y: 0), Point(x: 180, y: 60), Point(x: 260, y: 110), Point(x: 300, y: 200)]),
         .circle(center: Point(x: 20, y: 200), radius: 30)],
    ]

    static let optionSets: [LayoutOptions] = [
        LayoutOptions(width: 300),
        LayoutOptions(width: 300, alignment: .justify, lineHeightMultiple: 0.8),
        LayoutOptions(width: 300, alignment: .center, lineSpacing: 3, lineHeightMode: .uniform, insets: EdgeInsets(all: 6)),
        LayoutOptions(width: 300, alignment: .right, lineHeightMultiple: 1.4, lineHeightMode: .fixed(18)),
        LayoutOptions(width: 300, direction: .rightToLeft),
    ]

    /// Text with a larger run, so that natural lines differ in height.
    static var text: AttributedText {
        var text = AttributedText(paragraph, style: TextStyle(size: 15))
        text.updateStyle(in: 30..<40) { $0.size = 24 }
        return text
    }

    @Test func noInkInsideAnyShape() throws {
        for shapes in Self.shapeSets {
            for var options in Self.optionSets {
                options.exclusions = shapes
                let layout = try Fixtures.engine.layout(Self.text, options: options)
                let (inside, inked) = try Self.inkInsideShapes(layout)
                #expect(inside == 0, "\(shapes) \(options)")
                #expect(inked > 2_000, "\(shapes): the text is drawn")
                // Lines did flow beside the shapes (not only below them).
                let plain = try Fixtures.engine.layout(Self.text, options: { var o = options; o.exclusions = []; return o }())
                #expect(layout.lines.count >= plain.lines.count)
                #expect(layout.lines.contains { line in
                    shapes.contains { $0.extent(top: line.frame.y, bottom: line.frame.y + line.frame.height) != nil }
                }, "\(shapes): some line runs beside a shape")
            }
        }
    }

    /// The avatar case: the first lines start right of the circle, at its chord over their
    /// band, and lines below it start at the left edge again.
    @Test func linesStartBesideTheAvatarThenAtTheEdge() throws {
        let circle = ExclusionShape.circle(center: Point(x: 40, y: 40), radius: 36)
        let text = AttributedText(Self.paragraph, style: TextStyle(size: 15))  // one size: the band is the line box
        let layout = try Fixtures.engine.layout(text, options: LayoutOptions(width: 300, exclusions: [circle]))
        let first = layout.lines[0].frame
        let extent = try #require(circle.extent(top: first.y, bottom: first.maxY))
        #expect(abs(first.x - extent.right) < 1e-9)
        #expect(layout.lines.filter { $0.frame.y >= 76 }.allSatisfy { $0.frame.x == 0 })
        #expect(layout.lines.filter { $0.frame.maxY <= 76 }.allSatisfy { $0.frame.x > 4 && $0.frame.maxX <= 300 + 1e-9 })
    }

    /// A rectangle across the whole width: no line's box meets it, the lines after it start
    /// at its bottom, and the layout grows by about its height.
    @Test func linesSkipARectAcrossTheWidth() throws {
        let band = Rect(x: -10, y: 40, width: 400, height: 55)
        for mode in [LineHeightMode.natural, .uniform, .fixed(22)] {
            var options = LayoutOptions(width: 300, lineSpacing: 2, lineHeightMode: mode, exclusions: [.rect(band)])
            let layout = try Fixtures.engine.layout(Self.text, options: options)
            #expect(!layout.lines.contains { $0.frame.intersects(band) }, "\(mode)")
            let moved = try #require(layout.lines.first { $0.frame.y >= band.maxY })
            // At the rectangle's bottom, or as far below as the paragraph's tallest glyphs overflow the line box.
            #expect(moved.frame.y >= band.maxY && moved.frame.y < band.maxY + 10, "\(mode): \(moved.frame.y)")
            options.exclusions = []
            let plain = try Fixtures.engine.layout(Self.text, options: options)
            #expect(layout.size.height > plain.size.height + 30 && layout.size.height < plain.size.height + band.height + 45)
            #expect(try Fixtures.engine.measure(Self.text, options: layout.options) == TextMeasurement(layout))
        }
    }

    /// A shape wider than the box: lines go below it, or beside its lower part once that
    /// leaves room, never inside.
    @Test func aShapeCoveringEverythingIsPassedBelow() throws {
        let huge = ExclusionShape.circle(center: Point(x: 150, y: 100), radius: 400)
        let layout = try Fixtures.engine.layout(Self.text, options: LayoutOptions(width: 300, exclusions: [huge]))
        #expect(layout.lines[0].frame.y > 400)
        #expect(try Self.inkInsideShapes(layout, scale: 1).inside == 0)
        let wall = ExclusionShape.rect(Rect(x: -5, y: 0, width: 310, height: 500))
        let below = try Fixtures.engine.layout(Self.text, options: LayoutOptions(width: 300, exclusions: [wall]))
        #expect(below.lines[0].frame.y == 500 && below.lines.allSatisfy { $0.frame.x == 0 })
        // Many shapes and an empty paragraph: bounded, and the paragraph's empty line moves too.
        let many = (0..<ExclusionShape.maximumCount - 1).map { ExclusionShape.rect(Rect(x: Double($0 % 7) * 40, y: Double($0) * 3, width: 30, height: 4)) }
        let empty = try Fixtures.engine.layout(AttributedText("a\n\nb", style: TextStyle(size: 15)),
                                               options: LayoutOptions(width: 60, exclusions: many + [.rect(Rect(x: 0, y: 0, width: 60, height: 900))]))
        #expect(empty.lines.count == 3 && empty.lines.allSatisfy { $0.frame.y >= 900 })
    }

    @Test func measuringEqualsLayout() throws {
        let engine = TextEngine(fonts: Fixtures.engine.fonts)
        let texts = [Self.text, AttributedText("", style: TextStyle(size: 15)), AttributedText("a\n\nsupercalifragilisticexpialidocious word", style: TextStyle(size: 19)),
                     AttributedText(String(repeating: "长文本换行测试，", count: 30), style: TextStyle(size: 14))]
        var compared = 0
        for text in texts {
            for shapes in Self.shapeSets {
                for var options in Self.optionSets + [LayoutOptions(width: 300, maxLines: 4, truncationToken: AttributedText("…more")),
                                                      LayoutOptions(width: 300, maxLines: 1, truncation: .middle),
                                                      LayoutOptions(width: 300, maxLines: 3, truncation: .middle)] {
                    options.exclusions = shapes
                    let shaped = try engine.shape(text, direction: options.direction)
                    let widths = [140.0, 300, 420]
                    let several = try engine.measure(text, options: options, widths: widths)
                    for (w, width) in widths.enumerated() {
                        options.width = width
                        let layout = try engine.layout(text, options: options)
                        let measured = try engine.measure(text, options: options)
                        #expect(measured == TextMeasurement(layout), "\(shapes) \(options)")
                        #expect(try engine.measure(shaped, options: options) == measured)
                        #expect(several[w] == measured)
                        compared += 1
                    }
                }
            }
        }
        #expect(compared == 4 * Self.shapeSets.count * 8 * 3)
    }

    /// A character on a line moved right by the avatar is found where it is drawn, and its
    /// rect lies right of the circle.
    @Test func hitTestingFindsCharactersBesideAShape() throws {
        let circle = ExclusionShape.circle(center: Point(x: 40, y: 40), radius: 36)
        let layout = try Fixtures.engine.layout(Self.text, options: LayoutOptions(width: 300, exclusions: [circle]))
        let line = layout.lines[1]
        #expect(line.frame.x > 60)
        let offset = line.range.lowerBound + 2
        let rect = try #require(layout.rects(for: offset..<offset + 1).first)
        #expect(rect.x >= line.frame.x - 1e-9 && rect.x > 60)
        #expect(layout.characterIndex(at: Point(x: rect.x + rect.width * 0.25, y: rect.midY)) == offset)
        #expect(layout.characterIndex(at: Point(x: rect.x + rect.width * 0.75, y: rect.midY)) == offset + 1)
    }

    @Test func codableRoundTripDrawsPixelIdentical() throws {
        for shapes in Self.shapeSets {
            let layout = try Fixtures.engine.layout(Self.text, options: LayoutOptions(width: 300, alignment: .justify, exclusions: shapes))
            let decoded = try JSONDecoder().decode(TextLayout.self, from: JSONEncoder().encode(layout))
            #expect(decoded.options == layout.options)
            #expect(decoded.lines.map(\.frame) == layout.lines.map(\.frame))
            let a = try #require(try TextRenderer().render(layout, options: RenderOptions(scale: 2)).bitmap)
            let b = try #require(try TextRenderer().render(decoded, options: RenderOptions(scale: 2)).bitmap)
            #expect(a.pixels == b.pixels && a.width == b.width)
        }
        // Options without shapes encode as before: no key.
        let json = String(decoding: try JSONEncoder().encode(LayoutOptions(width: 300)), as: UTF8.self)
        #expect(!json.contains("exclusions"))
        let old = try JSONDecoder().decode(LayoutOptions.self, from: Data(json.utf8))
        #expect(old.exclusions.isEmpty)
    }

    @Test func badShapesAreRefusedByName() throws {
        let bad: [(ExclusionShape, String)] = [
            (.circle(center: Point(x: 1, y: 1), radius: 0), "radius"),
            (.circle(center: Point(x: .nan, y: 1), radius: 3), "finite"),
            (.rect(Rect(x: 0, y: 0, width: -1, height: 3)), "width and height"),
            (.rect(Rect(x: 0, y: 0, width: 1, height: 1e9)), "finite"),
            (.polygon([Point(x: 0, y: 0), Point(x: 1, y: 1)]), "3 to"),
        ]
        for (shape, reason) in bad {
            #expect(throws: LayoutError.self) { try Fixtures.engine.layout(Self.text, options: LayoutOptions(width: 300, exclusions: [shape])) }
            do {
                try LayoutOptions(width: 300, exclusions: [shape]).validate()
            } catch {
                #expect(error.description.contains("exclusions") && error.description.contains(reason), "\(error)")
            }
        }
        let tooMany = [ExclusionShape](repeating: .rect(Rect(x: 0, y: 0, width: 1, height: 1)), count: ExclusionShape.maximumCount + 1)
        #expect(throws: LayoutError.self) { try LayoutOptions(width: 300, exclusions: tooMany).validate() }
        let polygon = ExclusionShape.polygon((0..<600).map { Point(x: Double($0 % 2) * 5, y: Double($0)) })
        #expect(throws: LayoutError.self) { try LayoutOptions(width: 300, exclusions: [polygon, polygon]).validate() }
        try LayoutOptions(width: 300, exclusions: [polygon]).validate()
    }

    /// Middle truncation over several lines cuts its last line (which holds the rest of its
    /// paragraph) to that line's own room beside the shapes; balancing and start truncation
    /// over several lines, which move lines away from the shapes they were broken beside,
    /// are refused with exclusions by name.
    @Test func truncationAndBalanceBesideShapes() throws {
        let circle = ExclusionShape.circle(center: Point(x: 40, y: 40), radius: 36)
        let middle = try Fixtures.engine.layout(Self.text, options: LayoutOptions(width: 300, maxLines: 3, truncation: .middle, exclusions: [circle]))
        #expect(middle.lineCount == 3 && middle.isTruncated)
        #expect(try Self.inkInsideShapes(middle).inside == 0)
        let last = middle.lines[2]
        #expect(last.runs.allSatisfy { run in run.glyphs.map(\.position).allSatisfy { Double($0.x) >= 0 } })
        var balanced = LayoutOptions(width: 300, exclusions: [circle])
        balanced.lineBalance = true
        #expect(throws: LayoutError.self) { try Fixtures.engine.layout(Self.text, options: balanced) }
        do { try balanced.validate() } catch { #expect(error.description.contains("lineBalance"), "\(error)") }
        let start = LayoutOptions(width: 300, maxLines: 2, truncation: .start, exclusions: [circle])
        do { try start.validate() } catch { #expect(error.description.contains("truncation"), "\(error)") }
        #expect(throws: LayoutError.self) { try Fixtures.engine.layout(Self.text, options: start) }
        try LayoutOptions(width: 300, maxLines: 1, truncation: .start, exclusions: [circle]).validate()
    }

    /// `render --exclude`: good shapes move the lines; bad ones are usage errors naming the
    /// value and the accepted forms, or why the value is out of range.
    @Test func commandLineTakesShapesAndRefusesBadOnes() throws {
        let run = try TextRenderTool.run(["render", Self.paragraph, "--width", "300", "--exclude", "circle:40,40,36",
                                          "--exclude", "rect:250,0,50,30", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let frames = try #require((report["lines"] as? [[String: Any]])?.compactMap { $0["frame"] as? [String: Double] })
        #expect(frames[0]["x"]! > 60 && frames[0]["x"]! + frames[0]["width"]! <= 250 + 1e-9)
        #expect(frames.last!["x"] == 0)
        let cases: [(String, String)] = [
            ("circle:1,2", "use rect:X,Y,W,H, circle:X,Y,R or polygon:X1,Y1,X2,Y2,X3,Y3,..."),
            ("oval:1,2,3", "invalid --exclude oval:1,2,3: use rect:X,Y,W,H"),
            ("polygon:0,0,1,1", "invalid --exclude polygon:0,0,1,1: use"),
            ("circle:1,2,-3", "invalid --exclude circle:1,2,-3: a circle's radius must be more than 0"),
            ("rect:0,0,10,nan", "invalid --exclude rect:0,0,10,nan: coordinates must be finite"),
        ]
        for (value, message) in cases {
            let result = try TextRenderTool.run(["render", "x", "--exclude", value, "--json"])
            #expect(result.status == 64, "\(value)")
            #expect(result.stderr.contains(message), "\(value): \(result.stderr)")
        }
        // What the library refuses beside the shapes, named by the options given.
        let conflicts: [([String], String)] = [
            (["--vertical"], "invalid --exclude with --vertical: shapes are placed around horizontal lines"),
            (["--balance"], "invalid --balance with --exclude: lines around exclusion shapes each have their own width"),
        ]
        for (options, message) in conflicts {
            let render = try TextRenderTool.run(["render", "x", "--exclude", "circle:1,2,3", "--json"] + options)
            #expect(render.status == 64 && render.stderr.contains(message), "\(options): \(render.stderr)")
            let measure = try TextRenderTool.run(["measure", "--layout", "text", "--exclude", "circle:1,2,3"] + options,
                                                 stdin: Data(#"{"id": 1, "text": "x"}"#.utf8))
            #expect(measure.status == 64 && measure.stderr.contains(message), "\(options): \(measure.stderr)")
        }
    }

    /// `measure --layout text --exclude` measures what `render --exclude` lays out; a cell
    /// refuses the option.
    @Test func measureTakesShapesAsRenderDoes() throws {
        let text = "An avatar sits at the top left and the text flows around it: each line takes the widest free room beside it."
        let post = #"{"id": 1, "text": "\#(text)"}"#
        func measured(_ options: [String]) throws -> (height: Double, starts: [Int]) {
            let result = try TextRenderTool.run(["measure", "--layout", "text", "--width", "200"] + options, stdin: Data(post.utf8))
            #expect(result.status == 0, "\(options): \(result.stderr)")
            let record = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            return (record["height"] as! Double, record["lineStarts"] as! [Int])
        }
        let shapes = ["--exclude", "circle:30,30,28", "--exclude", "rect:120,70,80,40"]
        let rendered = try TextRenderTool.run(["render", text, "--width", "200", "--json"] + shapes)
        let layout = try #require(try JSONSerialization.jsonObject(with: Data(rendered.stdout.utf8)) as? [String: Any])
        let around = try measured(shapes)
        #expect(around.height == layout["height"] as! Double)
        #expect(around.starts == (layout["lines"] as! [[String: Any]]).map { $0["scalarStart"] as! Int })
        #expect(around.starts.count > (try measured([])).starts.count)
        let cell = try TextRenderTool.run(["measure"] + shapes, stdin: Data(post.utf8))
        #expect(cell.status == 64 && cell.stderr.contains("--exclude shapes a text alone"), "\(cell.stderr)")
        let bad = try TextRenderTool.run(["measure", "--layout", "text", "--exclude", "circle:1,2"], stdin: Data(post.utf8))
        #expect(bad.status == 64 && bad.stderr.contains("invalid --exclude circle:1,2: use rect:X,Y,W,H"), "\(bad.stderr)")
    }
}
