import Foundation
import Hummingbird
import TextKitLiteFeed

/// An error answered as `{"error": MESSAGE}` with a 4xx or 5xx status.
public struct ServiceError: HTTPResponseError, CustomStringConvertible {
    public let status: HTTPResponse.Status
    public let message: String
    /// Extra response headers (`Retry-After` on a 503).
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { "\(status.code) \(message)" }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var bytes: [UInt8] = []
        try JSONLines.append(["error": message], to: &bytes)
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func badRequest(_ message: String) -> ServiceError { ServiceError(.badRequest, message) }

    static func bodyTooLarge(limit: Int) -> ServiceError {
        ServiceError(.contentTooLarge, "request body larger than \(limit) bytes (the server's --max-body-bytes)")
    }
}
