import Foundation
import TextKitLite

/// One non-blank line of a JSON Lines feed: the post, or why the line was rejected.
public struct FeedRecord: Sendable {
    /// 1-based line number.
    public let line: Int
    public let result: Result<FeedPost, FeedLineError>
}

/// One line of a JSON Lines feed as read, before parsing: so that a reading thread only
/// cuts lines and workers parse them.
public struct FeedLine: Sendable {
    /// 1-based line number.
    public let line: Int
    /// The line's bytes, without its newline; nil for a line too long to keep.
    let bytes: [UInt8]?

    /// The line parsed: the post or why it was rejected; nil for a blank line.
    public func record() -> FeedRecord? {
        guard let bytes else {
            return FeedRecord(line: line, result: .failure(FeedLineError(
                line: line, reason: "line longer than \(FeedLineParser.maximumLineBytes) bytes")))
        }
        do {
            guard let post = try FeedLineParser.parse(bytes, line: line) else { return nil }
            return FeedRecord(line: line, result: .success(post))
        } catch {
            return FeedRecord(line: line, result: .failure(error))
        }
    }
}

/// Reads a JSON Lines feed from a file descriptor as a lazy sequence of records, in
/// chunks: memory stays flat however long the input is, and a line longer than
/// `FeedLineParser.maximumLineBytes` is skipped (reported) without being buffered.
public struct FeedReader: Sequence {
    let descriptor: Int32
    /// Where a failed read is recorded: the records before it were all delivered, and the
    /// sequence ends there. Read by the thread that iterates.
    public let status = Status()

    /// How reading ended.
    public final class Status {
        /// The `errno` of a failed read; nil when the input ended normally (or is not over yet).
        public internal(set) var readError: Int32?

        /// The read error in words ("Input/output error"), if any.
        public var readErrorDescription: String? { readError.map { String(cString: strerror($0)) } }
    }

    /// A reader over an open file descriptor (e.g. `STDIN_FILENO`); the caller closes it.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public func makeIterator() -> Iterator { Iterator(descriptor: descriptor, status: status) }

    /// The feed's lines, unparsed (blank ones too), in order.
    public var lines: Lines { Lines(reader: self) }

    /// The feed's lines, unparsed, in batches of `size` (the last one shorter), in order:
    /// jobs for workers that parse them, so that handing a line over costs little.
    public func lineBatches(of size: Int) -> UnfoldSequence<[FeedLine], Lines> {
        sequence(state: lines) { lines -> [FeedLine]? in
            var batch: [FeedLine] = []
            batch.reserveCapacity(size)
            while batch.count < size, let line = lines.next() { batch.append(line) }
            return batch.isEmpty ? nil : batch
        }
    }

    /// The feed's lines as a sequence (see `lines`).
    public struct Lines: Sequence, IteratorProtocol {
        private var iterator: Iterator

        init(reader: FeedReader) {
            iterator = reader.makeIterator()
        }

        public mutating func next() -> FeedLine? { iterator.nextLine() }
    }

    public struct Iterator: IteratorProtocol {
        let descriptor: Int32
        let status: Status
        private var splitter = FeedLineSplitter()

        init(descriptor: Int32, status: Status) {
            self.descriptor = descriptor
            self.status = status
        }

        public mutating func next() -> FeedRecord? {
            while let line = nextLine() {
                if let record = line.record() { return record }
            }
            return nil
        }

        /// The next line, read as needed.
        mutating func nextLine() -> FeedLine? {
            while true {
                if let line = splitter.nextLine() { return line }
                if splitter.isFinished { return nil }
                if !fill() { splitter.finish() }
            }
        }

        /// Reads the next chunk into the splitter; false at end of input, or on a read error
        /// (recorded in `status`).
        private mutating func fill() -> Bool {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    splitter.append(chunk[0..<count])
                    return true
                }
                if count < 0 {
                    if errno == EINTR { continue }
                    status.readError = errno
                }
                return false
            }
        }
    }
}

/// Cuts JSON Lines input, given in chunks as they arrive, into records: the one line
/// splitter of `FeedReader` (a file descriptor) and the HTTP service (a request body). Only
/// the unfinished line is buffered, and a line longer than `FeedLineParser.maximumLineBytes`
/// is skipped (reported) without being buffered. Blank lines give no record but count.
///
/// Feed it with `append(_:)`; take records with `next()` until it returns nil (it needs
/// more input); call `finish()` at the end of input, after which `next()` gives the last
/// line (one without a final newline) and then nil for good.
public struct FeedLineSplitter: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0
    /// `buffer[start..<scanned]` holds no newline: each byte is searched once, however
    /// small the chunks a long line comes in.
    private var scanned = 0
    private var line = 0
    private var atEnd = false
    private var skippingLongLine = false
    /// True once `finish()` was called and every record was taken.
    public private(set) var isFinished = false

    public init() {
        buffer.reserveCapacity(1 << 16)
    }

    /// Adds the next bytes of the input.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// Marks the end of the input.
    public mutating func finish() { atEnd = true }

    /// The next record, or nil when the input given so far holds no complete line more
    /// (after `finish()`: when there is none left).
    public mutating func next() -> FeedRecord? {
        while let line = nextLine() {
            if let record = line.record() { return record }
        }
        return nil
    }

    /// The next line, blank or not, unparsed; nil as for `next()`.
    public mutating func nextLine() -> FeedLine? {
        while true {
            if let newline = firstNewline(from: max(start, scanned)) {
                line += 1
                let bytes = buffer[start..<newline]
                start = newline + 1
                defer { skippingLongLine = false }
                return FeedLine(line: line, bytes: skippingLongLine ? nil : Array(bytes))
            }
            if atEnd {
                guard start < buffer.count || skippingLongLine else {
                    isFinished = true
                    return nil
                }
                line += 1
                let bytes = buffer[start...]
                start = buffer.count
                defer { skippingLongLine = false }
                return FeedLine(line: line, bytes: skippingLongLine ? nil : Array(bytes))
            }
            // Keep only the unfinished line until more comes.
            scanned = buffer.count - start
            if start > 0 {
                buffer.removeSubrange(0..<start)
                start = 0
            }
            if buffer.count > FeedLineParser.maximumLineBytes {
                buffer.removeAll(keepingCapacity: true)
                scanned = 0
                skippingLongLine = true
            }
            return nil
        }
    }

    /// Index of the first newline in `buffer[from...]` (memchr: a line is mostly searched).
    private func firstNewline(from: Int) -> Int? {
        buffer.withUnsafeBufferPointer { bytes in
            guard from < bytes.count, let base = bytes.baseAddress,
                  let found = memchr(base + from, 0x0A, bytes.count - from) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }
}
