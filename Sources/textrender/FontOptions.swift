import ArgumentParser
import TextKitLite

/// Font options shared by every subcommand that lays out text.
struct FontOptions: ParsableArguments {
    @Option(name: .customLong("font"), help: ArgumentHelp(
        "A font file for the fallback chain, in order (repeatable). PATH or PATH#INDEX for a face of a collection (.ttc).",
        valueName: "path[#index]"))
    var fonts: [String] = []

    @Option(name: .customLong("font-size"), parsing: .unconditional, help: "Point size of the text.")
    var fontSize: Double = 17

    @Option(name: .customLong("line-spacing"), parsing: .unconditional, help: "Extra points between lines.")
    var lineSpacing: Double = 0

    func validate() throws {
        guard fontSize.isFinite, fontSize > 0, fontSize <= TextStyle.maximumSize else {
            throw ValidationError("invalid --font-size \(fontSize): must be in (0, \(Int(TextStyle.maximumSize))] points")
        }
        guard lineSpacing.isFinite, abs(lineSpacing) <= 1e6 else {
            throw ValidationError("invalid --line-spacing \(lineSpacing): must be a finite number of points within ±1e6")
        }
    }

    /// The fallback chain: the --font files, or the bundled fonts.
    func chain() throws -> FontFallbackChain {
        do {
            return fonts.isEmpty ? try BundledFonts.chain() : try FontFallbackChain.load(specs: fonts)
        } catch {
            throw CLIError(error.description)
        }
    }
}

/// An error printed as "Error: <message>" with exit status 1.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}

/// The most lines `--max-lines` accepts: more than any text shows, and far from where the
/// library's line-limit arithmetic (one line past the limit) overflows.
let maximumMaxLines = 1_000_000

/// Checks a `--max-lines` value: 0 (no limit) to `maximumMaxLines`.
func validateMaxLines(_ value: Int) throws {
    guard (0...maximumMaxLines).contains(value) else {
        throw ValidationError("invalid --max-lines \(value): must be from 0 (no limit) to \(maximumMaxLines)")
    }
}
