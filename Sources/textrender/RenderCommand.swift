import ArgumentParser
import Foundation
import Synchronization
import TextKitLite
import TextKitLiteFrontEnd
import TextKitLiteFeed

extension TextAlignment: ExpressibleByArgument {}
extension Bitmap.FileFormat: ExpressibleByArgument {}
extension TruncationMode: ExpressibleByArgument {}
extension ParagraphDirection: ExpressibleByArgument {}
extension Color: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Lay out a text and render it to a PNG, PPM or PGM image (or print its layout as JSON).",
        discussion: """
            The text comes from the argument, --file, or standard input. Examples:
              textrender render "Hello, 世界 👋 مرحبا" --width 200 --scale 2 --output hello.png
              textrender render "Night mode" --color '#f7f9f9' --background '#15202b' --output night.png
              textrender render --file post.txt --max-lines 3 --truncation-token "…全文" --json
              textrender render "hi @bob, see #swift" --highlight --hit 30,10
            """)

    @Argument(help: "The text to render (omit to use --file or standard input).")
    var text: String?

    @Option(name: .customLong("file"), help: "Read the text from a UTF-8 file.")
    var file: String?

    @Option(parsing: .unconditional, help: "Layout width in points (the box, including insets); 'inf' for no wrapping. With --vertical: the column length (the box's height).")
    var width: Double = 375

    @Flag(help: "Set the text vertically: columns top to bottom, right to left, CJK upright in its vertical forms, other scripts turned sideways. --width is then the column length; --json reports the width the columns take.")
    var vertical = false

    @OptionGroup var fontOptions: FontOptions

    @OptionGroup(title: "Text style") var styleOptions: StyleOptions

    @Option(help: ArgumentHelp("An emoticon table (JSON): its [codes] in the text are drawn as inline images, e.g. examples/emoticons/emoticons.json.",
                               valueName: "file"))
    var emoticons: String?

    @Option(name: .customLong("max-lines"), parsing: .unconditional, help: "Most lines to show, 0 for no limit.")
    var maxLines: Int = 0

    @Option(name: .customLong("truncation-token"), help: "Text shown where the text is cut (default \"…\").")
    var truncationToken: String?

    @Option(help: "Where text is cut when it exceeds --max-lines: \(TruncationMode.allCases.map(\.rawValue).joined(separator: ", ")).")
    var truncation: TruncationMode = .end

    @Option(help: "Line alignment: \(TextAlignment.allCases.map(\.rawValue).joined(separator: ", ")).")
    var align: TextAlignment = .natural

    @Flag(help: "Balance the lines: as many as at --width, broken at the narrowest width that keeps them (not when truncated).")
    var balance = false

    @Option(help: "Paragraph direction: \(ParagraphDirection.allCases.map(\.rawValue).joined(separator: ", ")).")
    var direction: ParagraphDirection = .auto

    @Option(name: .customLong("line-height"), help: ArgumentHelp(
        "Line height: 'natural' (tallest font on each line), 'uniform' (every line as the primary font), or a number of points.",
        valueName: "mode"))
    var lineHeight: String = "natural"

    @Option(name: .customLong("line-height-multiple"), parsing: .unconditional, help: "Line height factor.")
    var lineHeightMultiple: Double = 1

    @Option(parsing: .unconditional, help: "Content insets in points, on every side.")
    var inset: Double = 0

    @Option(name: .customLong("exclude"), help: ArgumentHelp(
        "A shape the lines flow around (repeatable), in points from the box's top-left: rect:X,Y,W,H, circle:X,Y,R or polygon:X1,Y1,X2,Y2,X3,Y3,...",
        valueName: "shape"))
    var exclude: [String] = []

    @Flag(help: "Hyphenate words that do not fit a line, by the patterns of the text's language (--lang; English for untagged Latin text).")
    var hyphenate = false

    @Option(parsing: .unconditional, help: "Pixels per point (1, 2, 3, …).")
    var scale: Double = 1

    @Option(name: .customLong("output"), help: ArgumentHelp(
        "Write the image to this file: FILE.png (color: RGB, or RGBA when not opaque; 8-bit gray with --gray), FILE.ppm (color) or FILE.pgm (8-bit gray), or '-' for standard output with --format.",
        valueName: "file"))
    var output: String?

    @Option(help: "Image format: png, ppm or pgm (default: from the --output file name).")
    var format: Bitmap.FileFormat?

    @Flag(help: "Draw in 8-bit gray (colors as their gray levels): a gray PNG, as PGM always is.")
    var gray = false

    @Option(help: ArgumentHelp("The text's color: #RGB, #RRGGBB, #RRGGBBAA or a CSS color name (default black).", valueName: "color"))
    var color: String?

    @Option(help: ArgumentHelp("The image's background color, in the same forms; 'transparent' for none (default white).", valueName: "color"))
    var background: String?

    @Option(name: .customLong("link-color"), help: ArgumentHelp(
        "The color of highlights (--highlight): in the same forms (default #1d9bf0; gray 70 with --gray).", valueName: "color"))
    var linkColor: String?

    @Flag(help: "Print the layout (lines, ranges, size, highlights) as JSON on standard output.")
    var json = false

    @Flag(help: "Highlight @mentions, #topics#, #hashtags and URLs in the link color, as the feed does.")
    var highlight = false

    @Option(name: .customLong("hit"), parsing: .unconditional, help: ArgumentHelp(
        "Print, as one JSON object, the character index (in scalars) nearest the point X,Y (points, layout coordinates) and the highlight there.",
        valueName: "X,Y"))
    var hit: String?

    @Flag(help: "Draw line boxes and baselines over the text, and --exclude shapes under it.")
    var debug = false

    @Flag(name: .customLong("exact-box"), help: ArgumentHelp(
        "Make the image exactly the layout's box, cutting ink outside it (by default the image grows to hold stacked marks, italic overhangs and other ink past the box)."))
    var exactBox = false

    @Flag(help: "Render through the asynchronous engine (same output).")
    var async = false

    @Option(name: .customLong("cancel-after-lines"), parsing: .unconditional, help: ArgumentHelp(
        "Test hook: render asynchronously and cancel the render after N lines (no file is written).",
        valueName: "N", visibility: .hidden))
    var cancelAfterLines: Int?

    @Option(name: .customLong("max-pixels"), parsing: .unconditional, help: "Refuse bitmaps larger than this many pixels.")
    var maxPixels: Int = RenderOptions.defaultMaxPixels

    func validate() throws {
        if text != nil, file != nil { throw ValidationError("give the text as an argument or with --file, not both") }
        _ = try imageFormat()
        if output == "-", json || hit != nil {
            throw ValidationError("--output - and --\(json ? "json" : "hit") both print to standard output: give one")
        }
        _ = try lineHeightMode()
        _ = try exclusions()
        _ = try hitPoint()
        for (name, value) in [("--color", color), ("--background", background), ("--link-color", linkColor)] {
            _ = try Self.color(value, option: name)
        }
        if hit != nil, json { throw ValidationError("--hit and --json both print to standard output: give one") }
        try validateMaxLines(maxLines)
        if let cancelAfterLines {
            guard cancelAfterLines >= 0 else { throw ValidationError("--cancel-after-lines \(cancelAfterLines): must be 0 or more") }
            guard output != nil else { throw ValidationError("--cancel-after-lines needs --output FILE.pgm") }
        }
        // The layout and drawing options through the library's own checks, as usage errors
        // that name the options as given.
        if let refusal = try renderSettings().refusal {
            let (name, value) = option(for: refusal.property, libraryValue: refusal.value)
            throw ValidationError("invalid \(name) \(value): \(refusal.reason)")
        }
    }

    /// The option behind a property the library's checks name, and its value as given (the
    /// library's, `libraryValue`, for the shapes: the one refused, or their count).
    private func option(for property: String, libraryValue: String) -> (name: String, value: String) {
        if let shapes = ExcludeOption.refused(property, value: libraryValue, vertical: vertical) { return shapes }
        return switch property {
        case "width": ("--width", "\(width)")
        case "lineHeightMultiple": ("--line-height-multiple", "\(lineHeightMultiple)")
        case "lineHeightMode": ("--line-height", lineHeight)
        case "insets": ("--inset", "\(inset)")
        case "scale": ("--scale", "\(scale)")
        case "maxPixels": ("--max-pixels", "\(maxPixels)")
        case "lineSpacing": ("--line-spacing", "\(fontOptions.lineSpacing)")
        case "maxLines": ("--max-lines", "\(maxLines)")
        case "truncation": ("--truncation", "\(truncation)")
        default: (property, "as given")  // every property the checks name is above or in ExcludeOption
        }
    }

    /// A color option's value, or nil when not given.
    static func color(_ value: String?, option: String) throws -> Color? {
        guard let value else { return nil }
        guard let color = Color(value) else { throw ValidationError("invalid \(option) \"\(value)\": \(Color.syntaxReason)") }
        return color
    }

    /// The image format: --format, else the --output file name's extension.
    func imageFormat() throws -> Bitmap.FileFormat? {
        guard let output else { return format }
        if output == "-" {
            guard let format else { throw ValidationError("--output - needs --format png, ppm or pgm") }
            return format
        }
        let named = Bitmap.FileFormat(path: output)
        guard let chosen = format ?? named else {
            throw ValidationError("--output \(output): the file name must end in .png, .ppm or .pgm (or give --format)")
        }
        if let named, named != chosen {
            throw ValidationError("--output \(output) names a .\(named.fileExtension) file but --format is \(chosen.rawValue)")
        }
        return chosen
    }

    func lineHeightMode() throws -> LineHeightMode {
        guard let mode = LineHeightMode(option: lineHeight) else {
            throw ValidationError("invalid --line-height \(lineHeight): \(OptionRules.lineHeightReason)")
        }
        return mode
    }

    /// The shapes of `--exclude`.
    func exclusions() throws -> [ExclusionShape] {
        try ExcludeOption.shapes(exclude)
    }

    /// The point of `--hit`, if given.
    func hitPoint() throws -> Point? {
        guard let hit else { return nil }
        let parts = hit.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let x = parts[0], let y = parts[1], x.isFinite, y.isFinite else {
            throw ValidationError("invalid --hit \(hit): use X,Y in points (two finite numbers)")
        }
        return Point(x: x, y: y)
    }

    func run() throws {
        let string: String
        if let text {
            string = text
        } else if let file {
            string = try TextInput.read(file: file)
        } else if isatty(STDIN_FILENO) == 0 {
            string = try TextInput.readStandardInput()
        } else {
            throw ValidationError("no text: give it as an argument, with --file, or on standard input")
        }
        let engine = TextEngine(fonts: try fontOptions.chain())
        try styleOptions.shaping.validateVariations(for: engine.fonts, of: Self.self)
        let settings = try renderSettings()
        let layout: TextLayout
        let text = try emoticonTable(emoticons).attributed(settings.attributed(string))
        do {
            layout = try engine.layout(text, options: settings.layoutOptions)
        } catch {
            throw CLIError(error.description)
        }
        // After the text, fonts and options are checked, so a bad value is reported first.
        if output == nil, !json, hit == nil {
            try usageFailure("nothing to do: give --output FILE.png|FILE.ppm|FILE.pgm, --json or --hit X,Y", of: Self.self)
        }
        if let output {
            let renderOptions = settings.renderOptions
            do {
                let bitmap: Bitmap
                if async || cancelAfterLines != nil {
                    bitmap = try renderAsynchronously(layout, options: renderOptions)
                } else {
                    let outcome = try TextRenderer().render(layout, options: renderOptions)
                    guard let drawn = outcome.bitmap else { throw CLIError("render cancelled") }
                    bitmap = drawn
                }
                let format = try imageFormat() ?? .png
                if output == "-" {
                    try OutputFile.write(bitmap, toDescriptor: STDOUT_FILENO, path: "standard output", format: format)
                } else {
                    try OutputFile.write(bitmap, to: output, format: format)
                }
            } catch let error as RenderError {
                throw CLIError(error.description)
            }
        }
        if json { try printJSON(layout) }
        if let point = try hitPoint() {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            try Output.standardOutput(try encoder.encode(HitReport(layout, at: point)) + Data("\n".utf8))
        }
    }

    /// The options as the library's render settings.
    private func renderSettings() throws -> RenderSettings {
        var settings = RenderSettings()
        settings.width = width
        settings.fontSize = fontOptions.fontSize
        settings.lineSpacing = fontOptions.lineSpacing
        try styleOptions.apply(to: &settings)
        settings.maxLines = maxLines
        settings.truncationToken = truncationToken
        settings.truncation = truncation
        settings.alignment = align
        settings.lineBalance = balance
        settings.direction = direction
        settings.lineHeightMode = try lineHeightMode()
        settings.lineHeightMultiple = lineHeightMultiple
        settings.inset = inset
        settings.exclusions = try exclusions()
        if hyphenate { settings.hyphenation = .auto }
        if vertical { settings.writingMode = .vertical }
        settings.highlight = highlight
        settings.scale = scale
        settings.debug = debug
        settings.maxPixels = maxPixels
        settings.inkOverflow = exactBox ? .clip : .include
        let pgm = try imageFormat() == .pgm
        settings.format = gray || pgm ? .gray8 : .rgba8
        settings.color = try Self.color(color, option: "--color") ?? .black
        settings.background = try Self.color(background, option: "--background") ?? .white
        settings.linkColor = try Self.color(linkColor, option: "--link-color")
        return settings
    }

    /// Renders through the asynchronous engine (a display request on a target, drawn on the
    /// worker pool, reported on the callback queue) and waits for the result. With
    /// `--cancel-after-lines N`, the target is cancelled once N lines are drawn.
    ///
    /// - Throws: `RenderError` from the render; `CLIError` when it was cancelled.
    private func renderAsynchronously(_ layout: TextLayout, options: RenderOptions) throws -> Bitmap {
        let target = RenderTarget(name: "textrender")
        let progress = AsyncRenderProgress()
        let cancelAfter = cancelAfterLines
        let task = try DisplayTask.text(
            layout, options: options,
            lineDrawn: { index in
                progress.lineDrawn()
                if let cancelAfter, index + 1 == cancelAfter { target.cancel() }
            },
            willDisplay: { target in if cancelAfter == 0 { target.cancel() } },
            didDisplay: { _, outcome in progress.finish(outcome) })
        AsyncRenderer.shared.display(task, on: target)
        let outcome = progress.wait()
        if let bitmap = outcome.bitmap {
            if let cancelAfter, cancelAfter >= layout.lineCount {
                try Output.standardError(
                    "textrender: --cancel-after-lines \(cancelAfter): the layout has \(layout.lineCount) lines; nothing to cancel\n")
            }
            return bitmap
        }
        if let error = outcome.error { throw error }
        throw CLIError("render cancelled after \(progress.linesDrawn) of \(layout.lineCount) lines (--cancel-after-lines); no file written")
    }

    private func printJSON(_ layout: TextLayout) throws {
        try LayoutReport(layout).write(to: JSONLinesWriter())
    }
}

