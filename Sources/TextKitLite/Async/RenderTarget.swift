/// Something that shows rendered contents: the Linux stand-in for a layer or a cell. An
/// identity (the object), its latest contents, and a sentinel that cancels stale work.
///
/// Every display request increments the sentinel, so the previous request's `isCancelled`
/// becomes true and its result is never delivered; `cancel()` does the same without a new
/// request (the cell scrolled away). Each request is reported exactly once, and the reports
/// of one target arrive in request order.
public final class RenderTarget: Sendable, Identifiable, CustomStringConvertible {
    /// A name for logs and tests.
    public let name: String

    let sentinel = Sentinel()
    private let state = Locked(State())

    private struct State {
        var contents: Bitmap?
        /// The asynchronous request that has not been reported yet, if any.
        var pending: Pending?
    }

    /// An unreported request: its generation and how to report it.
    struct Pending: Sendable {
        var generation: Int
        /// Hands the background result to whoever commits it (the callback queue, a transaction).
        var report: @Sendable (_ generation: Int, _ work: DisplayWork) -> Void
    }

    /// Creates a target with no contents.
    ///
    /// - Parameter name: a name for logs and tests.
    public init(name: String = "") {
        self.name = name
    }

    /// The contents of the last request that finished while it was current.
    public var contents: Bitmap? { state.withLock { $0.contents } }

    /// The sentinel's value: the generation of the latest request or cancellation.
    public var generation: Int { sentinel.value }

    /// Cancels the work in flight for this target: its `isCancelled` turns true, it stops
    /// before its next line, and it is reported with `finished == false`. The contents stay.
    public func cancel() {
        state.withLock { state in
            sentinel.increment()
            if let pending = state.pending.take() { pending.report(pending.generation, .cancelled) }
        }
    }

    public var description: String { "RenderTarget(\(name.isEmpty ? "\(ObjectIdentifier(self))" : name))" }

    // MARK: Request life cycle (used by AsyncRenderer and RenderTransaction)

    /// Starts a request: supersedes the current one (reported cancelled now, so reports stay in
    /// request order) and records how to report the new one (nil for a synchronous request,
    /// reported by its caller).
    ///
    /// - Returns: the request's generation.
    func begin(report: (@Sendable (_ generation: Int, _ work: DisplayWork) -> Void)?) -> Int {
        state.withLock { state in
            let generation = sentinel.increment()
            if let old = state.pending.take() { old.report(old.generation, .cancelled) }
            state.pending = report.map { Pending(generation: generation, report: $0) }
            return generation
        }
    }

    /// The background part of a request is done: reports it unless it was reported already
    /// (superseded or cancelled meanwhile).
    func complete(_ generation: Int, _ work: DisplayWork) {
        state.withLock { state in
            guard let pending = state.pending, pending.generation == generation else { return }
            state.pending = nil
            pending.report(generation, work)
        }
    }

    /// Commits a result on the callback queue: a drawn bitmap becomes the contents only if its
    /// request is still the current one; otherwise the request is reported cancelled.
    ///
    /// - Returns: the outcome to hand to `didDisplay`.
    func commit(_ generation: Int, _ work: DisplayWork) -> DisplayTask.Outcome {
        switch work {
        case .cancelled: return .cancelled
        case .failed(let error): return DisplayTask.Outcome(bitmap: nil, error: error)
        case .drawn(let bitmap, let originX, let originY):
            return state.withLock { state in
                guard sentinel.isCurrent(generation) else { return .cancelled }
                state.contents = bitmap
                return DisplayTask.Outcome(bitmap: bitmap, error: nil, originX: originX, originY: originY)
            }
        }
    }
}
