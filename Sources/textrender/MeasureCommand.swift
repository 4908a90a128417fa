import ArgumentParser
import Foundation
import TextKitLite
import TextKitLiteFrontEnd
import TextKitLiteFeed

struct MeasureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure",
        abstract: "Measure feed posts without drawing: one JSON line per post on stdout.",
        discussion: """
            Reads JSON Lines posts from a file or standard input and writes, in input order,
            {"id", "height", "lines", "lineStarts", "truncated"} per post: the height of the
            whole feed cell (--layout cell; "lines", "lineStarts" and "truncated" are then the
            body's) or of the post's text alone at the full width (--layout text); line starts
            are offsets in Unicode scalars into the text. An integer id stays an integer.
            With several widths (--width 320,375,414,768) each line is {"id", "layouts":
            [{"width", "height", "lines", "lineStarts", "truncated"}, ...]} in their order,
            each equal to a run at that width alone; a post is shaped once for all of them.
            With --layout text, --weight, --italic, --letter-spacing, --features, --variations and --lang
            style the text as render's options do (a post's own "lang" wins over --lang); a
            cell's texts have the feed's styles.
            A malformed line is reported on stderr with its line number and skipped.
            Exit status: 0, or 2 when some lines were bad (all good posts are still output).
            """)

    @OptionGroup var feed: FeedOptions

    @Option(help: "What to measure: cell (the whole feed cell) or text (the post's text alone).")
    var layout: FeedMeasurer.Subject = .cell

    @OptionGroup(title: "Text style of --layout text") var style: ShapingStyleOptions

    @Flag(help: "With --layout text: balance the lines (as many as at the width, broken at the narrowest width that keeps them).")
    var balance = false

    @Option(name: .customLong("exclude"), help: ArgumentHelp(
        "With --layout text: a shape the lines flow around (repeatable), as render's --exclude.", valueName: "shape"))
    var exclude: [String] = []

    @Flag(help: "With --layout text: set the text vertically, as render's --vertical: each --width is a column length (a height), and each line reports the width (\"width\" in place of \"height\").")
    var vertical = false

    func validate() throws {
        _ = try exclusions()
        if layout == .cell, !exclude.isEmpty {
            throw ValidationError("--exclude shapes a text alone: give it with --layout text")
        }
        if !exclude.isEmpty, let refusal = exclusionRefusal(try exclusions()) { throw ValidationError(refusal) }
        if layout == .cell {
            try feed.validateCellWidth()
            if style.isGiven {
                throw ValidationError("--weight, --italic, --letter-spacing, --features, --variations and --lang style a text alone: give them with --layout text (a cell's texts have the feed's styles)")
            }
            if balance { throw ValidationError("--balance balances a text alone: give it with --layout text (a cell's texts break as the feed's style says)") }
            if vertical { throw ValidationError("--vertical sets a text alone: give it with --layout text (a cell's texts are horizontal)") }
        }
    }

    /// Why the library refuses `shapes` beside the other options given (`--vertical`,
    /// `--balance`), naming the options as given; nil when it takes them.
    private func exclusionRefusal(_ shapes: [ExclusionShape]) -> String? {
        var options = LayoutOptions(exclusions: shapes)
        options.lineBalance = balance
        if vertical { options.writingMode = .vertical }
        do { try options.validate() } catch {
            guard case .invalidOption(let property, let value, let reason) = error else { return error.description }
            let (name, shown) = ExcludeOption.refused(property, value: value, vertical: vertical) ?? ("--exclude", value)
            return "invalid \(name) \(shown): \(reason)"
        }
        return nil
    }

    /// The shapes of `--exclude`.
    func exclusions() throws -> [ExclusionShape] {
        try ExcludeOption.shapes(exclude)
    }

    /// The style of a text alone: the body size, and the style options.
    func textStyle() throws -> TextStyle {
        var settings = RenderSettings()
        settings.fontSize = feed.fontOptions.fontSize
        try style.apply(to: &settings)
        return settings.style
    }

    func run() throws {
        let descriptor = try feed.openInput()
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        // Nothing is drawn: heights, line starts and truncation are measured, not laid out.
        let media = try feed.media(consequence: "measured as a placeholder")
        let precomputer = try feed.streamingPrecomputer(media: media)
        let engine = precomputer.engine
        try style.validateVariations(for: engine.fonts, of: Self.self)
        var configured = FeedMeasurer(precomputer: precomputer, subject: layout, widths: feed.widths.values, maxLines: feed.maxLines ?? 0,
                                      textStyle: try textStyle())
        configured.lineBalance = balance
        configured.exclusions = try exclusions()
        if vertical { configured.writingMode = .vertical }
        let measurer = configured
        let pool = RenderQueuePool(workerCount: feed.jobs)
        let progress = FeedProgress(source: feed.source)
        var output = JSONLinesWriter()
        var failure: Error?
        // The reading thread only cuts lines; workers parse, measure and encode them in
        // batches (one job per post cost more than a second core gave), and the results are
        // written in input order. After a failed write, stop reading: batches in flight are
        // dropped.
        let reader = FeedReader(descriptor: descriptor)
        pool.orderedMap(reader.lineBatches(of: Self.batchSize).lazy.prefix { _ in failure == nil }, window: 4 * feed.jobs,
                        transform: { Self.measure($0, with: measurer) }, consume: { parts in
            guard failure == nil else { return }
            do {
                for part in parts {
                    switch part {
                    case .measured(let bytes, let count):
                        try output.write(bytes: bytes)
                        try progress.postsDone(count)
                    case .bad(let error):
                        try output.flush()
                        try progress.reportBad(error)
                    }
                }
            } catch {
                failure = error
            }
        })
        if let failure { throw failure }
        try output.flush()
        // What was read before a read error is measured and written; the run still fails.
        try feed.checkRead(reader)
        // A text alone goes through the word cache only; a cell also through the
        // measured-text cache (recurring authors and quotes) and the height cache.
        try progress.summary("measured", caches: [("word", engine.shapeCache.statistics)] + (layout == .text ? [] : [
            ("text", precomputer.measuredTextStatistics), ("height", precomputer.heightCache.statistics),
        ]), media: media, placeholders: "measured as placeholders")
        if progress.badLines > 0 || media.failureCount > 0 { throw badLinesExitCode }
    }
}

extension MeasureCommand {
    /// Lines a worker takes at once: enough that handing them over costs little, few enough
    /// that the window of batches in flight stays small.
    static let batchSize = 64

    /// What a worker made of a batch, in order: runs of measurement lines (encoded) and
    /// the bad lines between them.
    enum BatchPart: Sendable {
        case measured(bytes: [UInt8], count: Int)
        case bad(FeedLineError)
    }

    /// Parses, measures and encodes a batch of lines.
    static func measure(_ batch: [FeedLine], with measurer: FeedMeasurer) -> [BatchPart] {
        var parts: [BatchPart] = []
        var bytes: [UInt8] = [], count = 0
        for line in batch {
            guard let record = line.record() else { continue }
            switch measurer.measure(record) {
            case .success(let measured):
                try? JSONLines.append(measured, to: &bytes)  // written directly: it never throws
                count += 1
            case .failure(let error):
                if count > 0 { parts.append(.measured(bytes: bytes, count: count)) }
                (bytes, count) = ([], 0)
                parts.append(.bad(error))
            }
        }
        if count > 0 { parts.append(.measured(bytes: bytes, count: count)) }
        return parts
    }
}

extension FeedMeasurer.Subject: ExpressibleByArgument {}
