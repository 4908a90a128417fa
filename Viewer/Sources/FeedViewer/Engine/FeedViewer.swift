import Dispatch
import Foundation
import TextKitLite
import TextKitLiteFeed
import TextKitLiteMedia

/// The engine on screen, Texture-style: a feed's cells laid out ahead of time (heights
/// through the height cache), drawn on the render pool around the viewport, committed as
/// textures on the main thread within a per-frame budget, placeholders until then.
///
/// One instance per window; every method runs on the main thread (SDL's), so it is not
/// `Sendable`. Background work (the height pass, preloads, renders) hands its results over
/// through an `Inbox`, taken at the start of each frame.
public final class FeedViewer {
    public let settings: ViewerSettings
    public let document: FeedDocument
    public let precomputer: FeedPrecomputer
    public let cellRenderer: CellRenderer
    public let renderOptions: RenderOptions
    public let pool: RenderQueuePool
    /// Width and height of the window in pixels.
    public let pixelWidth: Int
    public let pixelHeight: Int
    public private(set) var scroll = ScrollModel()
    public private(set) var geometry: CellGeometry
    public private(set) var ranges: CellRanges
    public private(set) var stats = FrameStats()
    /// Everything reported so far (bad lines, unreadable pictures), as the CLI words it.
    public private(set) var messages: [String]
    /// Bytes held by textures now.
    public private(set) var textureBytes = 0

    let window: SDLWindow
    private let media: FeedMedia
    private let renderer: AsyncRenderer
    private let inbox = Inbox()
    /// Every job handed to the pool (height pass, preloads, renders) until it is reported.
    private let work = DispatchGroup()
    private var cells: [Int: CellState] = [:]
    /// Cells whose layout failed: drawn as nothing (zero height), never rendered.
    private var failed: Set<Int> = []
    /// The next cell the height pass lays out, and whether a chunk of it is on the pool.
    private var heightCursor = 0
    private var heightPassBusy = false
    /// Finished bitmaps waiting for a frame's commit budget.
    private var uncommitted: [(index: Int, bitmap: Bitmap)] = []
    private var overlay: (texture: TextureID, height: Int, messages: Int)?
    private var closed = false

    /// A cell's state while it is in the preload range or holds a texture.
    struct CellState {
        var layout: CellLayout?
        var preloading = false
        /// The render in flight and its priority.
        var target: RenderTarget?
        var priority: RenderQueuePool.Priority = .prefetch
        var texture: TextureID?
        var textureBytes = 0
    }

    /// Reads the feed, loads the fonts and emoticons and opens the window. A feed that
    /// cannot be read opens an empty viewer showing why.
    ///
    /// - Throws: `WindowError` when there is no display, `FontError` when the bundled fonts
    ///   are missing.
    public init(settings: ViewerSettings) throws {
        self.settings = settings
        document = FeedDocument(path: settings.feedPath, repeat: settings.repeatCount)
        var messages = document.messages
        let inbox = self.inbox
        let root = settings.mediaRoot ?? FeedMedia.root(forFeedAt: settings.feedPath)
        media = FeedMedia(root: root, cache: PictureCache(maxBytes: 64 << 20)) { error in
            inbox.append(.message("warning: \(error) (placeholder drawn)"))
        }
        let emoticons: EmoticonTable
        do { emoticons = try EmoticonTable.bundled() } catch {
            messages.append("bundled emoticons: \(error.description)")
            emoticons = .empty
        }
        self.messages = messages
        precomputer = FeedPrecomputer(engine: try TextEngine.bundled(), style: settings.cellStyle, emoticons: emoticons, pictures: media)
        cellRenderer = CellRenderer(pictures: media)
        renderOptions = settings.renderOptions
        pool = settings.pool ?? RenderQueuePool(workerCount: settings.workers, label: "feedview.render")
        renderer = AsyncRenderer(pool: pool, callbackQueue: DispatchQueue(label: "feedview.callback"))
        pixelWidth = renderOptions.pixels(settings.width)
        pixelHeight = renderOptions.pixels(settings.height)
        geometry = CellGeometry(count: document.posts.count, estimate: renderOptions.pixels(300))
        ranges = CellRanges(geometry: geometry, offset: 0, height: pixelHeight, direction: 1)
        window = try SDLWindow(title: "feedview — \(settings.feedPath)", width: pixelWidth, height: pixelHeight,
                               accelerated: settings.accelerated)
        scroll.setMaxOffset(Double(geometry.contentHeight - pixelHeight))
        for message in messages { Self.report(message) }
    }

