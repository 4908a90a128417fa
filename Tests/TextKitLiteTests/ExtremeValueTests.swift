import Foundation
import Testing
@testable import TextKitLite
import TextKitLiteFeed

/// Every numeric option of layout, drawing, hit testing and feed cells, set to extreme finite
/// values (and NaN and the infinities): each is refused with the library's error naming it,
/// or laid out, drawn and hit-tested to finite results. A Swift runtime trap on a conversion
/// from floating point to an integer ends the test process, so it fails the run.
@Suite struct ExtremeValueTests {
    /// Extreme values: far out finite, past `Float`'s range, past `Int`'s range as pixels,
    /// denormals, both zeros, and the non-finite ones.
    static let extremes: [Double] = [
        1e300, -1e300, .greatestFiniteMagnitude, 1e39, -1e39, 8e18, -8e18, 1e9, 1e6, 1e6 + 1,
        .leastNonzeroMagnitude, -.leastNonzeroMagnitude, Double.leastNormalMagnitude / 4, 1e-300, 0, -0.0, .nan, .infinity, -.infinity,
    ]

    /// What one case sets: the text's style, the layout and render options, where it is
    /// drawn into a small bitmap and where it is hit-tested.
    struct Case {
        var style = TextStyle(size: 17, underline: true)
        var attachment = Size(width: 12, height: 12)
        var descent = 2.0
        var options = LayoutOptions(width: 160, maxLines: 3)
        var render = RenderOptions(scale: 2)
        var origin = Point(x: 3, y: 3)
        var point = Point(x: 20, y: 10)
    }

    /// Each numeric option by name, and how a case takes a value for it.
    static let options: [(name: String, set: @Sendable (inout Case, Double) -> Void)] = [
        ("width", { $0.options.width = $1 }),
        ("inset", { $0.options.insets = EdgeInsets(all: $1) }),
        ("inset.left", { $0.options.insets.left = $1 }),
        ("inset.top", { $0.options.insets.top = $1 }),
        ("lineSpacing", { $0.options.lineSpacing = $1 }),
        ("lineHeightMultiple", { $0.options.lineHeightMultiple = $1 }),
        ("lineHeight", { $0.options.lineHeightMode = .fixed($1) }),
        ("fontSize", { $0.style.size = $1 }),
        ("letterSpacing", { $0.style.letterSpacing = $1 }),
        ("attachment.width", { $0.attachment.width = $1 }),
        ("attachment.height", { $0.attachment.height = $1 }),
        ("attachment.descent", { $0.descent = $1 }),
        ("scale", { $0.render.scale = $1 }),
        ("origin.x", { $0.origin.x = $1 }),
        ("origin.y", { $0.origin.y = $1 }),
        ("point.x", { $0.point.x = $1 }),
        ("point.y", { $0.point.y = $1 }),
        ("width, centred", { $0.options.width = $1; $0.options.alignment = .center }),
        ("width, justified", { $0.options.width = $1; $0.options.alignment = .justify }),
        ("width, right to left", { $0.options.width = $1; $0.options.direction = .rightToLeft }),
    ]

    @Test(arguments: options.indices)
    func extremeValue(_ option: Int) throws {
        let (name, set) = Self.options[option]
        for value in Self.extremes {
            var c = Case()
            set(&c, value)
            try Self.run(c, "\(name) = \(value)")
        }
    }

    /// Values that pass: both ends of each range the library accepts, together.
    @Test func largestAcceptedValuesTogether() throws {
        var c = Case()
        c.options = LayoutOptions(width: LayoutOptions.maximumLength, maxLines: 2, alignment: .center, lineHeightMultiple: 100,
                                  lineSpacing: 1e6, insets: EdgeInsets(top: 1e6, left: 0, bottom: 1e6, right: 1e6 - 1))
        c.style.letterSpacing = -10_000
        c.render = RenderOptions(scale: 100)
        c.point = Point(x: 1e6, y: 3e6)
        try Self.run(c, "all at their largest")
    }

