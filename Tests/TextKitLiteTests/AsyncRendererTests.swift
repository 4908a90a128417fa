import Dispatch
import Testing
@testable import TextKitLite

/// The async/await API: Task cancellation between lines, concurrent renders.
@Suite struct AsyncRendererTests {
    @Test func cancellingTheTaskStopsBetweenLines() async throws {
        let layout = try AsyncFixtures.lines(20)
        try #require(layout.lineCount == 20)
        let engine = AsyncRenderer(pool: RenderQueuePool(workerCount: 1), inlineGlyphLimit: 0)
        let lines = Recorder<Int>()
        let reachedLine3 = Latch(1)
        let resume = Gate()
        let task = Task {
            try await engine.render(layout, lineDrawn: { index in
                lines.append(index)
                if index == 2 {
                    reachedLine3.countDown()
                    resume.wait()  // holds the worker until the task is cancelled
                }
            })
        }
        await reachedLine3.wait()
        task.cancel()
        resume.open()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(lines.values == [0, 1, 2])
    }

    @Test func inlineRenderHonoursCancellation() async throws {
        let layout = try AsyncFixtures.lines(20)
        let engine = AsyncRenderer(pool: RenderQueuePool(workerCount: 1), inlineGlyphLimit: .max)
        let lines = Recorder<Int>()
        let task = Task {
            try await engine.render(layout, lineDrawn: { index in
                lines.append(index)
                if index == 2 { withUnsafeCurrentTask { $0?.cancel() } }  // inline: the same task
            })
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(lines.values == [0, 1, 2])
    }

    @Test func alreadyCancelledTaskDrawsNothing() async throws {
        let layout = try AsyncFixtures.lines(5)
        let engine = AsyncRenderer(pool: RenderQueuePool(workerCount: 1), inlineGlyphLimit: 0)
        let lines = Recorder<Int>()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await engine.render(layout, lineDrawn: { lines.append($0) })
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(lines.values.isEmpty)
    }

    @Test func thousandConcurrentRendersMatchSynchronousPath() async throws {
        let distinct = try AsyncFixtures.smallLayouts(8)
        let references = try distinct.map { try AsyncFixtures.reference($0) }
        let engine = AsyncRenderer(pool: RenderQueuePool(workerCount: 2), inlineGlyphLimit: 0)
        let count = 1_000
        let bitmaps = try await engine.render((0..<count).map { distinct[$0 % distinct.count] })
        #expect(bitmaps.count == count)
        let mismatches = (0..<count).filter { bitmaps[$0] != references[$0 % references.count] }
        #expect(mismatches.isEmpty)
    }

    @Test func scaledRenderMatchesRenderer() async throws {
        let layout = try AsyncFixtures.lines(3, size: 15)
        let options = RenderOptions(scale: 2)
        let engine = AsyncRenderer(pool: RenderQueuePool(workerCount: 2), inlineGlyphLimit: 0)
        let bitmap = try await engine.render(layout, options: options, priority: .prefetch)
        #expect(bitmap == (try AsyncFixtures.reference(layout, options: options)))
    }

    @Test func oversizedBitmapThrowsRenderError() async throws {
        let layout = try AsyncFixtures.lines(3)
        let engine = AsyncRenderer(pool: RenderQueuePool(workerCount: 1), inlineGlyphLimit: 0)
        await #expect(throws: RenderError.self) {
            try await engine.render(layout, options: RenderOptions(maxPixels: 10))
        }
    }
}