    deinit { close() }

    // MARK: - Frames

    /// Advances the viewer by one frame: input, the fling, deliveries, ranges, work,
    /// commits, drawing and the present. Returns false once the user closed the window.
    ///
    /// - Parameters:
    ///   - seconds: the time the frame stands for (the frame clock's tick).
    ///   - deadline: the monotonic time the frame should be presented by (statistics only).
    @discardableResult
    public func frame(seconds: Double = 1.0 / 60, deadline: Double? = nil, scrollBy scripted: Double = 0) -> Bool {
        guard !closed else { return false }
        let start = monotonicSeconds()
        var running = true
        for event in window.pollEvents() where !handle(event, at: start) { running = false }
        if scripted != 0 { scroll.scroll(by: scripted) }
        scroll.advance(by: seconds)
        let updateStart = monotonicSeconds()
        receive()
        if !settings.emptyScroll { update() }
        let commitStart = monotonicSeconds()
        commit(until: commitStart + settings.commitBudget)
        let drawStart = monotonicSeconds()
        let syncDrawn = settings.mode == .synchronous ? drawVisibleOnMainThread() : 0
        let windowDrawStart = monotonicSeconds()
        let placeholder = settings.emptyScroll ? emptyDraw() : draw()
        let presentStart = monotonicSeconds()
        window.present()
        let end = monotonicSeconds()
        stats.frames += 1
        if placeholder { stats.placeholderFrames += 1 }
        if let deadline, end > deadline { stats.droppedFrames += 1 }
        stats.frameTimes.append((end - start) * 1000)
        stats.mainThreadTimes.append((presentStart - start) * 1000)
        stats.presentTimes.append((end - presentStart) * 1000)
        stats.commitTimes.append((drawStart - commitStart) * 1000)
        stats.inputTimes.append((updateStart - start) * 1000)
        stats.updateTimes.append((commitStart - updateStart) * 1000)
        stats.drawTimes.append((presentStart - windowDrawStart) * 1000)
        if settings.mode == .synchronous { stats.syncDrawTimes.append(syncDrawn * 1000) }
        return running
    }

    /// Applies one input event; false for a request to quit.
    private func handle(_ event: InputEvent, at time: Double) -> Bool {
        let line = 40 * settings.scale
        switch event {
        case .quit, .key(.escape): return false
        case .wheel(let clicks): scroll.scroll(by: -clicks * 3 * line)
        case .key(.up): scroll.scroll(by: -line)
        case .key(.down): scroll.scroll(by: line)
        case .key(.pageUp): scroll.scroll(by: -(Double(pixelHeight) - line))
        case .key(.pageDown): scroll.scroll(by: Double(pixelHeight) - line)
        case .key(.home): scroll.scroll(to: 0)
        case .key(.end): scroll.scroll(to: scroll.maxOffset)
        case .pointerDown(let y): scroll.beginDrag(y: y, time: time)
        case .pointerMoved(let y): scroll.moveDrag(y: y, time: time)
        case .pointerUp: scroll.endDrag(time: time)
        }
        return true
    }

    // MARK: - Scripted scrolling (bench, screenshot, tests)

    /// Jumps to an offset in points (clamped to the content).
    public func scroll(toPoints points: Double) { scroll.scroll(to: points * settings.scale) }

