import Synchronization
import Testing
import TextKitLite

/// The targets the articles' display callbacks handed bitmaps to, by name.
private let shown = Mutex<[String]>([])

/// Where the article's display callback hands the bitmap on.
private func show(_ bitmap: Bitmap, in target: RenderTarget) { shown.withLock { $0.append(target.name) } }

/// The code of the article "Asynchronous rendering", block by block as it shows it.
@Suite struct AsynchronousRenderingExamples {
    let engine: TextEngine
    let layout, narrow, wide: TextLayout

    /// What the article takes from "Getting started".
    init() throws {
        engine = try TextEngine.bundled()
        let text = AttributedText("Hello 世界 🎉 مرحبا", style: TextStyle(size: 17))
        layout = try engine.layout(text, options: LayoutOptions(width: 300, maxLines: 2))
        narrow = try engine.layout(text, options: LayoutOptions(width: 120))
        wide = try engine.layout(text, options: LayoutOptions(width: 480))
    }

    @Test func asyncAwait() async throws {
        let renderer = AsyncRenderer.shared
        let bitmap = try await renderer.render(layout, options: RenderOptions(scale: 2))
        let bitmaps = try await renderer.render([layout, narrow, wide], options: RenderOptions(scale: 2))
        #expect(bitmaps.count == 3 && bitmaps[0] == bitmap)
    }

    @Test func renderTargets() async throws {
        let renderer = AsyncRenderer.shared
        let cell = RenderTarget(name: "cell 7")
        let task = try DisplayTask.text(layout, options: RenderOptions(scale: 2), didDisplay: { target, outcome in
            guard let bitmap = outcome.bitmap else { return }   // superseded or cancelled
            show(bitmap, in: target)                            // on the callback queue
        })
        renderer.display(task, on: cell, priority: .visible)
        renderer.display(try DisplayTask.text(wide), on: cell)   // supersedes the first request
        cell.cancel()                                            // the cell scrolled away

        // Each request delivers only if it was drawn and committed before the next request
        // (or the cancellation) came: on a quiet machine neither does, on a busy one either
        // may. Never both, and nothing after the cancellation.
        await withCheckedContinuation { continuation in renderer.callbackQueue.async { continuation.resume() } }
        let delivered = shown.withLock { $0 }.filter { $0 == "cell 7" }.count
        #expect(delivered <= 1)
        #expect(cell.contents == nil || delivered == 1 || (cell.contents?.width ?? 0) >= 480)
        let generation = cell.generation
        await withCheckedContinuation { continuation in renderer.callbackQueue.async { continuation.resume() } }
        #expect(cell.generation == generation)
    }

    @Test func transaction() async throws {
        let renderer = AsyncRenderer.shared
        let transaction = renderer.makeTransaction()
        let targets = (0..<3).map { RenderTarget(name: "row \($0)") }
        for (target, rowLayout) in zip(targets, [layout, narrow, wide]) {
            transaction.add(try DisplayTask.text(rowLayout), on: target)
        }
        let outcomes = await transaction.commit()                // in request order
        #expect(outcomes.allSatisfy { $0.finished })
        #expect(targets.allSatisfy { $0.contents != nil })
    }

    @Test func orderedMap() {
        let engine = engine
        let texts = ["One", "Two", "Three"].map { AttributedText($0, style: TextStyle(size: 17)) }
        var heights: [Double] = []
        RenderQueuePool.shared.orderedMap(texts, window: 64) { text in
            (try? engine.measure(text, options: LayoutOptions(width: 300)))?.height ?? 0
        } consume: { height in
            heights.append(height)
        }
        #expect(heights.count == 3 && heights.allSatisfy { $0 > 0 })
    }
}
