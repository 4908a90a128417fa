import Foundation
import Hummingbird

/// A request body read chunk by chunk, bounded in size (413) and in the wait for each
/// chunk (408): a client that stalls mid-body cannot hold a request slot for long.
///
/// `@unchecked Sendable`: one task at a time uses it. `/measure`'s handler reads the first
/// records and then hands the reader to the response body's writer, which Hummingbird runs
/// only after the handler has returned; within `next()` the one child task that reads runs
/// while the caller waits for it (the task group awaits it before returning).
final class BodyReader: @unchecked Sendable {
    private var iterator: RequestBody.AsyncIterator
    private var received = 0
    private let limit: Int
    private let timeout: Duration

    init(_ body: RequestBody, limit: Int, timeout: Duration) {
        iterator = body.makeAsyncIterator()
        self.limit = limit
        self.timeout = timeout
    }

    /// The next chunk, or nil at the end of the body.
    ///
    /// - Throws: `ServiceError` 413 past the size limit, 408 when no byte came within the
    ///   timeout; what the connection throws.
    func next() async throws -> ByteBuffer? {
        let timeout = timeout
        let chunk = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { try await self.read() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw ServiceError.bodyTimeout(timeout)
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        guard let chunk else { return nil }
        received += chunk.readableBytes
        guard received <= limit else { throw ServiceError.bodyTooLarge(limit: limit) }
        return chunk
    }

    private func read() async throws -> ByteBuffer? { try await iterator.next() }

    /// The whole body.
    func collect() async throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let chunk = try await next() { bytes += chunk.readableBytesView }
        return bytes
    }
}

extension ServiceError {
    static func bodyTimeout(_ timeout: Duration) -> ServiceError {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        return ServiceError(.requestTimeout, "no part of the request body came for \(String(format: "%g", seconds)) s (the server's --body-timeout)")
    }
}
