import Dispatch
import Synchronization

extension RenderQueuePool {
    /// Maps `input` with `transform` on this pool's workers and hands each result to
    /// `consume`, in input order, returning when the last one was consumed.
    ///
    /// At most `window` elements are in flight: the input is read lazily, so memory stays
    /// flat however long the sequence is.
    ///
    /// - Parameters:
    ///   - input: read on the calling thread, one element at a time.
    ///   - priority: the pool priority of the jobs.
    ///   - window: most elements taken from the input and not yet consumed.
    ///   - transform: runs on the pool's workers.
    ///   - consume: runs on the calling thread, in input order.
    ///
    /// The workers never hold `transform`: it and what it captures (a precomputer and its
    /// caches, say) are released on the calling thread when the caller lets go of them,
    /// never later on a worker, where freeing them would take a core from whatever runs next.
    public func orderedMap<Input: Sequence, Output: Sendable>(
        _ input: Input, priority: Priority = .visible, window: Int,
        transform: @escaping @Sendable (Input.Element) -> Output, consume: (Output) -> Void
    ) where Input.Element: Sendable {
        // The jobs reach the transform through an unretained reference to a context this
        // call owns: a job's closure is released by the pool after the job has handed its
        // result over, possibly after the last result was consumed, and were it to hold the
        // transform, the last release (and the teardown of all the transform captures) could
        // fall on a worker. Safe: a job uses the context only until it stores its result,
        // and the context lives until every result has been consumed (end of this call).
        let context = JobContext(transform: transform)
        let unretained = Unmanaged.passUnretained(context)
        defer { withExtendedLifetime(context) {} }
        let state = Locked(OrderedResults<Output>())
        let wake = DispatchSemaphore(value: 0)
        let window = max(1, window)
        let batch = max(1, window / 8)
        var submitted = 0
        var emitted = 0

        func drain() {
            while true {
                let next = state.withLock { $0.results.removeValue(forKey: emitted) }
                guard let next else { return }
                consume(next)
                emitted += 1
            }
        }

        /// Sleeps until the result at `emitted` is ready, then hands out what is ready.
        ///
        /// It sleeps until the last result of a batch past the head is ready rather than the
        /// head alone: with a full window, waiting for the head would wake this thread once per
        /// result, each time taking a core from the workers for a context switch; a batch
        /// later, the results before it are almost always ready too. When that result is ready
        /// but the head is not, it sleeps on the head.
        func waitForNext() {
            let ready = state.withLock { state in
                let batchEnd = min(emitted + batch, submitted) - 1
                let target = state.results[batchEnd] == nil ? batchEnd : emitted
                if state.results[target] != nil { return true }
                state.awaited = target
                return false
            }
            if !ready { wake.wait() }
            drain()
        }

        for element in input {
            while submitted - emitted >= window { waitForNext() }
            let index = submitted
            submit(priority: priority) {
                let output = unretained.takeUnretainedValue().transform(element)
                let waking = state.withLock { state in
                    state.results[index] = output
                    guard state.awaited == index else { return false }
                    state.awaited = nil
                    return true
                }
                if waking { wake.signal() }
            }
            submitted += 1
            drain()
        }
        while emitted < submitted { waitForNext() }
    }

    /// The async form of ``orderedMap(_:priority:window:transform:consume:)``: maps an async
    /// sequence on this pool's workers and yields the results in input order. A pipeline: up
    /// to `window` elements are in flight, and each finished head is yielded at once while the
    /// workers go on with the elements behind it. Honours task cancellation (the stream throws
    /// `CancellationError`) between elements; a `transform` error ends the stream with that
    /// error.
    ///
    /// - Parameters:
    ///   - input: read by a task of the stream, one element at a time.
    ///   - priority: the pool priority of the jobs.
    ///   - window: most elements taken from the input and not yet yielded.
    ///   - transform: runs on the pool's workers.
    /// - Returns: the results, in input order.
    public func orderedMap<Input: AsyncSequence & Sendable, Output: Sendable>(
        _ input: Input, priority: Priority = .visible, window: Int,
        transform: @escaping @Sendable (Input.Element) throws -> Output
    ) -> AsyncThrowingStream<Output, Error> where Input.Element: Sendable {
        let window = max(1, window)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var inFlight: [Task<Result<Output, Error>, Never>] = []
                    var head = 0  // inFlight[..<head] were yielded
                    func yieldHead() async throws {
                        let output = try await inFlight[head].value.get()
                        head += 1
                        if head >= window {  // drop the yielded prefix now and then
                            inFlight.removeFirst(head)
                            head = 0
                        }
                        try Task.checkCancellation()
                        continuation.yield(output)
                    }
                    for try await element in input {
                        try Task.checkCancellation()
                        inFlight.append(Task {
                            await withCheckedContinuation { (resume: CheckedContinuation<Result<Output, Error>, Never>) in
                                self.submit(priority: priority) { resume.resume(returning: Result { try transform(element) }) }
                            }
                        })
                        if inFlight.count - head >= window { try await yieldHead() }
                    }
                    while head < inFlight.count { try await yieldHead() }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// What the jobs of one `RenderQueuePool.orderedMap(_:priority:window:transform:consume:)` share.
private final class JobContext<Input, Output>: Sendable {
    let transform: @Sendable (Input) -> Output

    init(transform: @escaping @Sendable (Input) -> Output) { self.transform = transform }
}

/// Finished results by index, and the index the consuming thread sleeps on (if it does): a
/// worker wakes the consumer only with the result it waits for, not for every result.
private struct OrderedResults<Output: Sendable>: Sendable {
    var results: [Int: Output] = [:]
    var awaited: Int?
}
