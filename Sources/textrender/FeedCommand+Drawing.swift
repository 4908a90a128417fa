import Foundation
import TextKitLite
import TextKitLiteFeed

extension FeedCommand {
    /// Lines a worker takes at once: a post costs about a millisecond (drawing and writing
    /// its image), so a few suffice for handing them over to cost little, and the window of
    /// batches in flight (their temporary images) stays small.
    static let batchSize = 8

    /// Everything a worker does with a post: parse, lay out, draw, write the image to a
    /// temporary file and encode the post's layouts.jsonl line.
    struct CellDrawer: Sendable {
        let precomputer: FeedPrecomputer
        let renderer: CellRenderer
        let options: RenderOptions
        let width: Double
        let format: Bitmap.FileFormat
        let output: FeedOutput
        /// Each layouts.jsonl line holds the whole drawable cell (`--layouts full`).
        let fullLayouts: Bool

        /// Draws a batch of lines, in order; stops at the first failed write, or before a
        /// post once `isStopped` says so (a write failed, or the run did).
        func draw(_ batch: [FeedLine], isStopped: () -> Bool) -> DrawnBatch {
            var drawn = DrawnBatch()
            for line in batch {
                // The batch of the write that failed is still to be handed over (and
                // reported), or the run has failed already: the rest need not be drawn.
                guard !isStopped() else { return drawn }
                guard let record = line.record() else { continue }
                switch record.result {
                case .failure(let error): drawn.parts.append(.bad(error))
                case .success(let post):
                    let bitmap: Bitmap
                    let cell: CellLayout
                    do {
                        cell = try precomputer.layout(post, width: width, scale: options.scale)
                        guard let image = try renderer.render(cell, options: options) else {
                            drawn.parts.append(.bad(FeedLineError(line: record.line, reason: "render cancelled")))
                            continue
                        }
                        bitmap = image
                    } catch {
                        drawn.parts.append(.bad(FeedLineError(line: record.line, reason: "\(error)")))
                        continue
                    }
                    let name = FeedPost.fileName(forID: post.id, extension: format.fileExtension)
                    do throws(RenderError) {
                        let temporary = try output.writeTemporary(bitmap, format: format, beside: output.filePath(name))
                        let start = drawn.bytes.count
                        let summary = CellRecord(cell, id: post.jsonID, file: name, full: fullLayouts)
                        try? JSONLines.append(summary, to: &drawn.bytes)  // written directly: it never throws
                        drawn.parts.append(.drawn(DrawnCell(postID: post.id, temporary: temporary, record: summary,
                                                            line: start..<drawn.bytes.count)))
                    } catch {
                        drawn.parts.append(.failed(error))
                        return drawn
                    }
                }
            }
            return drawn
        }
    }

    /// What a worker made of a batch of lines: their layouts.jsonl lines, encoded, and what
    /// became of each line, in order.
    struct DrawnBatch: Sendable {
        /// The layouts.jsonl lines of the drawn cells, one after another.
        var bytes: [UInt8] = []
        var parts: [Part] = []

        enum Part: Sendable {
            /// A post drawn: its image in a temporary file, its line in `bytes`.
            case drawn(DrawnCell)
            /// The line is bad (or its post cannot be drawn): reported, skipped.
            case bad(FeedLineError)
            /// Writing failed (a full disk): the run stops.
            case failed(RenderError)
        }

        /// True when a write failed: the run stops.
        var failed: Bool {
            if case .failed = parts.last { return true }
            return false
        }

        /// Removes the batch's temporary images (the run has failed).
        func discard(from output: FeedOutput) {
            for case .drawn(let cell) in parts { output.discard(cell.temporary) }
        }
    }

    /// A drawn post, before it is named in input order.
    struct DrawnCell: Sendable {
        let postID: String
        let temporary: String
        /// Its layouts.jsonl record, whose file is the image's name by the post's id; a
        /// repeated id's post gets another, and its line is encoded again.
        let record: CellRecord
        /// The post's layouts.jsonl line in its batch's bytes (with its newline).
        let line: Range<Int>

        /// The image's name by the post's id.
        var name: String { record.file }
    }
}