    /// Lays a case out, measures it, hit-tests, renders and draws it. Refusals must be the
    /// library's own errors; what is made must be finite.
    static func run(_ c: Case, _ label: String) throws {
        var text = AttributedText("Hello, 世界 👋 مرحبا @name #topic# https://example.com ", style: c.style)
        let image = GrayImage(width: 2, height: 2, gray: [0, 255, 255, 0], alpha: [255, 0, 0, 255])
        text.append(TextAttachment(size: c.attachment, alignment: .baseline(descent: c.descent), content: .image(image)), style: c.style)
        text.append("\nשלום second paragraph", style: c.style)
        text.setHighlights(Highlighter().highlights(in: String(decoding: text.utf16, as: UTF16.self)))
        let engine = Fixtures.engine
        let layout: TextLayout
        do {
            layout = try engine.layout(text, options: c.options)
        } catch {
            // A refusal: the same one when measuring.
            #expect(throws: LayoutError.self, "\(label)") { _ = try engine.measure(text, options: c.options) }
            return
        }
        let measured = try engine.measure(text, options: c.options)
        #expect(measured == TextMeasurement(layout), "\(label)")
        #expect(layout.size.width.isFinite && layout.size.height.isFinite, "\(label): size \(layout.size)")
        for line in layout.lines {
            #expect(line.frame.x.isFinite && line.frame.y.isFinite && line.frame.width.isFinite && line.baseline.isFinite,
                    "\(label): line \(line.frame)")
            for run in line.runs { #expect(run.glyphs.map(\.position).allSatisfy { $0.x.isFinite && $0.y.isFinite }, "\(label)") }
        }
        // Hit testing and ink bounds: any answer, no trap.
        let index = layout.characterIndex(at: c.point)
        #expect((0...text.utf16.count).contains(index), "\(label): index \(index)")
        _ = layout.rects(for: 0..<text.utf16.count)
        _ = layout.highlight(at: c.point, margin: 4)
        _ = layout.inkBounds
        // Rendering: a bitmap, or the renderer's own refusal (options, pixel limit, memory).
        for overflow in [RenderOptions.InkOverflow.include, .clip] {
            var options = c.render
            options.inkOverflow = overflow
            // A typed throw: a refusal can only be a `RenderError`.
            if let outcome = try? TextRenderer().render(layout, options: options) { #expect(outcome.bitmap != nil, "\(label)") }
        }
        // Drawing into a small bitmap at any origin and scale (`draw` takes its options
        // unchecked): clipped, never out of range.
        var bitmap = try Bitmap(width: 64, height: 32)
        TextRenderer().draw(layout, into: &bitmap, x: c.origin.x, y: c.origin.y, options: c.render)
        #expect(bitmap.pixels.count == 64 * 32)
    }

    /// A layout decoded from JSON whose numbers were changed, each in turn, to an extreme
    /// value (what a client given a damaged or hostile layout draws): it is refused by the
    /// decoder, or drawn, measured for ink and hit-tested without a trap.
    @Test func decodedLayoutsWithExtremeNumbers() throws {
        var text = AttributedText("Hello 世界 👋", style: TextStyle(size: 17, underline: true, strikethrough: true))
        text.append(TextAttachment(size: Size(width: 10, height: 10), content: .image(GrayImage(width: 1, height: 1, gray: [0]))),
                    style: TextStyle())
        let layout = try Fixtures.engine.layout(text, options: LayoutOptions(width: 120, maxLines: 2))
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(layout))
        var paths: [[AnyHashable]] = []
        Self.numberPaths(json, [], into: &paths)
        #expect(paths.count > 20)
        for path in paths {
            for value in [1e300, -1e300, 1e39, 8e18, -8e18, Double.leastNonzeroMagnitude] {
                let changed = Self.replacing(json, at: path[...], with: value)
                guard let data = try? JSONSerialization.data(withJSONObject: changed),
                      let decoded = try? JSONDecoder().decode(TextLayout.self, from: data) else { continue }
                let label = "\(path) = \(value)"
                _ = try? TextRenderer().render(decoded, options: RenderOptions(scale: 2))
                _ = try? TextRenderer().render(decoded, options: RenderOptions(scale: 2, inkOverflow: .clip))
                var bitmap = try Bitmap(width: 32, height: 32)
                TextRenderer().draw(decoded, into: &bitmap, x: 0, y: 0, options: RenderOptions())
                _ = decoded.inkBounds
                _ = decoded.characterIndex(at: Point(x: 10, y: 10))
                _ = decoded.rects(for: 0..<decoded.text.utf16.count)
                _ = decoded.highlight(at: Point(x: 10, y: 10))
                #expect(bitmap.pixels.count == 32 * 32, "\(label)")
            }
        }
    }

