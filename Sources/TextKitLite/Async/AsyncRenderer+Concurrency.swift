extension AsyncRenderer {
    /// Renders a layout into a new bitmap without blocking the caller, honouring `Task`
    /// cancellation through the renderer's between-lines check.
    ///
    /// Layouts of more than `inlineGlyphLimit` glyphs are drawn on the bounded pool, not on the
    /// cooperative pool's threads; smaller ones inline on the calling task. The pixels are the
    /// same as `TextRenderer.render`'s.
    ///
    /// - Parameters:
    ///   - layout: the text to draw.
    ///   - options: scale, background, debug overlay, size limit.
    ///   - priority: the pool priority of the work.
    ///   - lineDrawn: called after each line with its index, on the thread that draws.
    /// - Returns: the bitmap.
    /// - Throws: `CancellationError` when the task was cancelled before the last line was
    ///   drawn; `RenderError` for invalid options or a bitmap over the size limit.
    public func render(
        _ layout: TextLayout, options: RenderOptions = RenderOptions(), priority: RenderQueuePool.Priority = .visible,
        lineDrawn: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws -> Bitmap {
        try Task.checkCancellation()
        try options.validate()
        if layout.glyphCount <= inlineGlyphLimit {
            let outcome = try renderer.render(layout, options: options, isCancelled: { Task.isCancelled },
                                              lineDrawn: lineDrawn)
            guard let bitmap = outcome.bitmap else { throw CancellationError() }
            return bitmap
        }
        // The task's cancellation handler moves this sentinel on; the worker's drawing loop
        // sees it before its next line.
        let cancellation = Sentinel()
        let generation = cancellation.value
        let renderer = renderer
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bitmap, any Error>) in
                pool.submit(priority: priority) {
                    do {
                        let outcome = try renderer.render(
                            layout, options: options, isCancelled: { !cancellation.isCurrent(generation) },
                            lineDrawn: lineDrawn)
                        if let bitmap = outcome.bitmap {
                            continuation.resume(returning: bitmap)
                        } else {
                            continuation.resume(throwing: CancellationError())
                        }
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            }
        } onCancel: {
            cancellation.increment()
        }
    }

    /// Renders a batch of layouts concurrently (on the pool, as the single form).
    ///
    /// - Parameters:
    ///   - layouts: the texts to draw.
    ///   - options: scale, background, debug overlay, size limit, for every layout.
    ///   - priority: the pool priority of the work.
    /// - Returns: the bitmaps, in the order of `layouts`.
    /// - Throws: `CancellationError` when the task was cancelled (every unfinished render stops
    ///   before its next line); the first `RenderError` otherwise, after cancelling the rest.
    public func render(
        _ layouts: [TextLayout], options: RenderOptions = RenderOptions(), priority: RenderQueuePool.Priority = .visible
    ) async throws -> [Bitmap] {
        try Task.checkCancellation()
        try options.validate()
        return try await withThrowingTaskGroup(of: (Int, Bitmap).self) { group in
            for (index, layout) in layouts.enumerated() {
                group.addTask { (index, try await self.render(layout, options: options, priority: priority)) }
            }
            var bitmaps = [Bitmap?](repeating: nil, count: layouts.count)
            for try await (index, bitmap) in group { bitmaps[index] = bitmap }
            try Task.checkCancellation()
            return bitmaps.map { $0! }
        }
    }
}

extension TextLayout {
    /// Number of glyphs over all lines.
    var glyphCount: Int { lines.reduce(0) { total, line in line.runs.reduce(total) { $0 + $1.glyphs.count } } }
}
