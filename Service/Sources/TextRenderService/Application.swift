import Foundation
import Hummingbird
import Logging
import NIOCore
import TextKitLite
import TextKitLiteFeed

extension TextService {
    /// The routes: `GET /health`, `POST /measure`, `POST /render`.
    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("health") { _, _ in
            var bytes: [UInt8] = []
            try JSONLines.append(Health(status: "ok", inFlight: self.gate.inFlight, maxConcurrent: self.gate.limit), to: &bytes)
            return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        router.post("measure") { request, _ in try await self.measure(request) }
        router.post("render") { request, _ in try await self.render(request) }
        // The other common method on each path: 405 saying which one to use.
        for (path, allowed, other) in [("health", "GET", HTTPRequest.Method.post), ("measure", "POST", .get), ("render", "POST", .get)] {
            router.on(RouterPath(path), method: other) { _, _ -> Response in
                var error = ServiceError(.methodNotAllowed, "use \(allowed) /\(path)")
                error.headers[.allow] = allowed
                throw error
            }
        }
        return router
    }

    /// The HTTP application over this service: run it with `runService()` (which stops
    /// gracefully on SIGTERM and SIGINT: the listener closes, requests in flight finish).
    ///
    /// - Parameter onListening: called with the port once the server listens (the chosen
    ///   one for port 0).
    public func application(logger: Logger = Logger(label: "textrender-server"),
                            onListening: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        let (stallTimeout, requestTimeout) = (configuration.stallTimeout, configuration.requestTimeout)
        return Application(
            router: router(),
            server: .http1(configuration: .init(
                additionalChannelHandlers: CloseStalledConnection.handlers(timeout: stallTimeout) + [RequestDeadline(timeout: requestTimeout)])),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: "textrender-server"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
    }
}

private struct Health: Encodable {
    var status: String
    var inFlight: Int
    var maxConcurrent: Int
}


