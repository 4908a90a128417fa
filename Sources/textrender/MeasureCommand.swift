import ArgumentParser
import Foundation
import TextKitLite

struct MeasureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure",
        abstract: "Measure feed posts without drawing: one JSON line per post on stdout.",
        discussion: """
            Reads JSON Lines posts from a file or standard input and writes, in input order,
            {"id", "height", "lines", "lineStarts", "truncated"} per post: the height of the
            whole feed cell (--layout cell) or of the post's text alone at the full width
            (--layout text); line starts are offsets in Unicode scalars into the text.
            A malformed line is reported on stderr with its line number and skipped.
            Exit status: 0, or 2 when some lines were bad (all good posts are still output).
            """)

    enum Layout: String, ExpressibleByArgument, CaseIterable { case cell, text }

    @OptionGroup var feed: FeedOptions

    @Option(help: "What to measure: cell (the whole feed cell) or text (the post's text alone).")
    var layout: Layout = .cell

    struct Record: Encodable {
        var id: String
        var height: Double
        var lines: Int
        var lineStarts: [Int]
        var truncated: Bool
    }

    func run() throws {
        let descriptor = try feed.openInput()
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        // Nothing is drawn: lines, heights and frames only (no glyph runs).
        let precomputer = try feed.streamingPrecomputer(measureOnly: true)
        let engine = precomputer.engine
        let textOptions = LayoutOptions(width: feed.width, maxLines: feed.maxLines ?? 0, lineSpacing: feed.fontOptions.lineSpacing,
                                        measureOnly: true)
        let textStyle = TextStyle(size: feed.fontOptions.fontSize)
        let pool = RenderQueuePool(workerCount: feed.jobs)
        let progress = FeedProgress(source: feed.source)
        var output = JSONLinesWriter()
        var failure: Error?
        let mode = layout
        let width = feed.width
        OrderedParallelMap.run(FeedReader(descriptor: descriptor), pool: pool, window: 64 * feed.jobs, transform: { record -> Result<Record, FeedLineError> in
            record.result.flatMap { post in
                do {
                    switch mode {
                    case .cell:
                        let cell = try precomputer.layout(post, width: width)
                        let body = cell.element("body")?.text
                        return .success(Record(id: post.id, height: cell.height, lines: body?.lineCount ?? 0,
                                               lineStarts: body.map(Self.lineStarts) ?? [], truncated: cell.isTruncated))
                    case .text:
                        let text = try engine.layout(AttributedText(post.text, style: textStyle), options: textOptions)
                        return .success(Record(id: post.id, height: text.size.height, lines: text.lineCount,
                                               lineStarts: Self.lineStarts(text), truncated: text.isTruncated))
                    }
                } catch {
                    return .failure(FeedLineError(line: record.line, reason: "\(error)"))
                }
            }
        }, consume: { result in
            switch result {
            case .success(let record):
                do { try output.write(record) } catch { failure = error }
                progress.postDone()
            case .failure(let error):
                output.flush()
                progress.reportBad(error)
            }
        })
        output.flush()
        if let failure { throw failure }
        progress.summary("measured", caches: [("word", engine.shapeCache.statistics), ("height", precomputer.heightCache.statistics)])
        if progress.badLines > 0 { throw badLinesExitCode }
    }

    static func lineStarts(_ layout: TextLayout) -> [Int] {
        layout.text.scalarOffsets(utf16Offsets: layout.lines.map(\.range.lowerBound))
    }
}