    /// The paths (keys and indices) of every number in a JSON value.
    static func numberPaths(_ json: Any, _ path: [AnyHashable], into paths: inout [[AnyHashable]]) {
        switch json {
        case let object as [String: Any]: for (key, value) in object { numberPaths(value, path + [key], into: &paths) }
        case let array as [Any]: for (index, value) in array.enumerated() { numberPaths(value, path + [index], into: &paths) }
        case is NSNumber: paths.append(path)  // booleans too: a number in their place fails to decode
        default: break
        }
    }

    /// A JSON value with the number at `path` replaced.
    static func replacing(_ json: Any, at path: ArraySlice<AnyHashable>, with value: Double) -> Any {
        guard let first = path.first else { return value }
        if var object = json as? [String: Any], let key = first as? String, let inner = object[key] {
            object[key] = replacing(inner, at: path.dropFirst(), with: value)
            return object
        }
        if var array = json as? [Any], let index = first as? Int, array.indices.contains(index) {
            array[index] = replacing(array[index], at: path.dropFirst(), with: value)
            return array
        }
        return json
    }

    /// A feed cell's numeric style values, widths and scales: refused by the style's or the
    /// precomputer's check, or laid out, measured and drawn.
    @Test func feedCellExtremes() throws {
        let post = FeedPost(id: "1", author: "Ann", text: "Hello @bob #topic# https://example.com [微笑]", images: 3)
        let fields: [(String, (inout FeedCellStyle, Double) -> Void)] = [
            ("padding", { $0.padding = EdgeInsets(all: $1) }), ("spacing", { $0.spacing = $1 }),
            ("avatarSize", { $0.avatarSize = $1 }), ("bodySize", { $0.bodySize = $1 }),
            ("imageSpacing", { $0.imageSpacing = $1 }), ("lineSpacing", { $0.lineSpacing = $1 }),
        ]
        for (name, set) in fields {
            for value in Self.extremes {
                var style = FeedCellStyle()
                set(&style, value)
                Self.runCell(post, style: style, width: 375, scale: 2, "\(name) = \(value)")
            }
        }
        for value in Self.extremes {
            Self.runCell(post, style: FeedCellStyle(), width: value, scale: 2, "width = \(value)")
            Self.runCell(post, style: FeedCellStyle(), width: 375, scale: value, "scale = \(value)")
        }
    }

    static func runCell(_ post: FeedPost, style: FeedCellStyle, width: Double, scale: Double, _ label: String) {
        let precomputer = FeedPrecomputer(engine: Fixtures.engine, style: style)
        // Typed throws: a refusal can only be a `LayoutError`, then a `RenderError`.
        guard let cell = try? precomputer.layout(post, width: width, scale: scale) else {
            // Measuring takes no scale: refused alike unless the scale was the refusal.
            if (try? RenderOptions(scale: scale).validate()) != nil {
                #expect(throws: LayoutError.self, "\(label)") { _ = try precomputer.measure(post, width: width) }
            }
            return
        }
        #expect((try? precomputer.measure(post, width: width))?.height == cell.height && cell.height.isFinite, "\(label)")
        _ = try? CellRenderer().render(cell, options: RenderOptions(scale: scale))
    }
}
