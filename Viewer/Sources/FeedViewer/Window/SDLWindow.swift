internal import CSDL2
import TextKitLite

/// Why a window could not be had.
public struct WindowError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ what: String) { description = "\(what): \(String(cString: SDL_GetError()))" }
}

/// A texture on the window's renderer, by number (the SDL handle stays in `SDLWindow`).
public struct TextureID: Hashable, Sendable {
    let value: Int
}

/// What the user did, as the viewer's loop reads it.
public enum InputEvent: Sendable, Equatable {
    case quit
    /// Wheel clicks, positive away from the user (scrolls towards earlier posts).
    case wheel(Double)
    case key(Key)
    /// A button went down, moved, or came up at a window y (pixels).
    case pointerDown(y: Double)
    case pointerMoved(y: Double)
    case pointerUp

    public enum Key: Sendable, Equatable { case up, down, pageUp, pageDown, home, end, escape }
}

/// The window, its renderer and its textures: every SDL call of the viewer is in this file.
/// Main thread only (SDL's video functions are), so not `Sendable`.
///
/// Textures are `SDL_PIXELFORMAT_ABGR8888`: on a little-endian machine that is bytes R, G,
/// B, A in memory, the layout of a `Bitmap.PixelFormat.rgba8` bitmap, so a bitmap is uploaded as
/// it is, without a swizzle (SDL's `RGBA32` alias). Cells are opaque, so textures are drawn
/// without blending; premultiplied alpha never matters.
public final class SDLWindow {
    /// Window size in pixels.
    public let width: Int
    public let height: Int
    private var window: OpaquePointer?
    private var renderer: OpaquePointer?
    private var textures: [Int: OpaquePointer] = [:]
    private var nextTexture = 0
    private static let pixelFormat = SDL_PIXELFORMAT_ABGR8888.rawValue

