import ArgumentParser
import Foundation
import Synchronization
import TextKitLite
import TextKitLiteFeed

struct FeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Lay out and render every post of a feed: DIR/<name>.png (or .ppm, .pgm) per cell (named after its id) and DIR/layouts.jsonl.",
        discussion: """
            Each cell: avatar and author line, body text (at most --max-lines lines, then the \
            "…全文" expand token), optional quote box, optional image grid, footer; mirrored \
            for a post whose body is right to left (--direction). \
            layouts.jsonl holds, in input order, {"id", "height", "elements": [{"id", "kind", \
            "frame", "lines", "truncated", "highlights"}], "truncated", "file"}; a text \
            element's highlights are [{"kind", "value", "range", "rects"}], ranges in Unicode \
            scalars of its text (of the expand token's, with "truncationToken": true), rects \
            in the cell's coordinates (points). With --layouts full each line also holds \
            "cell": the whole drawable cell (CellLayout's JSON: frames, glyph runs, fonts by \
            name), which a client decodes and draws with CellRenderer without shaping.
            Image names: an id of at most 100 ASCII letters, digits, "-", "_" and "." not \
            starting with "." is the name as it is (abc-1.pgm); any other id gets its first 48 \
            characters with the rest replaced by "_", "+" and 16 hex digits of a 64-bit FNV-1a \
            hash of the id's UTF-8 bytes (小林 -> __+<hash>.pgm). A repeated id's k-th post \
            is NAME+k.pgm (with a warning).
            Images and layouts.jsonl are written to unique temporary names and renamed, so no \
            file is ever half-written; layouts.jsonl appears when the run has finished (the \
            previous one is removed when a run starts). An interrupt (SIGINT, SIGTERM) removes \
            the temporary files and exits with 130 or 143. A directory another run is writing \
            into is refused.
            A malformed line (or a post that cannot be drawn) is reported on stderr with its \
            line number and skipped. A write error (a full disk) stops the run with status 1.
            Exit status: 0, or 2 when some lines were bad (all good posts are still output).
            """)

    @OptionGroup var feed: FeedOptions

    @Option(name: .customLong("out"), help: "Output directory (created if missing).")
    var out: String

    @Option(parsing: .unconditional, help: "Pixels per point.")
    var scale: Double = 2

    @Option(help: "Cell image format: png (color: RGB), ppm (color) or pgm (8-bit gray). Default: png, or pgm with --gray.")
    var format: Bitmap.FileFormat?

    @Option(help: "Cell colors: light (dark text on white, blue links), dark, or gray (gray levels, URLs underlined: the --gray default).")
    var theme: String?

    @Flag(help: "Draw 8-bit gray cells (PGM by default, in the gray theme unless --theme is given): the output of gray-only versions.")
    var gray = false

    @Option(name: .customLong("max-pixels"), parsing: .unconditional, help: "Refuse cell images larger than this many pixels (the post is reported and skipped).")
    var maxPixels: Int = RenderOptions.defaultMaxPixels

    @Option(name: .customLong("layouts"), help: ArgumentHelp("What layouts.jsonl holds per cell: summary (frames, lines, highlights) or full (also the whole drawable cell, for a client that draws it without shaping).",
                               valueName: "summary|full"))
    var layoutsMode: LayoutsMode = .summary

    enum LayoutsMode: String, ExpressibleByArgument, CaseIterable { case summary, full }

    @Flag(help: "Draw a one-pixel separator line across the bottom of each cell.")
    var separator = false

    @Option(help: "Cell direction: auto (each post's body's first strong character), leftToRight, or rightToLeft (mirrored: avatar on the right, author and footer right-aligned, images from the right).")
    var direction: ParagraphDirection = .auto

    func validate() throws {
        _ = try cellTheme()
        guard scale.isFinite, scale > 0, scale <= 100 else { throw ValidationError("invalid --scale \(scale): must be in (0, 100]") }
        guard maxPixels > 0 else { throw ValidationError("invalid --max-pixels \(maxPixels): must be positive") }
        try feed.validateCellWidth()
        guard feed.widths.values.count == 1 else {
            throw ValidationError("invalid --width \(feed.widths.defaultValueDescription): feed draws cells at one width (measure takes several)")
        }
    }

    /// The cells' theme: --theme, else gray with --gray, else light.
    func cellTheme() throws -> FeedTheme {
        guard let theme else { return gray ? .gray : .light }
        guard let named = FeedTheme(named: theme) else {
            throw ValidationError("invalid --theme \(theme): use \(FeedTheme.named.map(\.name).joined(separator: ", "))")
        }
        return named
    }

    /// The image format: --format, else png in color and pgm with --gray.
    var imageFormat: Bitmap.FileFormat { format ?? (gray ? .pgm : .png) }

    func run() throws {
        let theme = try cellTheme()
        let media = try feed.media(consequence: "placeholder drawn")
        let precomputer = try feed.streamingPrecomputer(direction: direction, theme: theme, separator: separator, media: media)
        let descriptor = try feed.openInput()
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        let output = try FeedOutput(path: out)
        let signalSources = output.removeTemporariesOnInterrupt()
        defer { withExtendedLifetime(signalSources) {} }
        do {
            try render(FeedReader(descriptor: descriptor), with: precomputer, media: media, into: output)
        } catch {
            output.abandon()
            throw error
        }
    }

    private func render(_ reader: FeedReader, with precomputer: FeedPrecomputer, media: FeedMedia, into output: FeedOutput) throws {
        let layouts = try output.createTemporaryFile(beside: output.layoutsPath)
        var writer = JSONLinesWriter(file: FileHandle(fileDescriptor: layouts.descriptor, closeOnDealloc: true), name: output.layoutsPath)
        let pixelFormat: Bitmap.PixelFormat = gray || imageFormat == .pgm ? .gray8 : .rgba8
        let options = RenderOptions(scale: scale, format: pixelFormat, background: precomputer.style.theme.background, maxPixels: maxPixels)
        let drawer = CellDrawer(precomputer: precomputer, renderer: CellRenderer(pictures: media), options: options,
                                width: feed.width, format: imageFormat, output: output, fullLayouts: layoutsMode == .full)
        let pool = RenderQueuePool(workerCount: feed.jobs)
        let progress = FeedProgress(source: feed.source)
        var names = FileNames()
        var failure: (any Error)?
        let stopped = Atomic<Bool>(false)
        // The reading thread only cuts lines. Workers parse, lay out and draw batches of
        // them, write each image to a temporary file and encode its layouts.jsonl line; this
        // thread names the images in input order, appends the lines and hands the renames
        // back to the workers. After a failure, stop reading: batches in flight are dropped.
        pool.orderedMap(reader.lineBatches(of: Self.batchSize).lazy.prefix { _ in failure == nil }, window: 4 * feed.jobs,
                        transform: { batch -> DrawnBatch in
            let drawn = drawer.draw(batch) { stopped.load(ordering: .relaxed) }
            if drawn.failed { stopped.store(true, ordering: .relaxed) }
            return drawn
        }, consume: { batch in
            guard failure == nil else { return batch.discard(from: output) }
            do {
                if let error = output.commitFailure { throw error }
                var bytes: [UInt8] = [], renames: [(temporary: String, final: String)] = []
                for part in batch.parts {
                    switch part {
                    case .drawn(let cell):
                        let file = try names.assign(cell.name, to: cell.postID)
                        renames.append((cell.temporary, output.filePath(file.name)))
                        if file.name == cell.name {
                            bytes += batch.bytes[cell.line]
                        } else {
                            var record = cell.record
                            record.file = file.name
                            try JSONLines.append(record, to: &bytes)
                        }
                        if let first = file.repeatOf {
                            try Output.standardError("textrender: warning: id \(cell.postID) repeats (its first image is \(first)); this one is \(file.name)\n")
                        }
                    case .bad(let error):
                        try progress.reportBad(error)
                    case .failed(let error):
                        throw CLIError(error.description)
                    }
                }
                try writer.write(bytes: bytes)
                try progress.postsDone(renames.count)
                output.commit(renames, on: pool)
            } catch {
                failure = error
                stopped.store(true, ordering: .relaxed)
                batch.discard(from: output)
            }
        })
        // Every rename handed to the workers is done (or has failed) before the run ends.
        let committed = Result { () throws(RenderError) in try output.waitForCommits() }
        if let failure { throw failure }
        try committed.get()
        try writer.flush()
        try output.commit(layouts.path, to: output.layoutsPath)
        // What was read before a read error is drawn and recorded; the run still fails.
        try feed.checkRead(reader)
        try progress.summary("rendered", caches: [("word", precomputer.engine.shapeCache.statistics), ("height", precomputer.heightCache.statistics),
                                                  ("glyph", drawer.renderer.textRenderer.glyphCache.statistics),
                                                  ("picture", media.cache.statistics)], media: media)
        if progress.badLines > 0 || media.failureCount > 0 { throw badLinesExitCode }
    }

    /// The file names given so far, so that every post gets its own: the k-th post (k ≥ 2)
    /// with an id seen before gets NAME+k.pgm. Two ids whose names meet (their hashes
    /// collide) stop the run rather than overwrite each other.
    struct FileNames {
        private var used: [String: (id: String, count: Int)] = [:]

        mutating func assign(_ name: String, to id: String) throws -> (name: String, repeatOf: String?) {
            guard let previous = used[name] else {
                used[name] = (id, 1)
                return (name, nil)
            }
            guard previous.id == id else {
                throw CLIError("ids \(previous.id) and \(id) both map to the file name \(name); rename one of them")
            }
            used[name] = (id, previous.count + 1)
            let dot = name.lastIndex(of: ".") ?? name.endIndex
            return (String(name[..<dot]) + "+\(previous.count + 1)" + name[dot...], name)
        }
    }
}