/// What `renderAsynchronously` waits for: the lines drawn so far and the display's outcome.
private final class AsyncRenderProgress: Sendable {
    private let lines = Atomic<Int>(0)
    private let outcome = Locked<DisplayTask.Outcome?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    func lineDrawn() { lines.add(1, ordering: .relaxed) }
    var linesDrawn: Int { lines.load(ordering: .relaxed) }

    func finish(_ result: DisplayTask.Outcome) {
        outcome.withLock { $0 = result }
        finished.signal()
    }

    /// Blocks until `finish` (called on the engine's callback queue, not this thread).
    func wait() -> DisplayTask.Outcome {
        finished.wait()
        return outcome.withLock { $0! }
    }
}

/// The JSON shape of `render --json`: width, height, ink bounds, measured width, line count,
/// truncation, each line, the highlights shown and the attachments, written as it is encoded
/// (`write(to:)`), one line of the layout at a time.
struct LayoutReport {
    struct Line: Encodable {
        var text: String
        var utf16Range: [Int]
        var scalarStart: Int
        var scalarEnd: Int
        var frame: Rect
        var baseline: Double
        var ascent: Double
        var descent: Double
        var runs: Int
        var truncated: Bool
    }

    /// An inline attachment: its U+FFFC as a range of Unicode scalars (of the truncation
    /// token when `truncationToken` is set) and its box in points.
    struct Attachment: Encodable {
        var range: [Int]
        var rect: Rect
        var truncationToken: Bool?
    }