    /// Starts a fling at a velocity in points per second (positive: towards later posts).
    public func fling(pointsPerSecond: Double) { scroll.fling(velocity: pointsPerSecond * settings.scale) }

    /// True while a fling moves the viewport.
    public var isFlinging: Bool { scroll.isFlinging }

    /// True when the viewport is at the end it would move to in a direction (+1 down).
    public func atEnd(_ direction: Double) -> Bool {
        direction > 0 ? scroll.offset >= scroll.maxOffset : scroll.offset <= 0
    }

    /// Starts the figures afresh (after the first screen has settled).
    public func resetStatistics() { stats = FrameStats() }

    /// The offset in points.
    public var offsetPoints: Double { scroll.offset / settings.scale }

    /// True when every cell that meets the window is drawn (its texture on screen).
    public var visibleCellsDrawn: Bool {
        ranges.visible.allSatisfy { failed.contains($0) || geometry.height($0) == 0 || cells[$0]?.texture != nil }
    }

    /// True when every cell above the window's bottom has its height known.
    public var heightsKnownThroughViewport: Bool {
        let bottom = Int(scroll.offset) + pixelHeight
        let last = geometry.index(at: bottom) ?? -1
        return last < 0 || (0...last).allSatisfy { geometry.known[$0] != nil }
    }

    /// Runs frames until no background work is left to deliver for what is on screen:
    /// heights through the viewport known and visible cells drawn. Between frames it waits
    /// for a delivery rather than spinning; no time limit.
    ///
    /// - Parameter offset: an offset in points to hold while heights arrive (nil: keep).
    /// - Returns: false if the window was closed meanwhile.
    @discardableResult
    public func settle(at offset: Double? = nil) -> Bool {
        // The empty scroll draws no cells: nothing to wait for.
        if settings.emptyScroll { return frame() }
        while true {
            if let offset { scroll(toPoints: offset) }
            guard frame() else { return false }
            if heightsKnownThroughViewport && visibleCellsDrawn && uncommitted.isEmpty {
                if let offset, abs(offsetPoints - min(offset, scroll.maxOffset / settings.scale)) > 1e-9 { continue }
                return true
            }
            if settings.mode == .asynchronous { _ = inbox.arrival.wait(timeout: .now() + .milliseconds(50)) }
        }
    }

    /// The visible cells' frames in window pixels, with their posts' ids.
    public var visibleCellFrames: [(index: Int, postID: String, x: Int, y: Int, width: Int, height: Int, drawn: Bool)] {
        ranges.visible.map { index in
            (index, document.posts[index].id, 0, geometry.top(index) - Int(scroll.offset.rounded()), pixelWidth,
             geometry.height(index), cells[index]?.texture != nil)
        }
    }

    /// What the window shows now (the last frame drawn).
    public func screenshot() -> Bitmap? { window.readPixels() }

    /// True while some job handed to the pool (height pass, preload, render) is unreported.
    public var hasJobsInFlight: Bool { work.wait(timeout: .now()) != .success }

    /// Textures alive in the window.
    public var textureCount: Int { window.textureCount }

    // MARK: - Deliveries

