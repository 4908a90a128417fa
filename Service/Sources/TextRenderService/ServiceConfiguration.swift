import Foundation
import TextKitLite
import TextKitLiteFrontEnd

/// How `textrender-server` is set up: where it listens, its limits and its fonts.
public struct ServiceConfiguration: Sendable {
    public var host = "127.0.0.1"
    /// 0: any free port (the one chosen is printed and passed to `onListening`).
    public var port = 8080
    /// The largest request body accepted; a larger one gets 413.
    public var maxBodyBytes = 16 << 20
    /// The largest `POST /render` body (its text and options) accepted; a larger one gets
    /// 413. A layout holds about 300 bytes a line and 90 a character of its text, so this
    /// bounds what one render can hold besides its bitmap (`maxPixels` × 4 bytes in color).
    public var maxRenderBytes = 256 << 10
    /// The longest wait for the next part of a request body: 408 (or, once a `/measure`
    /// answer streams, an error line) after it.
    public var bodyTimeout: Duration = .seconds(30)
    /// The longest a connection may make no progress at all (nothing read, no write
    /// completed: a client that stops reading its answer); it is closed after.
    public var stallTimeout: Duration = .seconds(60)
    /// The longest a request may take, from its head to the end of its answer: its body
    /// gets 408 (or, once a `/measure` answer streams, an error line) when it has not all
    /// come by then, and a connection whose answer is not all written 2 s later is closed.
    /// A client that trickles its body or reads its answer a byte at a time cannot hold a
    /// request slot longer.
    public var requestTimeout: Duration = .seconds(120)
    /// Requests measuring or rendering at once; one more gets 503 (health checks do not count).
    public var maxConcurrent = 8
    /// Worker threads that measure and render (all requests share them).
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// The largest image `POST /render` draws; a request may ask for less.
    public var maxPixels = ServiceConfiguration.defaultMaxPixels

    /// The default `maxPixels`: 16 Mpx, whose RGBA bitmap (64 MB) is the size the 64 Mpx
    /// gray limit allowed before colors.
    public static let defaultMaxPixels = 16 << 20
    public var fonts = FontSelection()
    /// An emoticon table file, `none`, or nil for the bundled table.
    public var emoticons: String?

    public init() {}
}