    private let layout: TextLayout
    /// Each line's start and end in Unicode scalars, in one pass over the text.
    private let bounds: [Int]

    init(_ layout: TextLayout) {
        self.layout = layout
        bounds = layout.text.scalarOffsets(utf16Offsets: layout.lines.flatMap { [$0.range.lowerBound, $0.range.upperBound] })
    }

    /// The report of line `index`.
    func line(_ index: Int) -> Line {
        let line = layout.lines[index]
        return Line(
            text: String(decoding: layout.text.utf16[line.range], as: UTF16.self), utf16Range: [line.range.lowerBound, line.range.upperBound],
            scalarStart: bounds[2 * index], scalarEnd: bounds[2 * index + 1],
            frame: line.frame, baseline: line.baseline, ascent: line.ascent, descent: line.descent,
            runs: line.runs.count, truncated: line.isTruncated)
    }

    /// The attachments of the lines shown.
    var attachments: [Attachment] {
        let placed = layout.lines.flatMap(\.attachments)
        // Each text's attachments by offset (lines list theirs left to right), their scalar
        // offsets found in one pass over it.
        var starts = [Int](repeating: 0, count: placed.count)
        for inTruncationToken in [false, true] {
            let text = inTruncationToken ? layout.options.truncationToken ?? AttributedText("") : layout.text
            let indices = placed.indices.filter { placed[$0].isTruncationToken == inTruncationToken }.sorted { placed[$0].offset < placed[$1].offset }
            for (index, start) in zip(indices, text.scalarOffsets(utf16Offsets: indices.map { placed[$0].offset })) { starts[index] = start }
        }
        return zip(placed, starts).map { placed, start in
            Attachment(range: [start, start + 1], rect: placed.rect, truncationToken: placed.isTruncationToken ? true : nil)
        }
    }

