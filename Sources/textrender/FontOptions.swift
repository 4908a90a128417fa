import ArgumentParser
import Foundation
import TextKitLite

/// Font options shared by every subcommand that lays out text.
struct FontOptions: ParsableArguments {
    @Option(name: .customLong("font"), help: ArgumentHelp(
        "A font file for the fallback chain, in order, before the bundled fonts (repeatable). PATH or PATH#INDEX for a face of a collection (.ttc).",
        valueName: "path[#index]"))
    var fonts: [String] = []

    @Option(name: .customLong("font-family"), help: ArgumentHelp(
        "An installed font family for the fallback chain, found through fontconfig, after the --font files and before the bundled fonts (repeatable). NAME or NAME:STYLE (\"Noto Serif CJK JP:Bold\"); `fc-list : family` lists them.",
        valueName: "name[:style]"))
    var families: [String] = []

    @Flag(name: .customLong("no-fallback"), help: "Use only the --font and --font-family fonts: no bundled fonts behind them, and no installed fonts for characters they lack.")
    var noFallback = false

    @Option(name: .customLong("font-size"), parsing: .unconditional, help: "Point size of the text.")
    var fontSize: Double = 17

    @Option(name: .customLong("line-spacing"), parsing: .unconditional, help: "Extra points between lines.")
    var lineSpacing: Double = 0

    func validate() throws {
        if noFallback, fonts.isEmpty, families.isEmpty {
            throw ValidationError("--no-fallback needs --font or --font-family: there would be no font")
        }
        guard fontSize.isFinite, fontSize > 0, fontSize <= TextStyle.maximumSize else {
            throw ValidationError("invalid --font-size \(fontSize): must be in (0, \(Int(TextStyle.maximumSize))] points")
        }
        guard lineSpacing.isFinite, abs(lineSpacing) <= 1e6 else {
            throw ValidationError("invalid --line-spacing \(lineSpacing): must be a finite number of points within ±1e6")
        }
    }

    /// The fallback chain: the --font files and the --font-family fonts, then (unless
    /// --no-fallback) the bundled fonts, and installed fonts found through fontconfig for
    /// characters none of them has.
    func chain() throws -> FontFallbackChain {
        let given = try fonts + families.map(Self.installedFace)
        do {
            if noFallback { return try FontFallbackChain.load(specs: given) }
            return try BundledFonts.chain(after: given).withSystemFallback()
        } catch {
            throw CLIError(error.description)
        }
    }

    /// The font specification of an installed family "NAME" or "NAME:STYLE".
    private static func installedFace(_ family: String) throws -> String {
        let parts = family.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let name = parts.first, !name.isEmpty else { throw CLIError("invalid --font-family \"\(family)\": expected NAME or NAME:STYLE") }
        let style = parts.count > 1 && !parts[1].isEmpty ? parts[1] : nil
        guard let face = SystemFonts.face(family: name, style: style) else {
            throw CLIError("no installed font family \"\(name)\" (--font-family; `fc-list : family` lists the installed families)")
        }
        return face.spec
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
