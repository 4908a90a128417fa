import Foundation
import TextKitLite

/// One non-blank line of a JSON Lines feed: the post, or why the line was rejected.
public struct FeedRecord: Sendable {
    /// 1-based line number.
    public let line: Int
    public let result: Result<FeedPost, FeedLineError>
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

    public struct Iterator: IteratorProtocol {
        let descriptor: Int32
        let status: Status
        private var buffer: [UInt8] = []
        private var start = 0
        private var line = 0
        private var atEnd = false
        private var skippingLongLine = false

        init(descriptor: Int32, status: Status) {
            self.descriptor = descriptor
            self.status = status
            buffer.reserveCapacity(1 << 16)
        }

        public mutating func next() -> FeedRecord? {
            while true {
                if let newline = buffer[start...].firstIndex(of: 0x0A) {
                    line += 1
                    let bytes = buffer[start..<newline]
                    start = newline + 1
                    if skippingLongLine {
                        skippingLongLine = false
                        return FeedRecord(line: line, result: .failure(FeedLineError(
                            line: line, reason: "line longer than \(FeedLineParser.maximumLineBytes) bytes")))
                    }
                    if let record = record(bytes) { return record }
                    continue
                }
                if atEnd {
                    guard start < buffer.count || skippingLongLine else { return nil }
                    line += 1
                    let bytes = buffer[start...]
                    start = buffer.count
                    if skippingLongLine {
                        skippingLongLine = false
                        return FeedRecord(line: line, result: .failure(FeedLineError(
                            line: line, reason: "line longer than \(FeedLineParser.maximumLineBytes) bytes")))
                    }
                    if let record = record(bytes) { return record }
                    return nil
                }
                // Keep only the unfinished line, then read more.
                if start > 0 {
                    buffer.removeSubrange(0..<start)
                    start = 0
                }
                if buffer.count > FeedLineParser.maximumLineBytes {
                    buffer.removeAll(keepingCapacity: true)
                    skippingLongLine = true
                }
                atEnd = !fill()
            }
        }

        private func record(_ bytes: ArraySlice<UInt8>) -> FeedRecord? {
            do {
                guard let post = try FeedLineParser.parse(bytes, line: line) else { return nil }
                return FeedRecord(line: line, result: .success(post))
            } catch {
                return FeedRecord(line: line, result: .failure(error))
            }
        }

        /// Reads the next chunk; false at end of input, or on a read error (recorded in `status`).
        private mutating func fill() -> Bool {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    buffer.append(contentsOf: chunk[0..<count])
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