    /// Writes the report, then a line break, as `JSONEncoder` pretty-prints it with sorted
    /// keys, member by member and element by element (`PrettyJSONObject`): `inkBounds` (the
    /// layout's ink bounds in points, layout coordinates) is absent when nothing is inked;
    /// `highlights` are the highlights shown (`TextLayout.highlights`), ranges in scalars.
    ///
    /// - Throws: `CLIError` when the writer cannot write.
    /// - Complexity: O(text + lines); memory for one line's report at a time beside the
    ///   writer's 64 KB buffer.
    func write(to writer: JSONLinesWriter) throws {
        var object = try PrettyJSONObject(writer: writer)
        let attachments = self.attachments
        try object.array("attachments", count: attachments.count) { attachments[$0] }
        try object.member("height", layout.size.height)
        let highlights = HighlightReport.reports(layout.highlights, in: layout)
        try object.array("highlights", count: highlights.count) { highlights[$0] }
        if let inkBounds = layout.inkBounds { try object.member("inkBounds", inkBounds) }
        try object.member("lineCount", layout.lineCount)
        try object.array("lines", count: layout.lines.count, line)
        try object.member("measuredWidth", layout.measuredWidth)
        try object.member("truncated", layout.isTruncated)
        try object.member("width", layout.size.width)
        try object.end()
    }
}