    /// Takes the background results: heights (the scroll extent follows; the cells on
    /// screen do not move), layouts, bitmaps, messages.
    private func receive() {
        let anchor = geometry.index(at: Int(scroll.offset))
        let anchorShift = anchor.map { scroll.offset - Double(geometry.top($0)) }
        var newMessages: [String] = []
        for delivery in inbox.take() {
            switch delivery {
            case .heights(let heights):
                heightPassBusy = false
                for (index, height) in heights { record(height, at: index, messages: &newMessages) }
            case .preloaded(let index, let result):
                cells[index]?.preloading = false
                record(result.map { renderOptions.pixels($0.height) }, at: index, messages: &newMessages)
                if case .success(let layout) = result, cells[index] != nil { cells[index]?.layout = layout }
            case .rendered(let index, let target, let outcome):
                if let bitmap = outcome.bitmap, cells[index]?.target === target {
                    cells[index]?.target = nil
                    stats.rendersFinished += 1
                    uncommitted.append((index, bitmap))
                } else if let error = outcome.error {
                    if cells[index]?.target === target { cells[index]?.target = nil }
                    stats.rendersFailed += 1
                    newMessages.append("\(document.path): post \(document.posts[index].id): \(error) (placeholder drawn)")
                } else {
                    // Cancelled, or finished after its cell left the display range: delivers nothing.
                    stats.rendersCancelled += 1
                }
            case .message(let message): newMessages.append(message)
            }
        }
        geometry.rebuildIfNeeded()
        scroll.setMaxOffset(Double(geometry.contentHeight - pixelHeight))
        if let anchor, let anchorShift { scroll.shift(by: Double(geometry.top(anchor)) + anchorShift - scroll.offset) }
        for message in newMessages { Self.report(message) }
        messages += newMessages
    }

    private func record(_ height: Result<Int, LayoutError>, at index: Int, messages: inout [String]) {
        guard geometry.known[index] == nil else { return }
        switch height {
        case .success(let pixels): geometry.setHeight(pixels, at: index)
        case .failure(let error):
            failed.insert(index)
            geometry.setHeight(0, at: index)
            messages.append("\(document.path): post \(document.posts[index].id): \(error) (skipped)")
        }
    }

    static func report(_ message: String) {
        FileHandle.standardError.write(Data("feedview: \(message)\n".utf8))
    }

    // MARK: - Ranges and work

    private func update() {
        let offset = Int(scroll.offset.rounded())
        ranges = CellRanges(geometry: geometry, offset: offset, height: pixelHeight, direction: scroll.direction, tuning: settings.tuning)
        // Leaving the preload range: renders cancelled, textures released, layouts dropped.
        for (index, state) in cells where !ranges.preload.contains(index) {
            state.target?.cancel()
            if let texture = state.texture { release(texture, bytes: state.textureBytes) }
            cells[index] = nil
        }
        // Leaving the display range: the render in flight is cancelled (its sentinel moves on).
        for (index, state) in cells where !ranges.display.contains(index) && state.target != nil {
            state.target?.cancel()
            cells[index]?.target = nil
        }
        continueHeightPass()
        // Nearest first: visible cells, then outwards, ahead of the scrolling before behind it.
        for index in ordered(ranges.preload) where !failed.contains(index) {
            var state = cells[index] ?? CellState()
            let visible = ranges.visible.contains(index)
            if state.layout == nil, !state.preloading {
                state.preloading = true
                preload(index, priority: visible ? .visible : .prefetch)
            }
            if settings.mode == .asynchronous, ranges.display.contains(index), let layout = state.layout, state.texture == nil,
               !uncommitted.contains(where: { $0.index == index }) {
                let priority: RenderQueuePool.Priority = visible ? .visible : .prefetch
                // A cell that came on screen while its render waits behind prefetch work is asked again, ahead.
                if state.target == nil || (state.priority < priority && pool.pendingCount > 0) {
                    if reservedBytes(excluding: index) + bytes(of: index) <= settings.textureMemoryLimit {
                        state.target?.cancel()
                        state.target = render(index, layout: layout, priority: priority)
                        state.priority = priority
                    }
                }
            }
            cells[index] = state
        }
    }

    /// The preload range's cells nearest the viewport first.
    private func ordered(_ range: Range<Int>) -> [Int] {
        let ahead = scroll.direction >= 0
        return range.sorted { a, b in
            let (da, db) = (ranges.distance(of: a), ranges.distance(of: b))
            if da != db { return da < db }
            return ahead ? a > b : a < b
        }
    }

