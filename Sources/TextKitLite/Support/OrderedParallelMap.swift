import Dispatch
import Synchronization

/// Maps a sequence on a pool of workers and hands the results to the caller in input
/// order, with at most `window` items in flight: the input is read lazily, so memory
/// stays flat however long the sequence is.
public enum OrderedParallelMap {
    /// - Parameters:
    ///   - input: read on the calling thread, one element at a time.
    ///   - pool: runs `transform`.
    ///   - window: most elements taken from the input and not yet consumed.
    ///   - transform: runs on the pool's workers.
    ///   - consume: runs on the calling thread, in input order.
    public static func run<Input: Sequence, Output: Sendable>(
        _ input: Input, pool: RenderQueuePool, priority: RenderPriority = .visible, window: Int,
        transform: @escaping @Sendable (Input.Element) -> Output, consume: (Output) -> Void
    ) where Input.Element: Sendable {
        let results = Locked<[Int: Output]>([:])
        let completed = DispatchSemaphore(value: 0)
        let window = max(1, window)
        var submitted = 0
        var emitted = 0

        func drain() {
            while true {
                let next = results.withLock { $0.removeValue(forKey: emitted) }
                guard let next else { return }
                consume(next)
                emitted += 1
            }
        }

        for element in input {
            while submitted - emitted >= window {
                completed.wait()
                drain()
            }
            let index = submitted
            pool.submit(priority: priority) {
                let output = transform(element)
                results.withLock { $0[index] = output }
                completed.signal()
            }
            submitted += 1
            drain()
        }
        while emitted < submitted {
            completed.wait()
            drain()
        }
    }
}
