import ArgumentParser
import Foundation
import TextKitLite
import TextKitLiteFrontEnd
import TextKitLiteFeed
import TextKitLiteMedia

/// Options shared by `feed` and `measure`.
struct FeedOptions: ParsableArguments {
    @Argument(help: "A JSON Lines feed (one post per line: id, author, text, optional quote, avatar and images). Omit or '-' for standard input.")
    var input: String?

    @Option(name: .customLong("media-root"),
            help: ArgumentHelp("The folder relative avatar and image paths are resolved against. Default: the feed file's folder (the current folder for standard input).",
                               valueName: "dir"))
    var mediaRoot: String?

    @Option(name: .customLong("width"), parsing: .unconditional,
            help: ArgumentHelp("Cell width in points; measure takes several, comma-separated (320,375,414,768).", valueName: "points"))
    var widths: Widths = Widths(values: [375])

    /// The one width of a run at one width (`feed`).
    var width: Double { widths.values[0] }

    @Option(name: .customLong("max-lines"), parsing: .unconditional, help: "Body lines before the expand token (0: all). Default: 6 in feed cells; no limit for measure --layout text.")
    var maxLines: Int?

    @Option(name: .customLong("jobs"), parsing: .unconditional,
            help: "Worker threads, at most the machine's active cores (default: all of them).")
    var jobsOption: Int?

    /// Worker threads: --jobs, else one per active core, and never more than the cores: the
    /// work is all computation, and more threads than cores only take turns (and shape the
    /// same new words at once while the word cache is cold).
    var jobs: Int { min(jobsOption ?? Int.max, ProcessInfo.processInfo.activeProcessorCount) }

    @OptionGroup var fontOptions: FontOptions

    @Flag(help: "Hyphenate the body's and quote's words that do not fit a line, by the patterns of the post's language (its \"lang\"; English for untagged Latin text).")
    var hyphenate = false

    @Option(help: ArgumentHelp("The time posts' times are shown relative to (\"3 minutes ago\"): an ISO 8601 date-time, or 'none' to show their dates. Default: the current time.",
                               valueName: "time|none"))
    var now: String?

    @Option(help: ArgumentHelp("Emoticon table (JSON) whose [codes] in posts are drawn as inline images, or 'none'. Default: the bundled examples/emoticons table.",
                               valueName: "file|none"))
    var emoticons: String?

    func validate() throws {
        if case .outOfRange(let width, let reason) = widths.refusal { throw ValidationError("invalid --width \(width): \(reason)") }
        if let jobsOption, !(1...256).contains(jobsOption) {
            throw ValidationError("invalid --jobs \(jobsOption): must be from 1 to 256")
        }
        if let maxLines { try validateMaxLines(maxLines) }
        if let now, now != "none", FeedPost.time(iso8601: now) == nil {
            throw ValidationError("invalid --now \(now): expected an ISO 8601 date-time such as 2026-11-28T21:50:00Z, or none")
        }
    }

    /// A cell's width must leave room inside its padding: checked once here rather than
    /// reported for every line.
    func validateCellWidth() throws {
        for width in widths.values {
            if let reason = cellStyle().cellWidthProblem(width) { throw ValidationError("invalid --width \(width): \(reason)") }
        }
    }

    /// The input as a file descriptor (stdin for none or "-").
    func openInput() throws -> Int32 {
        guard let input, input != "-" else { return STDIN_FILENO }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else { throw CLIError("\(input): no such file") }
        guard !isDirectory.boolValue else { throw CLIError("\(input): is a directory, not a feed file") }
        let descriptor = open(input, O_RDONLY)
        guard descriptor >= 0 else { throw CLIError("\(input): cannot open (\(String(cString: strerror(errno))))") }
        return descriptor
    }

    var source: String { input.flatMap { $0 == "-" ? nil : $0 } ?? "stdin" }

    /// Throws when reading the feed failed (the reader stopped there).
    func checkRead(_ reader: FeedReader) throws {
        if let reason = reader.status.readErrorDescription { throw CLIError("cannot read \(source): \(reason)") }
    }

    /// A precomputer for one pass over a stream of posts: each post is laid out (or
    /// measured) once at one width, so the shaped-text cache (relayout at other widths) is
    /// kept tiny and the height cache only catches posts repeated in the stream; the
    /// shaped-word cache is what pays off. Peak memory stays flat however long the feed.
    /// `direction` is the cells' (`FeedCellStyle.direction`): it moves frames, never heights;
    /// `theme` their colors, which change no frame.
    func streamingPrecomputer(direction: ParagraphDirection = .auto, theme: FeedTheme = .light, separator: Bool = false,
                              media: FeedMedia? = nil) throws -> FeedPrecomputer {
        let engine = TextEngine(fonts: try fontOptions.chain(), shapeCache: ShapeCache(maxEntries: 100_000, maxBytes: 32 << 20))
        var style = cellStyle()
        style.direction = direction
        style.theme = theme
        style.showsSeparator = separator
        return FeedPrecomputer(engine: engine, style: style,
                               heightCache: HeightCache(maxEntries: 10_000, maxBytes: 16 << 20), shapedTextLimit: 64,
                               emoticons: try emoticonTable(emoticons, bundledByDefault: true), pictures: media)
    }

