import DequeModule
import Dispatch
import Foundation

extension RenderQueuePool {
    /// How urgently a render is wanted. Pending visible work always starts before pending
    /// prefetch work; within one priority, jobs start in submission order.
    public enum Priority: Int, Sendable, Hashable, Comparable, CaseIterable {
        /// Content that may be needed soon (cells about to scroll in).
        case prefetch = 0
        /// Content on screen now.
        case visible = 1

        public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
    }
}

/// A fixed set of serial worker queues that run render jobs, as YYDispatchQueuePool does:
/// never more jobs at once than workers, never one thread per job.
///
/// Jobs wait in a priority-ordered pending list. A free worker takes the oldest visible
/// job, or the oldest prefetch job when no visible one waits; a worker with nothing to
/// take goes idle until the next submission.
public final class RenderQueuePool: Sendable {
    /// A unit of background work.
    public typealias Job = @Sendable () -> Void

    /// The pool used by default: one worker per active core.
    public static let shared = RenderQueuePool()

    /// Number of serial workers (the most jobs that run at once).
    public let workerCount: Int

    private let workers: [DispatchQueue]
    private let state: Locked<State>

    private struct State {
        /// Pending jobs per priority (indexed by `Priority.rawValue`).
        var pending: [Deque<Job>] = Priority.allCases.map { _ in Deque() }
        /// Workers with no job to run.
        var idle: [Int]

        /// Takes the oldest job of the highest priority that has one.
        mutating func next() -> Job? {
            for priority in Priority.allCases.reversed() {
                if let job = pending[priority.rawValue].popFirst() { return job }
            }
            return nil
        }
    }

    /// Creates a pool of serial worker queues.
    ///
    /// - Parameters:
    ///   - workerCount: the number of workers, at least 1 (default: the active processor count).
    ///   - label: the prefix of the worker queues' labels.
    ///   - qos: the quality of service of the workers.
    public init(workerCount: Int = ProcessInfo.processInfo.activeProcessorCount,
                label: String = "TextKitLite.render", qos: DispatchQoS = .userInitiated) {
        let count = max(1, workerCount)
        self.workerCount = count
        workers = (0..<count).map { DispatchQueue(label: "\(label).\($0)", qos: qos) }
        // Popped from the end: worker 0 is handed out first.
        state = Locked(State(idle: Array((0..<count).reversed())))
    }

    /// Queues a job; it starts as soon as a worker is free and no job of higher priority,
    /// nor an older one of the same priority, waits.
    ///
    /// - Parameters:
    ///   - priority: visible jobs start before prefetch jobs.
    ///   - job: the work, run on one of the pool's workers.
    /// - Complexity: O(1) amortized.
    public func submit(priority: Priority = .visible, _ job: @escaping Job) {
        let worker: Int? = state.withLock { state in
            state.pending[priority.rawValue].append(job)
            return state.idle.popLast()
        }
        if let worker { wake(worker) }
    }

    /// Number of jobs waiting for a worker.
    public var pendingCount: Int {
        state.withLock { state in state.pending.reduce(0) { $0 + $1.count } }
    }

    /// Starts a worker's loop: run pending jobs until none is left, then go idle. A worker
    /// leaves the idle list only here, so its serial queue never holds two loops at once.
    private func wake(_ worker: Int) {
        workers[worker].async { [self] in
            while let job = takeJob(for: worker) { job() }
        }
    }

    /// The next job, or nil after marking the worker idle (in the same critical section as
    /// the check, so a job submitted meanwhile always finds an idle worker to wake).
    private func takeJob(for worker: Int) -> Job? {
        state.withLock { state in
            if let job = state.next() { return job }
            state.idle.append(worker)
            return nil
        }
    }
}