    /// Lays out the next chunk of cells on the pool, after everything else waiting there:
    /// one chunk at a time, so preloads and renders never queue behind the whole feed.
    private func continueHeightPass() {
        guard !heightPassBusy else { return }
        while heightCursor < geometry.count, geometry.known[heightCursor] != nil { heightCursor += 1 }
        guard heightCursor < geometry.count else { return }
        let chunk = heightCursor..<min(geometry.count, heightCursor + 8)
        heightCursor = chunk.upperBound
        heightPassBusy = true
        let posts = Array(zip(chunk, document.posts[chunk]))
        let (precomputer, options, width, inbox, work) = (precomputer, renderOptions, settings.width, inbox, work)
        work.enter()
        pool.submit(priority: .prefetch) {
            let heights = posts.map { index, post in
                (index, Result { () throws(LayoutError) in options.pixels(try precomputer.layout(post, width: width, scale: options.scale).height) })
            }
            inbox.append(.heights(heights))
            work.leave()
        }
    }

    /// Lays a cell out (a height-cache hit once the height pass has been there) and decodes
    /// its pictures at their pixel sizes into the picture cache, on the pool.
    private func preload(_ index: Int, priority: RenderQueuePool.Priority) {
        let post = document.posts[index]
        let (precomputer, media, options, width, inbox, work) = (precomputer, media, renderOptions, settings.width, inbox, work)
        work.enter()
        pool.submit(priority: priority) {
            let result = Result { () throws(LayoutError) in try precomputer.layout(post, width: width, scale: options.scale) }
            if case .success(let cell) = result {
                func px(_ value: Double) -> Int { Int((value * options.scale).rounded()) }
                for element in cell.elements {
                    guard let picture = element.picture else { continue }
                    let (w, h) = (px(element.frame.maxX) - px(element.frame.x), px(element.frame.maxY) - px(element.frame.y))
                    if w > 0, h > 0 { _ = media.image(picture, width: w, height: h) }
                }
            }
            inbox.append(.preloaded(index: index, result))
            work.leave()
        }
    }

    /// Starts a cell's render on the pool.
    private func render(_ index: Int, layout: CellLayout, priority: RenderQueuePool.Priority) -> RenderTarget? {
        let (inbox, work) = (inbox, work)
        let target = RenderTarget(name: document.posts[index].id)
        let task: DisplayTask
        do {
            task = try DisplayTask.cell(layout, renderer: cellRenderer, options: renderOptions, didDisplay: { target, outcome in
                inbox.append(.rendered(index: index, target: target, outcome: outcome))
                work.leave()
            })
        } catch {
            failed.insert(index)
            messages.append("\(document.path): post \(document.posts[index].id): \(error) (skipped)")
            return nil
        }
        work.enter()
        stats.rendersStarted += 1
        renderer.display(task, on: target, priority: priority)
        return target
    }

    /// Bytes of a cell's texture (known or estimated height).
    private func bytes(of index: Int) -> Int { pixelWidth * geometry.height(index) * 4 }

    /// Texture bytes the display range holds or will hold (textures, renders in flight,
    /// bitmaps waiting), less one cell's.
    private func reservedBytes(excluding excluded: Int) -> Int {
        var total = 0
        for (index, state) in cells where index != excluded && ranges.display.contains(index) {
            if state.texture != nil { total += state.textureBytes } else if state.target != nil { total += bytes(of: index) }
        }
        for pending in uncommitted where pending.index != excluded { total += pending.bitmap.pixels.count }
        return total
    }

    // MARK: - Commits and textures

