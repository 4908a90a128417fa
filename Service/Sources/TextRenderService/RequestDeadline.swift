import Glibc
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request has not been answered whole within the service's
/// `requestTimeout` (and a grace of 2 s, for the 408 that `BodyReader` sends when the body
/// is late): a client that trickles its body, or reads its answer a byte at a time (which
/// `CloseStalledConnection`, watching for no progress at all, lets through), releases its
/// request slot. The clock starts at a request's head and stops at its answer's end; a
/// connection's next request starts it again. A request whose answer ended (a 408 for a
/// late body, say) holds no slot, so the clock stops even if its body is still coming.
final class RequestDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    static let grace: TimeAmount = .seconds(2)
    private let timeout: TimeAmount
    private var timer: Scheduled<Void>?
    /// Requests whose head came and whose answer has not ended.
    private var open = 0

    init(timeout: Duration) {
        self.timeout = TimeAmount(timeout) + Self.grace
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            open += 1
            if timer == nil { start(context) }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            open = max(0, open - 1)
            timer?.cancel()
            timer = nil
            if open > 0 { start(context) }  // a pipelined request's turn
        }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    private func start(_ context: ChannelHandlerContext) {
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: timeout) {
            // A reset, not a graceful close: what the kernel still holds for a client that
            // reads slowly (megabytes of answer) is dropped at once, not sent for minutes.
            guard let socket = channel as? any SocketOptionProvider else { return channel.close(promise: nil) }
            socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
