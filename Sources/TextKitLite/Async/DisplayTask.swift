/// What a target asks for when it needs new contents, in three parts (as YYAsyncLayer's
/// display task):
///
/// 1. `willDisplay`, on the caller's side, before any work starts;
/// 2. `display`, on a background worker: draws into a bitmap of the task's size and asks
///    `isCancelled` as often as it can (the text renderer asks before each line);
/// 3. `didDisplay`, on the callback queue, with the outcome: a bitmap when the work
///    finished, none when it was cancelled or failed.
public struct DisplayTask: Sendable {
    /// Bitmap width in pixels.
    public var width: Int
    /// Bitmap height in pixels.
    public var height: Int
    /// Gray level the bitmap is filled with before `display` draws.
    public var background: UInt8
    /// A bitmap with more pixels fails with `RenderError.bitmapTooLarge`.
    public var maxPixels: Int
    /// Called on the caller's thread when the display is requested, before any work.
    public var willDisplay: @Sendable (RenderTarget) -> Void
    /// Draws the contents; runs on a worker (or on the caller's thread for a synchronous
    /// display). The second argument tells whether the work has been superseded.
    public var display: @Sendable (_ bitmap: inout Bitmap, _ isCancelled: () -> Bool) -> Void
    /// Called on the callback queue once per request, with the outcome.
    public var didDisplay: @Sendable (RenderTarget, DisplayOutcome) -> Void

    /// Creates a task that draws into a bitmap of the given size.
    ///
    /// - Parameters:
    ///   - width: bitmap width in pixels.
    ///   - height: bitmap height in pixels.
    ///   - background: the gray level the bitmap starts with (255 white).
    ///   - maxPixels: the size limit of the bitmap.
    ///   - willDisplay: called on the caller's side before the work starts.
    ///   - display: draws into the bitmap, checking `isCancelled`.
    ///   - didDisplay: called on the callback queue with the outcome.
    public init(
        width: Int, height: Int, background: UInt8 = 255, maxPixels: Int = RenderOptions.defaultMaxPixels,
        willDisplay: @escaping @Sendable (RenderTarget) -> Void = { _ in },
        display: @escaping @Sendable (_ bitmap: inout Bitmap, _ isCancelled: () -> Bool) -> Void,
        didDisplay: @escaping @Sendable (RenderTarget, DisplayOutcome) -> Void = { _, _ in }
    ) {
        self.width = width
        self.height = height
        self.background = background
        self.maxPixels = maxPixels
        self.willDisplay = willDisplay
        self.display = display
        self.didDisplay = didDisplay
    }

    /// A task that draws a text layout, as `TextRenderer.render` does (same pixels).
    ///
    /// - Parameters:
    ///   - layout: the text to draw; the bitmap has its size at `options.scale`.
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
        didDisplay: @escaping @Sendable (RenderTarget, DisplayOutcome) -> Void = { _, _ in }
    ) throws(RenderError) -> DisplayTask {
        try options.validate()
        return DisplayTask(
            width: options.pixels(layout.size.width), height: options.pixels(layout.size.height),
            background: options.background, maxPixels: options.maxPixels, willDisplay: willDisplay,
            display: { bitmap, isCancelled in
                renderer.draw(layout, into: &bitmap, x: 0, y: 0, options: options,
                              isCancelled: isCancelled, lineDrawn: lineDrawn)
            },
            didDisplay: didDisplay)
    }

    /// Runs the drawing part: checks for cancellation before starting and after drawing.
    func perform(isCancelled: () -> Bool) -> DisplayWork {
        if isCancelled() { return .cancelled }
        var bitmap: Bitmap
        do {
            bitmap = try Bitmap(width: width, height: height, fill: background, maxPixels: maxPixels)
        } catch {
            return .failed(error)
        }
        display(&bitmap, isCancelled)
        return isCancelled() ? .cancelled : .drawn(bitmap)
    }
}

/// How a display request ended, as reported to `didDisplay`.
public struct DisplayOutcome: Sendable {
    /// The new contents; nil unless the request finished.
    public let bitmap: Bitmap?
    /// Why the request failed (the bitmap could not be made); nil when it finished or was cancelled.
    public let error: RenderError?

    /// True when the request finished and its bitmap became the target's contents; false when
    /// it was cancelled (superseded, or the target was cancelled) or failed.
    public var finished: Bool { bitmap != nil }

    /// True when the request was cancelled rather than failed.
    public var isCancelled: Bool { bitmap == nil && error == nil }

    static let cancelled = DisplayOutcome(bitmap: nil, error: nil)
}

/// What the background part of a request produced, before the commit on the callback queue.
enum DisplayWork: Sendable {
    case drawn(Bitmap)
    case cancelled
    case failed(RenderError)
}
