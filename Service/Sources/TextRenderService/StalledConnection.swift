import NIOCore

/// Closes a connection on which nothing was read and no write completed for the service's
/// `stallTimeout`: a client that stops reading a streamed `/measure` answer (its writes wait
/// for room that never comes) or goes quiet mid-request releases its request slot, as
/// one that stops sending the body does (`bodyTimeout`). NIO's `IdleStateHandler` tells
/// the time; this handler acts on it.
final class CloseStalledConnection: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = NIOAny

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .all {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// The handlers that watch a connection for `timeout` of no progress either way.
    static func handlers(timeout: Duration) -> [any RemovableChannelHandler] {
        [IdleStateHandler(allTimeout: TimeAmount(timeout)), CloseStalledConnection()]
    }
}

extension TimeAmount {
    /// A duration as NIO counts time, to the nanosecond.
    init(_ duration: Duration) {
        self = .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }
}
