/// A batch of display requests whose results are committed together, as Texture commits its
/// transaction group at the end of a run loop turn: a consumer applies a whole screen of
/// cells at once instead of cell by cell.
///
/// Members start drawing as soon as they are added. After `commit`, once every member's work
/// is done, one block on the callback queue sets the finished members' contents, calls each
/// member's `didDisplay` in request order, then the completion. A member that was cancelled
/// (or superseded) meanwhile is reported with `finished == false`; the others still commit.
///
/// Add members and commit from one thread (the caller's side); the rest is thread-safe.
public final class RenderTransaction: Sendable {
    private let renderer: AsyncRenderer
    private let state = Locked(State())

    private struct Member {
        let target: RenderTarget
        let didDisplay: @Sendable (RenderTarget, DisplayTask.Outcome) -> Void
        var generation = 0
        var work: DisplayWork?
    }

    private struct State {
        var members: [Member] = []
        /// Members whose background part has not been reported yet.
        var outstanding = 0
        var completion: (@Sendable ([DisplayTask.Outcome]) -> Void)?
        var isSealed = false
        var isCommitted = false

        /// The members to deliver, once sealed with nothing outstanding (taken at most once).
        mutating func takeReadyBatch() -> (members: [Member], completion: @Sendable ([DisplayTask.Outcome]) -> Void)? {
            guard isSealed, outstanding == 0, !isCommitted, let completion else { return nil }
            isCommitted = true
            defer { members = [] }
            return (members, completion)
        }
    }

    init(renderer: AsyncRenderer) {
        self.renderer = renderer
    }

    /// Number of requests added.
    public var count: Int { state.withLock { $0.isCommitted ? 0 : $0.members.count } }

    /// Adds a display request to the batch and starts its work. Calls `task.willDisplay` now;
    /// `task.didDisplay` is called at the commit.
    ///
    /// - Parameters:
    ///   - task: what to draw and whom to tell.
    ///   - target: the target whose contents the result replaces; its previous request is cancelled.
    ///   - priority: visible work starts before prefetch work.
    /// - Returns: the member's index: its position in the commit order and in the outcomes.
    /// - Precondition: the transaction is not committed yet.
    @discardableResult
    public func add(_ task: DisplayTask, on target: RenderTarget, priority: RenderQueuePool.Priority = .visible) -> Int {
        let index = state.withLock { state in
            precondition(!state.isSealed, "RenderTransaction: add after commit")
            state.members.append(Member(target: target, didDisplay: task.didDisplay))
            state.outstanding += 1
            return state.members.count - 1
        }
        let generation = target.begin { [self] generation, work in record(index, generation: generation, work: work) }
        renderer.schedule(task, on: target, generation: generation, priority: priority)
        return index
    }

    /// Seals the batch: once every member's work is done, its results are committed in one
    /// block on the callback queue (each member's `didDisplay` in request order, then `completion`).
    ///
    /// - Parameter completion: called on the callback queue after the members' `didDisplay`,
    ///   with their outcomes in request order.
    /// - Precondition: called once.
    public func commit(_ completion: @escaping @Sendable ([DisplayTask.Outcome]) -> Void = { _ in }) {
        let batch = state.withLock { state in
            precondition(!state.isSealed, "RenderTransaction: committed twice")
            state.isSealed = true
            state.completion = completion
            return state.takeReadyBatch()
        }
        if let batch { deliver(batch.members, completion: batch.completion) }
    }

    /// Seals the batch and waits for its commit.
    ///
    /// - Returns: the members' outcomes in request order, after their `didDisplay` ran on the
    ///   callback queue.
    public func commit() async -> [DisplayTask.Outcome] {
        await withCheckedContinuation { continuation in
            commit { outcomes in continuation.resume(returning: outcomes) }
        }
    }

    /// A member's background part is reported (drawn, cancelled or failed).
    private func record(_ index: Int, generation: Int, work: DisplayWork) {
        let batch = state.withLock { state in
            state.members[index].generation = generation
            state.members[index].work = work
            state.outstanding -= 1
            return state.takeReadyBatch()
        }
        if let batch { deliver(batch.members, completion: batch.completion) }
    }

    private func deliver(_ members: [Member], completion: @escaping @Sendable ([DisplayTask.Outcome]) -> Void) {
        renderer.callbackQueue.async {
            var outcomes: [DisplayTask.Outcome] = []
            outcomes.reserveCapacity(members.count)
            for member in members {
                let outcome = member.target.commit(member.generation, member.work ?? .cancelled)
                member.didDisplay(member.target, outcome)
                outcomes.append(outcome)
            }
            completion(outcomes)
        }
    }
}
