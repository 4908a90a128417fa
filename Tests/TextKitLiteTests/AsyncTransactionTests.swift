import Dispatch
import Synchronization
import Testing
@testable import TextKitLite

/// Batches of display requests committed together on the callback queue.
@Suite struct AsyncTransactionTests {
    @Test func batchCommitsOnceInRequestOrder() async throws {
        let members = 50
        let cancelled = 17
        let layouts = try AsyncFixtures.smallLayouts(members)
        let callbacks = DispatchQueue(label: "test.callbacks")
        let engine = AsyncRenderer(pool: RenderQueuePool(workerCount: 2), callbackQueue: callbacks)
        let targets = (0..<members).map { RenderTarget(name: "cell \($0)") }
        // Work finished by the members that are not cancelled, as seen by each report.
        let drawn = Atomic<Int>(0)
        let reports = Recorder<(index: Int, finished: Bool, drawnBefore: Int)>()
        let commits = Recorder<[DisplayTask.Outcome]>()
        let committed = Latch(1)

        let transaction = engine.makeTransaction()
        for index in 0..<members {
            var task = try DisplayTask.text(layouts[index], didDisplay: { target, outcome in
                #expect(target === targets[index])
                reports.append((index, outcome.finished, drawn.load(ordering: .acquiring)))
            })
            let draw = task.display
            task.display = { bitmap, isCancelled in
                draw(&bitmap, isCancelled)
                if index != cancelled { drawn.wrappingAdd(1, ordering: .acquiringAndReleasing) }
            }
            #expect(transaction.add(task, on: targets[index]) == index)
            if index == cancelled { targets[index].cancel() }  // scrolled away before the commit
        }
        #expect(transaction.count == members)
        transaction.commit { outcomes in
            commits.append(outcomes)
            committed.countDown()
        }
        await committed.wait()
        await AsyncFixtures.flush(callbacks)

        #expect(commits.values.count == 1, "one commit")
        let values = reports.values
        #expect(values.map(\.index) == Array(0..<members), "didDisplay in request order")
        #expect(values.allSatisfy { $0.drawnBefore == members - 1 }, "nothing reported before all the work was done")
        #expect(values.filter { !$0.finished }.map(\.index) == [cancelled])
        let outcomes = try #require(commits.values.first)
        #expect(outcomes.count == members)
        #expect(outcomes[cancelled].isCancelled && outcomes[cancelled].bitmap == nil)
        #expect(targets[cancelled].contents == nil)
        for index in 0..<members where index != cancelled {
            let expected = try AsyncFixtures.reference(layouts[index])
            #expect(outcomes[index].bitmap == expected)
            #expect(targets[index].contents == expected)
        }
    }

    @Test func memberSupersededOutsideTheBatchIsReportedCancelled() async throws {
        let layouts = try AsyncFixtures.smallLayouts(3)
        let engine = AsyncRenderer(pool: RenderQueuePool(workerCount: 2), callbackQueue: DispatchQueue(label: "test"))
        let targets = (0..<3).map { RenderTarget(name: "cell \($0)") }
        let transaction = engine.makeTransaction()
        for index in 0..<3 { transaction.add(try DisplayTask.text(layouts[index]), on: targets[index]) }
        let replaced = Latch(1)
        engine.display(try DisplayTask.text(layouts[0], didDisplay: { _, _ in replaced.countDown() }), on: targets[1])
        let outcomes = await transaction.commit()
        await replaced.wait()
        #expect(outcomes.map(\.finished) == [true, false, true])
        #expect(targets[1].contents == (try AsyncFixtures.reference(layouts[0])), "the newer request's result")
    }

    @Test func emptyBatchCommits() async {
        let engine = AsyncRenderer(pool: RenderQueuePool(workerCount: 1), callbackQueue: DispatchQueue(label: "test"))
        let outcomes = await engine.makeTransaction().commit()
        #expect(outcomes.isEmpty)
    }
}
