import ArgumentParser
import Foundation
import TextKitLite
import TextKitLiteFrontEnd

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
    var fontSize: Double = TextStyle.defaultSize

    @Option(name: .customLong("line-spacing"), parsing: .unconditional, help: "Extra points between lines.")
    var lineSpacing: Double = 0

    func validate() throws {
        if let problem = selection.problem { throw ValidationError(problem) }
        if let reason = OptionRules.fontSize(fontSize) { throw ValidationError("invalid --font-size \(fontSize): \(reason)") }
        if let reason = OptionRules.lineSpacing(lineSpacing) { throw ValidationError("invalid --line-spacing \(lineSpacing): \(reason)") }
    }

    var selection: FontSelection { FontSelection(files: fonts, families: families, fallback: !noFallback) }

    /// The fallback chain (see `FontSelection.chain()`).
    func chain() throws -> FontFallbackChain {
        do { return try selection.chain() } catch { throw CLIError(error.description) }
    }
}

/// An error printed as "Error: <message>" with exit status 1.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}

/// Reports a usage error found in `run()` (once fonts are loaded) as one found while parsing
/// is reported: the message and the subcommand's usage on standard error, status 64. (A
/// `ValidationError` thrown from `run()` would show the top-level command's usage.)
func usageFailure<Command: ParsableCommand>(_ message: String, of command: Command.Type) throws -> Never {
    let name = command.configuration.commandName ?? ""
    try Output.standardError("Error: \(message)\nUsage: textrender \(command.usageString())\n"
                             + "  See 'textrender \(name) --help' for more information.\n")
    throw ExitCode.validationFailure
}

/// Checks a `--max-lines` value: 0 (no limit) to `OptionRules.maximumMaxLines`.
func validateMaxLines(_ value: Int) throws {
    if let reason = OptionRules.maxLines(value) { throw ValidationError("invalid --max-lines \(value): \(reason)") }
}
