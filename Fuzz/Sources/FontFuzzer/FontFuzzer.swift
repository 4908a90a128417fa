import Foundation
import FuzzSupport
@testable import TextKitLite

/// The process entry point: libFuzzer's driver over `FontFuzzer.run`.
@main
struct FontFuzzerMain {
    static func main() {
        FuzzDriver.run(name: "FontFuzzer", FontFuzzer.run)
    }
}

/// Fonts are untrusted input too: damages a bundled font as a fuzz input says, loads it
/// through the library's loading path, and shapes, lays out, measures and draws a short
/// text with it first in a fallback chain (the bundled fonts after it).
///
/// Input: `headerSize` bytes of choices (font, number of damages, size, width, lines,
/// direction, truncation, language), then 8 bytes per damage (see `SFNTFont.damaged`),
/// then the text (UTF-8, at most `maximumTextBytes`; a mixed-script sample when empty).
/// Seeds need no font: the font is a bundled one, by index.
///
/// Invariants:
/// 1. Loading fails only with a `FontError` that says the bytes are not a usable font (or
///    empty); never a trap.
/// 2. A loaded font has finite metrics; the shared invariants (`FuzzSupport.Invariants`)
///    hold for its layouts: every unit in one line, finite positions, shape once and break
///    again gives the same lines, `TextEngine.measure` agrees with the layout, and renders at 1× and 2× are the exact size or refused by the pixel limit,
///    deterministic, and grown by ink overflow only around the exact box's pixels.
/// Traps, AddressSanitizer reports, runs over the time limit and memory over the limit
/// are found by libFuzzer itself.
enum FontFuzzer {
    static let headerSize = 5
    static let maximumDamages = 7
    static let maximumTextBytes = 64
    /// Outline fonts (TrueType, CFF) and the CBDT bitmap font.
    static let files = [BundledFonts.sans, BundledFonts.sansBold, BundledFonts.cjk, BundledFonts.emoji]
    static let sample = "Hi мир Ελλάδα שלום مرحبا 中文，「かな」 👋🏽 ﬁ ½"
    static let languages: [String?] = [nil, "zh", "ar", "ja"]

    static let fonts: [SFNTFont] = files.map { file in
        guard let data = FileManager.default.contents(atPath: BundledFonts.path(file)) else { fatalError("cannot read \(file)") }
        return SFNTFont(file: file, bytes: [UInt8](data))
    }
    /// The undamaged fonts, for the glyphs of the text (whose outlines a damage may target).
    static let originals: [Font] = files.map { file in
        do { return try Font.load(path: BundledFonts.path(file)) } catch { fatalError("bundled font: \(error)") }
    }
    static let fallbacks: [Font] = {
        do { return try BundledFonts.chain().fonts } catch { fatalError("bundled fonts: \(error)") }
    }()
    static let renderer = TextRenderer(glyphCache: GlyphCache(maxBytes: 8 << 20))
    /// Where the damaged font is written for loading (memory-backed; one file per process,
    /// rewritten in place for each input: truncating it would free its pages every time).
    static let path: String = {
        let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let path = "\(folder)/textkitlite-fontfuzz-\(getpid()).font"
        atexit { unlink(FontFuzzer.path) }
        return path
    }()
    static let file: CInt = {
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { fatalError("cannot create \(path): \(String(cString: strerror(errno)))") }
        return descriptor
    }()

    static func run(_ input: [UInt8]) {
        var header = Array(input.prefix(headerSize))
        header += [UInt8](repeating: 0, count: headerSize - header.count)
        let index = Int(header[0]) % fonts.count
        let damageCount = Int(header[1]) % (maximumDamages + 1)
        let damages = input.dropFirst(headerSize).prefix(damageCount * 8)
        let textBytes = input.dropFirst(headerSize + damageCount * 8).prefix(maximumTextBytes)
        let string = textBytes.isEmpty ? sample : String(decoding: textBytes, as: UTF8.self)

        let glyphs = string.unicodeScalars.compactMap { originals[index].harfBuzz.glyph(for: $0.value) }
        let damaged = fonts[index].damaged(by: damages, glyphs: glyphs)
        guard let font = load(damaged.bytes.prefix(damaged.length), file: fonts[index].file) else { return }
        let metrics = font.metrics(size: 12)
        require(metrics.ascent.isFinite && metrics.descent.isFinite && metrics.lineGap.isFinite && font.unitsPerEm > 0,
                "\(font): metrics \(metrics), \(font.unitsPerEm) units per em")

        let chain = FontFallbackChain(primary: font, fallbacks: fallbacks)
        // A fresh shaped-word cache per input: a crash reproduces from its input alone.
        let engine = TextEngine(fonts: chain, shapeCache: ShapeCache(maxEntries: 512, maxBytes: 1 << 20))
        let style = TextStyle(size: 4 + Double(header[2]) * 0.25, language: languages[Int(header[4] >> 6)])
        let text = AttributedText(string, style: style)
        let options = LayoutOptions(
            width: 16 + Double(header[3]) * 2, maxLines: Int(header[4] & 3),
            truncation: TruncationMode.allCases[Int(header[4] >> 4 & 3) % 3],
            direction: ParagraphDirection.allCases[Int(header[4] >> 2 & 3) % 3])
        let layout = Invariants.checkedLayout(text, options: options, engine: engine)
        Invariants.checkRelayout(layout, text: text, engine: engine)
        for scale in [1.0, 2.0] {
            Invariants.checkRender(layout, renderer: renderer, options: RenderOptions(scale: scale, maxPixels: 1 << 20))
        }
    }

    /// Loads the damaged bytes as the library loads a font file: nil when it refuses them
    /// (as it may: they are not a usable font).
    static func load(_ bytes: ArraySlice<UInt8>, file: String) -> Font? {
        let written = bytes.withUnsafeBytes { pwrite(Self.file, $0.baseAddress, $0.count, 0) }
        guard written == bytes.count, ftruncate(Self.file, off_t(bytes.count)) == 0 else {
            fatalError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        do {
            return try Font(path: path, faceIndex: 0)
        } catch {
            switch error.reason {
            case .notAFont, .empty, .faceIndexOutOfRange:
                require(error.path == path && !error.description.isEmpty, "font error \(error) for \(path)")
                return nil
            default:
                fail("damaged \(file) refused for another reason than its bytes: \(error)")
            }
        }
    }
}
