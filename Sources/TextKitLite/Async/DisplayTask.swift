/// What a target asks for when it needs new contents, in three parts (as YYAsyncLayer's
/// display task):
///
/// 1. `willDisplay`, on the caller's side, before any work starts;
/// 2. `display`, on a background worker: draws into a bitmap of the task's size and asks
///    `isCancelled` as often as it can (the text renderer asks before each line);
/// 3. `didDisplay`, on the callback queue, with the outcome: a bitmap when the work
///    finished, none when it was cancelled or failed.
public struct DisplayTask: Sendable {
    /// Bitmap width in pixels (a text task's: its layout's box; see `text`).
    public var width: Int { didSet { textFrame = nil } }
    /// Bitmap height in pixels (a text task's: its layout's box; see `text`).
    public var height: Int { didSet { textFrame = nil } }
    /// The bitmap's pixel format.
    public var format: Bitmap.PixelFormat
    /// The color the bitmap is filled with before `display` draws.
    public var background: Color
    /// A bitmap with more pixels fails with `RenderError.bitmapTooLarge`.
    public var maxPixels: Int
    /// Called on the caller's thread when the display is requested, before any work.
    public var willDisplay: @Sendable (RenderTarget) -> Void
    /// Draws the contents; runs on a worker (or on the caller's thread for a synchronous
    /// display). The second argument tells whether the work has been superseded.
    public var display: @Sendable (_ bitmap: inout Bitmap, _ isCancelled: () -> Bool) -> Void
    /// Called on the callback queue once per request, with the outcome.
    public var didDisplay: @Sendable (RenderTarget, Outcome) -> Void
    /// A text task's bitmap, found on the worker: its box grown by the ink outside it
    /// (`TextRenderer.frame`), in the box's pixel coordinates. nil: `width × height` at the
    /// origin (any other task, or a text task whose size was set).
    private var textFrame: (@Sendable () -> PixelFrame)?

    /// Creates a task that draws into a bitmap of the given size.
    ///
    /// - Parameters:
    ///   - width: bitmap width in pixels.
    ///   - height: bitmap height in pixels.
    ///   - format: the bitmap's pixel format.
    ///   - background: the color the bitmap starts with (white).
    ///   - maxPixels: the size limit of the bitmap.
    ///   - willDisplay: called on the caller's side before the work starts.
    ///   - display: draws into the bitmap, checking `isCancelled`.
    ///   - didDisplay: called on the callback queue with the outcome.
    public init(
        width: Int, height: Int, format: Bitmap.PixelFormat = .gray8, background: Color = .white, maxPixels: Int = RenderOptions.defaultMaxPixels,
        willDisplay: @escaping @Sendable (RenderTarget) -> Void = { _ in },
        display: @escaping @Sendable (_ bitmap: inout Bitmap, _ isCancelled: () -> Bool) -> Void,
        didDisplay: @escaping @Sendable (RenderTarget, Outcome) -> Void = { _, _ in }
    ) {
        self.width = width
        self.height = height
        self.format = format
        self.background = background
        self.maxPixels = maxPixels
        self.willDisplay = willDisplay
        self.display = display
        self.didDisplay = didDisplay
    }

    /// A task that draws a text layout, as `TextRenderer.render` does (same pixels, same
    /// bitmap size): `width` and `height` are the layout's box at `options.scale`, and the
    /// bitmap grows to the ink outside it on the worker unless `options.inkOverflow` is
    /// `.clip` (`Outcome.originX`, `originY` tell where the layout's origin lies).
    /// Setting `width` or `height` draws into a bitmap of exactly that size instead; a
    /// `display` wrapping the task's own keeps the grown bitmap.
    ///
    /// - Parameters:
    ///   - layout: the text to draw.
    ///   - options: scale, background, debug overlay, size limit.
    ///   - renderer: the renderer (and so the glyph cache) to draw with.
    ///   - lineDrawn: called on the worker after each line with its index (a progress and test hook).
    ///   - willDisplay: called on the caller's side before the work starts.
    ///   - didDisplay: called on the callback queue with the outcome.
    /// - Throws: `RenderError.invalidOption` for invalid render options.
    public static func text(
        _ layout: TextLayout, options: RenderOptions = RenderOptions(), renderer: TextRenderer = TextRenderer(),
        lineDrawn: @escaping @Sendable (Int) -> Void = { _ in },
        willDisplay: @escaping @Sendable (RenderTarget) -> Void = { _ in },
        didDisplay: @escaping @Sendable (RenderTarget, Outcome) -> Void = { _, _ in }
    ) throws(RenderError) -> DisplayTask {
        try options.validate()
        let box = renderer.box(of: layout, options: options)
        var task = DisplayTask(
            width: box.width, height: box.height,
            format: options.format, background: options.background, maxPixels: options.maxPixels, willDisplay: willDisplay,
            display: { bitmap, isCancelled in
                // The bitmap `perform` made of the frame (found again: the same pixels), or one
                // of another size (set by the caller), drawn into at the origin.
                let frame = options.inkOverflow == .include ? renderer.frame(of: layout, options: options) : box
                let fits = bitmap.width == frame.width && bitmap.height == frame.height
                renderer.draw(layout, into: &bitmap, x: 0, y: 0, shiftX: fits ? -frame.minX : 0, shiftY: fits ? -frame.minY : 0,
                              options: options, isCancelled: isCancelled, lineDrawn: lineDrawn)
            },
            didDisplay: didDisplay)
        if options.inkOverflow == .include {
            task.textFrame = { renderer.frame(of: layout, options: options) }
        }
        return task
    }

    /// Runs the drawing part: checks for cancellation before starting and after drawing.
    func perform(isCancelled: () -> Bool) -> DisplayWork {
        if isCancelled() { return .cancelled }
        let frame = textFrame?() ?? PixelFrame(minX: 0, minY: 0, maxX: width, maxY: height)
        var bitmap: Bitmap
        do {
            bitmap = try Bitmap(width: frame.width, height: frame.height, format: format, background: background, maxPixels: maxPixels)
        } catch {
            return .failed(error)
        }
        display(&bitmap, isCancelled)
        return isCancelled() ? .cancelled : .drawn(bitmap, originX: -frame.minX, originY: -frame.minY)
    }
}

extension DisplayTask {
    /// How a display request ended, as reported to `didDisplay`.
    public struct Outcome: Sendable {
        /// The new contents; nil unless the request finished.
        public let bitmap: Bitmap?
        /// Why the request failed (the bitmap could not be made); nil when it finished or was cancelled.
        public let error: RenderError?
        /// Where the layout's origin lies in the bitmap, in pixels from its left and top edges:
        /// 0 unless a text task's ink overflows its box to the left or above (see `DisplayTask.text`).
        public let originX: Int
        public let originY: Int

        init(bitmap: Bitmap?, error: RenderError?, originX: Int = 0, originY: Int = 0) {
            self.bitmap = bitmap
            self.error = error
            self.originX = originX
            self.originY = originY
        }

        /// True when the request finished and its bitmap became the target's contents; false when
        /// it was cancelled (superseded, or the target was cancelled) or failed.
        public var finished: Bool { bitmap != nil }

        /// True when the request was cancelled rather than failed.
        public var isCancelled: Bool { bitmap == nil && error == nil }

        static let cancelled = Outcome(bitmap: nil, error: nil)
    }
}

/// What the background part of a request produced, before the commit on the callback queue.
enum DisplayWork: Sendable {
    case drawn(Bitmap, originX: Int, originY: Int)
    case cancelled
    case failed(RenderError)
}