    /// Opens a window (SDL's video subsystem is started with the first one).
    ///
    /// - Parameters:
    ///   - accelerated: SDL's default (GPU) renderer; false (the default) uses its software
    ///     renderer, which under Xvfb costs no llvmpipe threads and reads back exactly.
    public init(title: String, width: Int, height: Int, accelerated: Bool = false) throws(WindowError) {
        self.width = width
        self.height = height
        SDL_SetMainReady()
        // Nearest-pixel copies: textures are drawn 1:1 anyway.
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "0")
        // No compositor bypass games: keep the desktop's compositor running.
        SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        guard SDL_InitSubSystem(UInt32(SDL_INIT_VIDEO)) == 0 else { throw WindowError("SDL_Init") }
        guard let window = SDL_CreateWindow(title, Int32(truncatingIfNeeded: SDL_WINDOWPOS_UNDEFINED_MASK), Int32(truncatingIfNeeded: SDL_WINDOWPOS_UNDEFINED_MASK),
                                            Int32(clamping: width), Int32(clamping: height), UInt32(SDL_WINDOW_SHOWN.rawValue)) else {
            let error = WindowError("SDL_CreateWindow")
            SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO))
            throw error
        }
        let flags = accelerated ? UInt32(SDL_RENDERER_ACCELERATED.rawValue) : UInt32(SDL_RENDERER_SOFTWARE.rawValue)
        guard let renderer = SDL_CreateRenderer(window, -1, flags) else {
            let error = WindowError("SDL_CreateRenderer")
            SDL_DestroyWindow(window)
            SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO))
            throw error
        }
        self.window = window
        self.renderer = renderer
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE)
    }

    deinit { close() }

    /// Destroys every texture, the renderer and the window. Safe to call again.
    public func close() {
        for texture in textures.values { SDL_DestroyTexture(texture) }
        textures.removeAll()
        if let renderer { SDL_DestroyRenderer(renderer) }
        if let window { SDL_DestroyWindow(window) }
        if window != nil { SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO)) }
        renderer = nil
        window = nil
    }

    /// Textures alive.
    public var textureCount: Int { textures.count }

    /// Makes a texture of an RGBA bitmap; nil if the renderer refuses it (too large, no
    /// memory): the cell keeps its placeholder.
    public func makeTexture(_ bitmap: Bitmap) -> TextureID? {
        guard let renderer, bitmap.format == .rgba8, bitmap.width > 0, bitmap.height > 0,
              let width = Int32(exactly: bitmap.width), let height = Int32(exactly: bitmap.height),
              let pitch = Int32(exactly: bitmap.width * 4),
              let texture = SDL_CreateTexture(renderer, Self.pixelFormat, Int32(SDL_TEXTUREACCESS_STATIC.rawValue), width, height)
        else { return nil }
        let updated = bitmap.pixels.withUnsafeBytes { SDL_UpdateTexture(texture, nil, $0.baseAddress, pitch) }
        guard updated == 0 else {
            SDL_DestroyTexture(texture)
            return nil
        }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_NONE)
        nextTexture += 1
        textures[nextTexture] = texture
        return TextureID(value: nextTexture)
    }

    public func destroyTexture(_ id: TextureID) {
        if let texture = textures.removeValue(forKey: id.value) { SDL_DestroyTexture(texture) }
    }

    /// Fills the whole window.
    public func clear(_ color: Color) {
        guard let renderer else { return }
        SDL_SetRenderDrawColor(renderer, color.red, color.green, color.blue, 255)
        SDL_RenderClear(renderer)
    }

    /// Fills a rectangle (pixels).
    public func fill(x: Int, y: Int, width: Int, height: Int, color: Color) {
        guard let renderer, width > 0, height > 0 else { return }
        SDL_SetRenderDrawColor(renderer, color.red, color.green, color.blue, 255)
        var rect = Self.rect(x, y, width, height)
        SDL_RenderFillRect(renderer, &rect)
    }

    /// Draws a texture 1:1 with its top-left corner at (x, y).
    public func draw(_ id: TextureID, x: Int, y: Int, width: Int, height: Int) {
        guard let renderer, let texture = textures[id.value] else { return }
        var rect = Self.rect(x, y, width, height)
        SDL_RenderCopy(renderer, texture, nil, &rect)
    }

    /// Shows what was drawn.
    public func present() {
        if let renderer { SDL_RenderPresent(renderer) }
    }

    /// What was drawn since the last present, as an RGBA bitmap (read back in ABGR8888:
    /// bytes R, G, B, A).
    public func readPixels() -> Bitmap? {
        guard let renderer, var bitmap = try? Bitmap(width: width, height: height, format: .rgba8, background: .white) else { return nil }
        let result = bitmap.pixels.withUnsafeMutableBytes {
            SDL_RenderReadPixels(renderer, nil, Self.pixelFormat, $0.baseAddress, Int32(clamping: width * 4))
        }
        guard result == 0 else { return nil }
        // The window has no alpha: every pixel is opaque.
        for index in stride(from: 3, to: bitmap.pixels.count, by: 4) { bitmap.pixels[index] = 255 }
        return bitmap
    }

    /// The events waiting, translated; those the viewer does not use are dropped.
    public func pollEvents() -> [InputEvent] {
        var events: [InputEvent] = []
        var event = SDL_Event()
        while SDL_PollEvent(&event) != 0 {
            switch SDL_EventType(event.type) {
            case SDL_QUIT: events.append(.quit)
            case SDL_WINDOWEVENT where event.window.event == UInt8(SDL_WINDOWEVENT_CLOSE.rawValue): events.append(.quit)
            case SDL_MOUSEWHEEL:
                let clicks = Double(event.wheel.y) * (event.wheel.direction == UInt32(SDL_MOUSEWHEEL_FLIPPED.rawValue) ? -1 : 1)
                events.append(.wheel(clicks))
            case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT): events.append(.pointerDown(y: Double(event.button.y)))
            case SDL_MOUSEMOTION where event.motion.state & 1 != 0  /* SDL_BUTTON_LMASK */: events.append(.pointerMoved(y: Double(event.motion.y)))
            case SDL_MOUSEBUTTONUP where event.button.button == UInt8(SDL_BUTTON_LEFT): events.append(.pointerUp)
            case SDL_KEYDOWN:
                switch Int(event.key.keysym.sym) {
                case Int(SDLK_UP.rawValue): events.append(.key(.up))
                case Int(SDLK_DOWN.rawValue): events.append(.key(.down))
                case Int(SDLK_PAGEUP.rawValue): events.append(.key(.pageUp))
                case Int(SDLK_PAGEDOWN.rawValue), Int(SDLK_SPACE.rawValue): events.append(.key(.pageDown))
                case Int(SDLK_HOME.rawValue): events.append(.key(.home))
                case Int(SDLK_END.rawValue): events.append(.key(.end))
                case Int(SDLK_ESCAPE.rawValue), Int(SDLK_q.rawValue): events.append(.key(.escape))
                default: break
                }
            default: break
            }
        }
        return events
    }

    private static func rect(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> SDL_Rect {
        SDL_Rect(x: Int32(clamping: x), y: Int32(clamping: y), w: Int32(clamping: width), h: Int32(clamping: height))
    }
}