    /// The posts' pictures, read from files under the media root: each source that cannot be
    /// read gets one warning line on standard error, and its cells a placeholder.
    ///
    /// - Parameter consequence: what the warning says became of the picture ("placeholder
    ///   drawn" for `feed`, "measured as a placeholder" for `measure`).
    func media(consequence: String) throws -> FeedMedia {
        let root = mediaRoot ?? FeedMedia.root(forFeedAt: input)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("invalid --media-root \(root): not a folder")
        }
        return FeedMedia(root: root, cache: PictureCache(maxBytes: 64 << 20)) { error in
            try? Output.standardError("textrender: warning: \(error) (\(consequence))\n")
        }
    }

    func cellStyle() -> FeedCellStyle {
        var style = FeedCellStyle(bodySize: fontOptions.fontSize, lineSpacing: fontOptions.lineSpacing, bodyMaxLines: maxLines)
        style.now = now == "none" ? nil : now.flatMap(FeedPost.time(iso8601:)) ?? Self.startTime
        if hyphenate { style.hyphenation = .auto }
        return style
    }

    /// The current time, read once per run: every cell of a run is relative to the same now.
    private static let startTime = Date()
}

/// One width or several, comma-separated: "375", "320,375,414,768" (`OptionRules.feedWidths`).
/// A list that is not numbers is refused while parsing; a width out of range in `validate()`,
/// which names it.
struct Widths: ExpressibleByArgument {
    var values: [Double]
    private(set) var refusal: OptionRules.WidthListError?

    init(values: [Double]) { self.values = values }

    init?(argument: String) {
        switch OptionRules.feedWidths(argument) {
        case .success(let values): self.values = values
        case .failure(.outOfRange(let width, let reason)): (values, refusal) = ([width], .outOfRange(width, reason: reason))
        case .failure: return nil
        }
    }

    var defaultValueDescription: String { values.map { String(format: "%g", $0) }.joined(separator: ",") }
}

/// Progress on stderr (only when it is a terminal), bad-line reports and the summary line.
final class FeedProgress {
    private let interactive = isatty(STDERR_FILENO) == 1
    private let started = Date()
    private(set) var posts = 0
    private(set) var badLines = 0
    private var lastDraw = Date.distantPast
    let source: String

    init(source: String) { self.source = source }

    func reportBad(_ error: FeedLineError) throws {
        badLines += 1
        try clearLine()
        try Output.standardError("textrender: \(source):\(error.line): \(error.reason) (line skipped)\n")
    }

    func postDone() throws { try postsDone(1) }

    func postsDone(_ count: Int) throws {
        posts += count
        guard interactive else { return }
        let now = Date()
        if now.timeIntervalSince(lastDraw) > 0.1 {
            lastDraw = now
            let rate = Double(posts) / max(1e-9, now.timeIntervalSince(started))
            try Output.standardError("\r\(posts) posts, \(Int(rate)) posts/s")
        }
    }

    private func clearLine() throws {
        if interactive { try Output.standardError("\r\u{1B}[K") }
    }

    func summary(_ verb: String, caches: [(String, CacheStatistics)], media: FeedMedia? = nil, placeholders: String = "placeholders drawn") throws {
        try clearLine()
        let seconds = Date().timeIntervalSince(started)
        let rate = Double(posts) / max(1e-9, seconds)
        let cacheText = caches.map { name, statistics in
            "\(name) cache \(String(format: "%.1f", statistics.hitRate * 100))% hits"
                + " (\(statistics.count) entries, \(statistics.cost >> 10) KB, \(statistics.evictions) evicted)"
        }.joined(separator: ", ")
        var bad = badLines == 0 ? "" : ", \(badLines) bad line\(badLines == 1 ? "" : "s") skipped"
        if let failures = media?.failureCount, failures > 0 {
            bad += ", \(failures) picture\(failures == 1 ? "" : "s") unreadable (\(placeholders))"
        }
        try Output.standardError(
            "textrender: \(verb) \(posts) posts\(bad) in \(String(format: "%.2f", seconds)) s (\(String(format: "%.0f", rate)) posts/s); \(cacheText)\n")
    }
}

/// Exit status when some input lines were bad but every good line was processed.
let badLinesExitCode = ExitCode(2)
