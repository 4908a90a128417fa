import Foundation
import Hummingbird

/// A request body read chunk by chunk, bounded in size (413), in the wait for each chunk
/// (408, `bodyTimeout`) and in the time for all of it (408, the request's deadline): a
/// client that stalls mid-body, or sends it a byte at a time, cannot hold a request slot
/// for long.
///
/// `@unchecked Sendable`: one task at a time uses it (`/render`'s handler; for `/measure`
/// the task that drains the body, `BodyRecords`). Within `next()` the one child task that
/// reads runs while the caller waits for it (the task group awaits it before returning).
final class BodyReader: @unchecked Sendable {
    private var iterator: RequestBody.AsyncIterator
    private var received = 0
    private let limit: Int
    private let timeout: Duration
    private let requestTimeout: Duration
    private let deadline: ContinuousClock.Instant

    /// - Parameters:
    ///   - limit: the most bytes the body may have.
    ///   - timeout: the longest wait for each chunk.
    ///   - requestTimeout: the longest the whole body may take, counted from now.
    init(_ body: RequestBody, limit: Int, timeout: Duration, requestTimeout: Duration) {
        iterator = body.makeAsyncIterator()
        self.limit = limit
        self.timeout = timeout
        self.requestTimeout = requestTimeout
        deadline = .now + requestTimeout
    }

    /// The next chunk, or nil at the end of the body.
    ///
    /// - Throws: `ServiceError` 413 past the size limit, 408 when no byte came within the
    ///   timeout or the body is not all in by the deadline; what the connection throws.
    func next() async throws -> ByteBuffer? {
        guard let chunk = try await timedRead() else { return nil }
        received += chunk.readableBytes
        guard received <= limit else { throw ServiceError.bodyTooLarge(limit: limit) }
        return chunk
    }

    /// The next chunk, or nil at the end of the body, waiting no longer than the body
    /// timeout and the deadline allow.
    ///
    /// - Throws: `ServiceError` 408 when the wait runs out; what the connection throws.
    private func timedRead() async throws -> ByteBuffer? {
        let left = deadline - .now
        let (wait, late) = left < timeout ? (left, ServiceError.requestTimeout(requestTimeout)) : (timeout, .bodyTimeout(timeout))
        return try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { try await self.read() }
            group.addTask {
                try await Task.sleep(for: wait)
                throw late
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }

    private func read() async throws -> ByteBuffer? { try await iterator.next() }

    /// Reads what is left of the body and drops it, until its end, a stall of the body
    /// timeout or the request's deadline: after an answer that refused the body (413), a
    /// client that sends its whole body before reading (as most do) can finish sending and
    /// read the answer, rather than meeting a reset when the connection closes with its
    /// body unread.
    func discardRest() async {
        while (try? await timedRead()) != nil {}
    }

    /// The whole body.
    func collect() async throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let chunk = try await next() { bytes += chunk.readableBytesView }
        return bytes
    }
}

extension ServiceError {
    static func bodyTimeout(_ timeout: Duration) -> ServiceError {
        ServiceError(.requestTimeout, "no part of the request body came for \(seconds(timeout)) s (the server's --body-timeout)")
    }

    static func requestTimeout(_ timeout: Duration) -> ServiceError {
        ServiceError(.requestTimeout, "the request body did not all come within \(seconds(timeout)) s (the server's --request-timeout)")
    }

    private static func seconds(_ duration: Duration) -> String {
        String(format: "%g", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }
}
