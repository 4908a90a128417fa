internal import CMalloc
import Foundation
import Hummingbird
import Synchronization
import TextKitLite
import TextKitLiteFeed

/// What every request shares: one text engine (its shaped-word cache stays warm across
/// requests), one height cache, the emoticon table, the worker pool that measures and
/// renders, and the gate that bounds the requests at work.
public final class TextService: Sendable {
    public let configuration: ServiceConfiguration
    public let engine: TextEngine
    public let heightCache: HeightCache
    public let emoticons: EmoticonTable
    /// Runs every measurement and render: CPU work never runs on a NIO event loop nor holds
    /// a thread of Swift's cooperative pool, which the server's I/O needs.
    let pool: RenderQueuePool
    let gate: RequestGate
    /// One precomputer per cell style and emoticon choice that requests asked for, all over
    /// the one engine and height cache (whose keys hold the style, so they never mix).
    private let precomputers = Precomputers()
    /// Most precomputers kept; past it they are all dropped and made again as asked (each
    /// holds a measured-text cache of up to 4 MB; the word and height caches are shared).
    static let maximumPrecomputers = 16

    /// The precomputers made so far, by cell style and emoticon choice: an actor, so that
    /// ThreadSanitizer sees the requests that share them take turns.
    private actor Precomputers {
        private struct Key: Hashable {
            let style: FeedCellStyle
            let emoticons: Bool
        }

        private var made: [Key: FeedPrecomputer] = [:]

        /// The precomputer for a cell style and emoticon choice, made by `make` when there
        /// is none yet; past `maximumPrecomputers`, all of them are dropped first.
        func precomputer(style: FeedCellStyle, emoticons: Bool, make: @Sendable () -> FeedPrecomputer) -> FeedPrecomputer {
            let key = Key(style: style, emoticons: emoticons)
            if let found = made[key] { return found }
            if made.count >= TextService.maximumPrecomputers { made.removeAll() }
            let precomputer = make()
            made[key] = precomputer
            return precomputer
        }
    }

    /// Loads the fonts and the emoticon table.
    ///
    /// - Throws: `OptionFailure` naming the font or table that failed.
    public init(configuration: ServiceConfiguration) throws(OptionFailure) {
        self.configuration = configuration
        engine = TextEngine(fonts: try configuration.fonts.chain())
        heightCache = HeightCache()
        emoticons = try EmoticonTable.forOption(configuration.emoticons, bundledByDefault: true)
        pool = RenderQueuePool(workerCount: configuration.jobs)
        gate = RequestGate(limit: configuration.maxConcurrent)
    }

    /// The precomputer for a cell style, with or without the emoticon table.
    func precomputer(style: FeedCellStyle, emoticons useEmoticons: Bool) async -> FeedPrecomputer {
        await precomputers.precomputer(style: style, emoticons: useEmoticons) {
            // Cells are measured, never laid out here: the shaped-text cache stays small.
            FeedPrecomputer(engine: engine, style: style, heightCache: heightCache, shapedTextLimit: 64,
                            emoticons: useEmoticons ? emoticons : .empty)
        }
    }

    /// The body size from which on a request hands the memory it freed back to the system
    /// when it ends (`releaseFreedMemory`).
    static let trimAfterBytes = 64 << 10

    /// Hands freed memory back to the system. glibc keeps freed small blocks in its arenas
    /// (one per worker thread), so after one large layout (a line and its runs are a few
    /// hundred bytes each) the server's resident size would stay at its peak; this brings
    /// it back near its baseline. It walks the arenas: a millisecond or so, paid only after
    /// a large request.
    func releaseFreedMemory() { malloc_trim(0) }

    /// `error`, the refusal of a body over its limit, once the rest of the body was read and
    /// dropped (until the request deadline) when the client asked to close the connection
    /// after this request: Hummingbird then closes it right after the answer, and a client
    /// still sending its body (most send it whole before reading) would meet a reset instead
    /// of the answer. On a connection kept open, Hummingbird reads the rest after the answer.
    ///
    /// - Parameter reader: the body's reader, when the body was being read.
    func refusal(_ error: ServiceError, of request: Request, reader: BodyReader? = nil) async -> ServiceError {
        if request.headers[.connection] == "close" {  // Hummingbird's own test
            let reader = reader ?? BodyReader(request.body, limit: .max, timeout: configuration.bodyTimeout,
                                              requestTimeout: configuration.requestTimeout)
            await reader.discardRest()
        }
        return error
    }

    /// Runs `work` on the worker pool and waits for it without blocking the caller's thread.
    func run<Output: Sendable>(_ work: @escaping @Sendable () -> Output) async -> Output {
        await withCheckedContinuation { continuation in
            pool.submit { continuation.resume(returning: work()) }
        }
    }
}

/// Bounds the requests at work: `enter()` gives a ticket while fewer than `limit` are held;
/// the slot is freed when the ticket is released (after the response was written, or
/// dropped unwritten), so no path can leak one.
final class RequestGate: Sendable {
    let limit: Int
    private let held = Atomic<Int>(0)

    init(limit: Int) { self.limit = limit }

    final class Ticket: Sendable {
        private let gate: RequestGate
        fileprivate init(gate: RequestGate) { self.gate = gate }
        deinit { gate.held.subtract(1, ordering: .releasing) }
    }

    /// A ticket, or nil when `limit` requests are at work.
    func enter() -> Ticket? {
        let count = held.add(1, ordering: .acquiring).newValue
        guard count <= limit else {
            held.subtract(1, ordering: .releasing)
            return nil
        }
        return Ticket(gate: self)
    }

    /// Requests at work now.
    var inFlight: Int { held.load(ordering: .relaxed) }
}