    /// Turns finished bitmaps into textures, visible cells' first, until the deadline (at
    /// least one per frame); the rest wait for the next frame.
    private func commit(until deadline: Double) {
        guard !uncommitted.isEmpty else { return }
        uncommitted.removeAll { !ranges.display.contains($0.index) || cells[$0.index] == nil }
        uncommitted.sort { ranges.distance(of: $0.index) < ranges.distance(of: $1.index) }
        var committed = 0
        while committed < uncommitted.count, committed == 0 || monotonicSeconds() < deadline {
            let (index, bitmap) = uncommitted[committed]
            committed += 1
            guard makeRoom(for: bitmap.pixels.count, nearerThan: index), let texture = window.makeTexture(bitmap) else { continue }
            if let old = cells[index]?.texture { release(old, bytes: cells[index]?.textureBytes ?? 0) }
            cells[index]?.texture = texture
            cells[index]?.textureBytes = bitmap.pixels.count
            textureBytes += bitmap.pixels.count
            stats.textureBytesPeak = max(stats.textureBytesPeak, textureBytes)
            stats.commits += 1
        }
        uncommitted.removeFirst(committed)
        stats.deferredCommits += uncommitted.count
    }

    /// Releases textures, farthest from the viewport first and never one nearer than the
    /// cell being committed, until `bytes` more fit under the limit.
    private func makeRoom(for bytes: Int, nearerThan index: Int) -> Bool {
        guard textureBytes + bytes > settings.textureMemoryLimit else { return true }
        let distance = ranges.distance(of: index)
        let candidates = cells.filter { $0.value.texture != nil && ranges.distance(of: $0.key) > distance }
            .sorted { ranges.distance(of: $0.key) > ranges.distance(of: $1.key) }
        for (victim, state) in candidates where textureBytes + bytes > settings.textureMemoryLimit {
            if let texture = state.texture { release(texture, bytes: state.textureBytes) }
            cells[victim]?.texture = nil
            cells[victim]?.textureBytes = 0
        }
        return textureBytes + bytes <= settings.textureMemoryLimit
    }

    private func release(_ texture: TextureID, bytes: Int) {
        window.destroyTexture(texture)
        textureBytes -= bytes
        stats.texturesReleased += 1
    }

    // MARK: - Drawing

    /// `--sync`: lays out (if the height pass has not) and draws each visible cell without
    /// a texture on this thread, as drawRect: does. Returns the seconds it took.
    private func drawVisibleOnMainThread() -> Double {
        let start = monotonicSeconds()
        for index in ranges.visible where cells[index]?.texture == nil && !failed.contains(index) {
            let post = document.posts[index]
            guard let layout = cells[index]?.layout ?? (try? precomputer.layout(post, width: settings.width, scale: settings.scale)) else { continue }
            let bitmap: Bitmap?
            do { bitmap = try cellRenderer.render(layout, options: renderOptions) } catch {
                failed.insert(index)
                continue
            }
            stats.rendersStarted += 1
            stats.rendersFinished += 1
            if let bitmap, makeRoom(for: bitmap.pixels.count, nearerThan: index), let texture = window.makeTexture(bitmap) {
                var state = cells[index] ?? CellState()
                state.layout = layout
                state.texture = texture
                state.textureBytes = bitmap.pixels.count
                cells[index] = state
                textureBytes += bitmap.pixels.count
                stats.textureBytesPeak = max(stats.textureBytesPeak, textureBytes)
                stats.commits += 1
            }
        }
        return monotonicSeconds() - start
    }

    /// Draws the visible cells (textures, or placeholders) and the message bar. Returns
    /// whether some visible cell showed its placeholder.
    private func draw() -> Bool {
        let theme = settings.theme
        window.clear(theme.background)
        let offset = Int(scroll.offset.rounded())
        var placeholder = false
        for index in ranges.visible {
            let (top, height) = (geometry.top(index) - offset, geometry.height(index))
            guard height > 0 else { continue }
            if let texture = cells[index]?.texture {
                window.draw(texture, x: 0, y: top, width: pixelWidth, height: cells[index].map { $0.textureBytes / (pixelWidth * 4) } ?? height)
            } else {
                placeholder = true
                drawPlaceholder(index, top: top, height: height)
            }
        }
        drawMessages()
        return placeholder
    }

