import ArgumentParser
import Foundation
import TextKitLite
import TextKitLiteFeed

struct FeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Lay out and render every post of a feed: DIR/<id>.pgm per cell and DIR/layouts.jsonl.",
        discussion: """
            Each cell: avatar and author line, body text (at most --max-lines lines, then the \
            "…全文" expand token), optional quote box, optional image grid, footer. \
            layouts.jsonl holds, in input order, {"id", "height", "elements": [{"id", "kind", \
            "frame", "lines", "truncated"}], "truncated", "file"}. Images are written to a \
            temporary name and renamed, so an interrupted run leaves no half-written PGM.
            A malformed line is reported on stderr with its line number and skipped.
            Exit status: 0, or 2 when some lines were bad (all good posts are still output).
            """)

    @OptionGroup var feed: FeedOptions

    @Option(name: .customLong("out"), help: "Output directory (created if missing).")
    var out: String

    @Option(parsing: .unconditional, help: "Pixels per point.")
    var scale: Double = 2

    struct Element: Encodable {
        var id: String
        var kind: String
        var frame: Rect
        var lines: Int?
        var truncated: Bool?
    }

    struct Record: Encodable {
        var id: String
        var height: Double
        var elements: [Element]
        var truncated: Bool
        var file: String
    }

    func validate() throws {
        guard scale.isFinite, scale > 0, scale <= 100 else { throw ValidationError("invalid --scale \(scale): must be in (0, 100]") }
    }

    func run() throws {
        // Stop at once on an interrupt, even when the parent process ignores it: images are
        // written to temporary names and renamed, so every PGM under its final name is whole.
        // (A parent may also have blocked them; the mask is inherited across exec.)
        signal(SIGINT) { _ in _exit(130) }
        signal(SIGTERM) { _ in _exit(143) }
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            throw CLIError("cannot create output directory \(out): \(error.localizedDescription)")
        }
        let layoutsPath = (out as NSString).appendingPathComponent("layouts.jsonl")
        let temporary = (out as NSString).appendingPathComponent(".layouts.jsonl.tmp-\(getpid())")
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
              let layoutsFile = FileHandle(forWritingAtPath: temporary) else {
            throw CLIError("cannot write in \(out) (permission denied?)")
        }
        let descriptor = try feed.openInput()
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        let precomputer = try feed.streamingPrecomputer()
        let engine = precomputer.engine
        let renderer = CellRenderer()
        let pool = RenderQueuePool(workerCount: feed.jobs)
        let progress = FeedProgress(source: feed.source)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let (width, scale, out) = (feed.width, scale, out)
        var names = Set<String>()
        var failure: Error?
        OrderedParallelMap.run(FeedReader(descriptor: descriptor), pool: pool, window: 16 * feed.jobs, transform: { record -> Result<(CellLayout, String), FeedLineError> in
            record.result.flatMap { post in
                do {
                    let cell = try precomputer.layout(post, width: width, scale: scale)
                    guard let bitmap = try renderer.render(cell, options: RenderOptions(scale: scale)) else {
                        return .failure(FeedLineError(line: record.line, reason: "render cancelled"))
                    }
                    let file = Self.fileName(for: post.id, line: record.line)
                    try bitmap.writePGM(to: (out as NSString).appendingPathComponent(file))
                    return .success((cell, file))
                } catch {
                    return .failure(FeedLineError(line: record.line, reason: "\(error)"))
                }
            }
        }, consume: { result in
            switch result {
            case .success(let (cell, file)):
                if !names.insert(file).inserted {
                    FileHandle.standardError.write(Data("textrender: warning: id \(cell.postID) repeats; \(file) was overwritten\n".utf8))
                }
                let record = Record(
                    id: cell.postID, height: cell.height,
                    elements: cell.elements.map { Element(id: $0.id, kind: $0.kind.rawValue, frame: $0.frame,
                                                          lines: $0.text?.lineCount, truncated: $0.text?.isTruncated) },
                    truncated: cell.isTruncated, file: file)
                do { layoutsFile.write(try encoder.encode(record) + Data("\n".utf8)) } catch { failure = error }
                progress.postDone()
            case .failure(let error):
                progress.reportBad(error)
            }
        })
        try? layoutsFile.close()
        if let failure { throw failure }
        guard rename(temporary, layoutsPath) == 0 else { throw CLIError("cannot write \(layoutsPath): \(String(cString: strerror(errno)))") }
        progress.summary("rendered", caches: [("word", engine.shapeCache.statistics), ("height", precomputer.heightCache.statistics),
                                              ("glyph", renderer.textRenderer.glyphCache.statistics)])
        if progress.badLines > 0 { throw badLinesExitCode }
    }

    /// A safe file name for a post id: letters, digits, "-", "_" and "." kept, the rest
    /// replaced by "_"; ids that are empty or start with "." get the line number.
    static func fileName(for id: String, line: Int) -> String {
        let safe = String(id.unicodeScalars.prefix(120).map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar)) ? Character(scalar) : "_"
        })
        return safe.isEmpty || safe.hasPrefix(".") ? "line\(line)\(safe).pgm" : "\(safe).pgm"
    }
}
