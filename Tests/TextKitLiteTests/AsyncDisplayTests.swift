import Dispatch
import Testing
@testable import TextKitLite

/// Display tasks on render targets: sentinel cancellation, supersede, synchronous display.
@Suite struct AsyncDisplayTests {
    @Test func cancellationStopsBetweenLines() async throws {
        let layout = try AsyncFixtures.lines(20)
        try #require(layout.lineCount == 20)
        let pool = RenderQueuePool(workerCount: 1)
        let callbacks = DispatchQueue(label: "test.callbacks")
        let engine = AsyncRenderer(pool: pool, callbackQueue: callbacks)
        let target = RenderTarget(name: "cell")
        let lines = Recorder<Int>()
        let outcomes = Recorder<DisplayTask.Outcome>()
        let reported = Latch(1)
        let task = try DisplayTask.text(
            layout,
            lineDrawn: { index in
                lines.append(index)
                if index == 2 { target.cancel() }  // cancelled after line 3
            },
            didDisplay: { _, outcome in
                outcomes.append(outcome)
                reported.countDown()
            })
        engine.display(task, on: target)
        await reported.wait()
        // One worker: a job submitted now runs after the display job has returned. Then let
        // the callback queue drain, so a second report would have arrived.
        await AsyncFixtures.flush(pool)
        await AsyncFixtures.flush(callbacks)

        #expect(lines.values == [0, 1, 2])
        #expect(outcomes.values.count == 1)
        let outcome = try #require(outcomes.values.first)
        #expect(!outcome.finished)
        #expect(outcome.isCancelled)
        #expect(outcome.bitmap == nil)
        #expect(target.contents == nil)
    }

    @Test func synchronousDisplayStopsBetweenLines() throws {
        let layout = try AsyncFixtures.lines(20)
        let engine = AsyncRenderer(pool: RenderQueuePool(workerCount: 1))
        let target = RenderTarget()
        let lines = Recorder<Int>()
        let reports = Recorder<Bool>()
        let task = try DisplayTask.text(
            layout, lineDrawn: { index in
                lines.append(index)
                if index == 2 { target.cancel() }
            },
            didDisplay: { _, outcome in reports.append(outcome.finished) })
        let outcome = engine.displaySynchronously(task, on: target)
        #expect(lines.values == [0, 1, 2])
        #expect(reports.values == [false])
        #expect(outcome.bitmap == nil)
        #expect(target.contents == nil)
    }

    @Test func supersededRequestsNeverDeliver() async throws {
        let layouts = try AsyncFixtures.smallLayouts(4)
        let pool = RenderQueuePool(workerCount: 2)
        let callbacks = DispatchQueue(label: "test.callbacks")
        let engine = AsyncRenderer(pool: pool, callbackQueue: callbacks)
        let target = RenderTarget(name: "cell")
        let reports = Recorder<(index: Int, finished: Bool)>()
        let requests = 100
        let allReported = Latch(requests)
        // Requests are "rapid" when none is reported before the last is made: hold the
        // callback queue (a busy main thread) until then. Work still runs and gets superseded.
        let busy = Gate()
        callbacks.async { busy.wait() }
        for index in 0..<requests {
            let task = try DisplayTask.text(layouts[index % layouts.count], didDisplay: { reported, outcome in
                #expect(reported === target)
                #expect(outcome.finished == (outcome.bitmap != nil))
                reports.append((index, outcome.finished))
                allReported.countDown()
            })
            engine.display(task, on: target)
        }
        busy.open()
        await allReported.wait()
        await AsyncFixtures.flush(callbacks)

        let values = reports.values
        #expect(values.map(\.index) == Array(0..<requests), "reports arrive in request order")
        #expect(values.filter(\.finished).map(\.index) == [requests - 1], "only the last request finishes")
        #expect(target.contents == (try AsyncFixtures.reference(layouts[(requests - 1) % layouts.count])))
    }

    @Test func asynchronousDisplayMatchesRenderer() async throws {
        let layout = try AsyncFixtures.lines(3, size: 15)
        let options = RenderOptions(scale: 2)
        let engine = AsyncRenderer(pool: RenderQueuePool(workerCount: 2), callbackQueue: DispatchQueue(label: "test"))
        let target = RenderTarget()
        let events = Recorder<String>()
        let reported = Latch(1)
        let task = try DisplayTask.text(
            layout, options: options,
            willDisplay: { _ in events.append("will") },
            didDisplay: { _, outcome in
                events.append(outcome.finished ? "did" : "cancelled")
                reported.countDown()
            })
        engine.display(task, on: target)
        #expect(events.values.first == "will", "willDisplay runs on the caller's side before returning")
        await reported.wait()
        #expect(events.values == ["will", "did"])
        #expect(target.contents == (try AsyncFixtures.reference(layout, options: options)))
    }

    @Test func synchronousDisplayMatchesRenderer() throws {
        let layout = try AsyncFixtures.lines(2)
        let engine = AsyncRenderer(pool: RenderQueuePool(workerCount: 1))
        let target = RenderTarget()
        let events = Recorder<String>()
        let task = try DisplayTask.text(
            layout, willDisplay: { _ in events.append("will") },
            didDisplay: { _, outcome in events.append(outcome.finished ? "did" : "cancelled") })
        let outcome = engine.displaySynchronously(task, on: target)
        #expect(events.values == ["will", "did"])
        #expect(outcome.bitmap == (try AsyncFixtures.reference(layout)))
        #expect(target.contents == outcome.bitmap)
    }

    @Test func oversizedBitmapIsReportedAsFailure() async throws {
        let layout = try AsyncFixtures.lines(2)
        let engine = AsyncRenderer(pool: RenderQueuePool(workerCount: 1), callbackQueue: DispatchQueue(label: "test"))
        let target = RenderTarget()
        let outcomes = Recorder<DisplayTask.Outcome>()
        let reported = Latch(1)
        let task = try DisplayTask.text(layout, options: RenderOptions(maxPixels: 10), didDisplay: { _, outcome in
            outcomes.append(outcome)
            reported.countDown()
        })
        engine.display(task, on: target)
        await reported.wait()
        let outcome = try #require(outcomes.values.first)
        #expect(!outcome.finished && !outcome.isCancelled)
        guard case .bitmapTooLarge = outcome.error else {
            Issue.record("expected bitmapTooLarge, got \(String(describing: outcome.error))")
            return
        }
    }
}
