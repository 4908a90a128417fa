import Dispatch

/// The asynchronous rendering engine: runs display tasks for render targets on a bounded
/// pool of workers and reports them on a callback queue (the YYAsyncLayer / Texture model).
///
/// - A request increments its target's sentinel: older work for that target sees
///   `isCancelled` turn true, stops before its next line, and is reported with
///   `finished == false`. Only the latest request can deliver a bitmap.
/// - Work runs on `pool` (a fixed number of serial workers, visible before prefetch).
/// - `didDisplay` runs on `callbackQueue`, once per request, in request order per target.
/// - `makeTransaction()` groups requests whose results are committed together.
/// - `render(_:options:priority:lineDrawn:)` is the `async` form (see AsyncRenderer+Concurrency).
public final class AsyncRenderer: Sendable {
    /// The callback queue used by default: a serial queue standing in for the main queue.
    public static let defaultCallbackQueue = DispatchQueue(label: "TextKitLite.callback")

    /// An engine over the shared pool and the default callback queue.
    public static let shared = AsyncRenderer()

    /// The workers that run the display work.
    public let pool: RenderQueuePool
    /// Where `didDisplay` and transaction commits run.
    public let callbackQueue: DispatchQueue
    /// The text renderer used by the `async` API.
    public let renderer: TextRenderer
    /// The `async` API draws layouts with at most this many glyphs inline, on the calling
    /// task, where a hop to the pool would cost more than the drawing; larger ones go to the pool.
    public let inlineGlyphLimit: Int

    /// Creates an engine.
    ///
    /// - Parameters:
    ///   - pool: the workers to run display work on (default: the shared pool, one worker per core).
    ///   - callbackQueue: where results are reported; should be serial for ordered reports.
    ///   - renderer: the text renderer of the `async` API.
    ///   - inlineGlyphLimit: the glyph count up to which the `async` API draws inline (0: always on the pool).
    public init(pool: RenderQueuePool = .shared, callbackQueue: DispatchQueue = AsyncRenderer.defaultCallbackQueue,
                renderer: TextRenderer = TextRenderer(), inlineGlyphLimit: Int = 32) {
        self.pool = pool
        self.callbackQueue = callbackQueue
        self.renderer = renderer
        self.inlineGlyphLimit = inlineGlyphLimit
    }

    /// Requests new contents for a target, drawn in the background.
    ///
    /// Calls `task.willDisplay` before returning, runs `task.display` on the pool, and calls
    /// `task.didDisplay` on the callback queue: with the bitmap (now the target's contents)
    /// when this request is still the target's latest, with `finished == false` otherwise.
    /// The target's previous request, if still unreported, is cancelled.
    ///
    /// - Parameters:
    ///   - task: what to draw and whom to tell.
    ///   - target: the target whose contents the result replaces.
    ///   - priority: visible work starts before prefetch work.
    public func display(_ task: DisplayTask, on target: RenderTarget, priority: RenderQueuePool.Priority = .visible) {
        let queue = callbackQueue
        let generation = target.begin { generation, work in
            queue.async { task.didDisplay(target, target.commit(generation, work)) }
        }
        schedule(task, on: target, generation: generation, priority: priority)
    }

    /// Draws a target's new contents on the caller's thread, through the same steps as
    /// `display(_:on:priority:)`: `willDisplay`, `display`, then `didDisplay` (here, on the
    /// caller's thread) before returning.
    ///
    /// The target's previous request is cancelled and reported on the callback queue, which
    /// may happen after this call returns.
    ///
    /// - Parameters:
    ///   - task: what to draw and whom to tell.
    ///   - target: the target whose contents the result replaces.
    /// - Returns: the outcome, also handed to `didDisplay`; not finished if another request or
    ///   `cancel()` superseded this one while it drew.
    @discardableResult
    public func displaySynchronously(_ task: DisplayTask, on target: RenderTarget) -> DisplayTask.Outcome {
        let generation = target.begin(report: nil)
        task.willDisplay(target)
        let work = task.perform { !target.sentinel.isCurrent(generation) }
        let outcome = target.commit(generation, work)
        task.didDisplay(target, outcome)
        return outcome
    }

    /// A new, empty transaction whose results are committed together on the callback queue.
    public func makeTransaction() -> RenderTransaction {
        RenderTransaction(renderer: self)
    }

    /// Calls `willDisplay` and queues the drawing part of a begun request on the pool.
    func schedule(_ task: DisplayTask, on target: RenderTarget, generation: Int, priority: RenderQueuePool.Priority) {
        task.willDisplay(target)
        pool.submit(priority: priority) {
            let work = task.perform { !target.sentinel.isCurrent(generation) }
            target.complete(generation, work)
        }
    }
}