    /// The empty scroll: the window cleared, nothing else (ranges still follow the offset).
    private func emptyDraw() -> Bool {
        ranges = CellRanges(geometry: geometry, offset: Int(scroll.offset.rounded()), height: pixelHeight, direction: scroll.direction)
        continueHeightPass()
        window.clear(settings.theme.background)
        return false
    }

    /// A cell not drawn yet: its elements' frames (or a bar before it is laid out) filled
    /// with the theme's picture fill on its background.
    private func drawPlaceholder(_ index: Int, top: Int, height: Int) {
        let theme = settings.theme
        window.fill(x: 0, y: top, width: pixelWidth, height: height, color: theme.background)
        let scale = settings.scale
        func px(_ value: Double) -> Int { Int((value * scale).rounded()) }
        guard let layout = cells[index]?.layout else {
            window.fill(x: px(12), y: top + px(12), width: pixelWidth - px(24), height: px(16), color: theme.imageFill)
            return
        }
        for element in layout.elements {
            let frame = element.frame
            window.fill(x: px(frame.x), y: top + px(frame.y), width: px(frame.maxX) - px(frame.x),
                        height: min(px(frame.maxY) - px(frame.y), height - px(frame.y)), color: theme.imageFill)
        }
    }

    /// The last messages, in a bar at the window's bottom (drawn with the feed's own text
    /// engine, on the main thread: they are rare).
    private func drawMessages() {
        guard !messages.isEmpty else { return }
        if overlay?.messages != messages.count {
            if let old = overlay { window.destroyTexture(old.texture) }
            overlay = nil
            let shown = messages.suffix(3).joined(separator: "\n")
            let style = TextStyle(size: 12, ink: .white)
            var options = renderOptions
            options.background = Color(red: 160, green: 30, blue: 30)
            if let layout = try? precomputer.engine.layout(AttributedText(shown, style: style),
                                                           options: LayoutOptions(width: settings.width - 16, maxLines: 6)),
               let text = (try? cellRenderer.textRenderer.render(layout, options: options))?.bitmap,
               var bar = try? Bitmap(width: pixelWidth, height: text.height + renderOptions.pixels(12), format: .rgba8, background: options.background) {
                let inset = renderOptions.pixels(8), top = renderOptions.pixels(6)
                for row in 0..<text.height {
                    let source = row * text.width * 4, destination = ((row + top) * bar.width + inset) * 4
                    let count = min(text.width, bar.width - inset) * 4
                    guard count > 0 else { break }
                    bar.pixels.replaceSubrange(destination..<destination + count, with: text.pixels[source..<source + count])
                }
                if let texture = window.makeTexture(bar) { overlay = (texture, bar.height, messages.count) }
            }
        }
        if let overlay { window.draw(overlay.texture, x: 0, y: pixelHeight - overlay.height, width: pixelWidth, height: overlay.height) }
    }

    // MARK: - Closing

    /// What closing left behind: all zero after `close()`.
    public struct Leftovers: Sendable, Equatable {
        public var textures: Int
        public var textureBytes: Int
        public var pendingJobs: Int

        public init(textures: Int, textureBytes: Int, pendingJobs: Int) {
            self.textures = textures
            self.textureBytes = textureBytes
            self.pendingJobs = pendingJobs
        }
    }

    /// Cancels every render, waits for every job handed to the pool to be reported,
    /// releases every texture and closes the window. Safe to call again.
    @discardableResult
    public func close() -> Leftovers {
        if !closed {
            closed = true
            for state in cells.values { state.target?.cancel() }
            work.wait()
            _ = inbox.take()
            uncommitted = []
            for state in cells.values { if let texture = state.texture { release(texture, bytes: state.textureBytes) } }
            cells = [:]
            if let overlay { window.destroyTexture(overlay.texture) }
            overlay = nil
        }
        let leftovers = Leftovers(textures: window.textureCount, textureBytes: textureBytes, pendingJobs: pool.pendingCount)
        window.close()
        return leftovers
    }
}
