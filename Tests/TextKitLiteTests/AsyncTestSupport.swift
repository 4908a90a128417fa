import Dispatch
@testable import TextKitLite

/// Waits for a number of events without sleeping: `countDown()` from any thread, `wait()`
/// suspends until the count reaches zero.
final class Latch: Sendable {
    private let state: Locked<(remaining: Int, waiters: [CheckedContinuation<Void, Never>])>

    init(_ count: Int) { state = Locked((count, [])) }

    func countDown() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.remaining -= 1
            guard state.remaining == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.remaining <= 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }
}

/// Values appended from any thread, read back in append order.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = Locked<[Value]>([])

    func append(_ value: Value) { storage.withLock { $0.append(value) } }
    var values: [Value] { storage.withLock { $0 } }
}

/// Blocks pool workers until opened (a test's way to keep workers busy, never a sleep).
final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    func wait() { semaphore.wait() }
    func open() { semaphore.signal() }
}

enum AsyncFixtures {
    /// A layout of `count` short lines (one paragraph each).
    static func lines(_ count: Int, size: Double = 12) throws -> TextLayout {
        try Fixtures.layout((1...count).map { "Line \($0)" }.joined(separator: "\n"), size: size,
                            LayoutOptions(width: 300))
    }

    /// Small single-line layouts, cheap to draw in debug builds.
    static func smallLayouts(_ count: Int) throws -> [TextLayout] {
        try (0..<count).map { try Fixtures.layout("Cell \($0) ok", size: 12, LayoutOptions(width: 200)) }
    }

    /// What the synchronous renderer draws for a layout.
    static func reference(_ layout: TextLayout, options: RenderOptions = RenderOptions()) throws -> Bitmap {
        guard let bitmap = try TextRenderer().render(layout, options: options).bitmap else {
            throw RenderError.invalidOption(name: "reference", value: "", reason: "cancelled")
        }
        return bitmap
    }

    /// Returns once everything queued on `queue` so far has run.
    static func flush(_ queue: DispatchQueue) async {
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    }

    /// Returns once a job submitted now has run (with one worker: once earlier jobs are done).
    static func flush(_ pool: RenderQueuePool, priority: RenderQueuePool.Priority = .prefetch) async {
        await withCheckedContinuation { continuation in pool.submit(priority: priority) { continuation.resume() } }
    }
}
