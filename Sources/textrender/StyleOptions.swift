import ArgumentParser
import TextKitLite

extension TextStyle.Weight: ExpressibleByArgument {}

/// Text style options of `render`: weight, slant, decorations, letter spacing, features,
/// language.
struct StyleOptions: ParsableArguments {
    @Option(help: "Font weight: \(TextStyle.Weight.allCases.map(\.rawValue).joined(separator: ", ")). Bold uses a bold face of the family when the chain has one (the bundled DejaVu Sans Bold), else emboldens the glyphs.")
    var weight: TextStyle.Weight = .regular

    @Flag(help: "Italic: an italic face of the family when the chain has one, else slanted glyphs.")
    var italic = false

    @Flag(help: "Underline the text (position and thickness from the font).")
    var underline = false

    @Flag(help: "Strike the text through (position and thickness from the font).")
    var strikethrough = false

    @Option(name: .customLong("letter-spacing"), parsing: .unconditional,
            help: "Extra points after each grapheme cluster (not inside joined Arabic words).")
    var letterSpacing: Double = 0

    @Option(help: ArgumentHelp("OpenType features, comma-separated: 'tnum,-liga', 'ss01=2'.", valueName: "list"))
    var features: String?

    @Option(name: .customLong("lang"), help: ArgumentHelp(
        "The text's language (BCP 47): language-specific glyphs and line breaking; for Chinese, Japanese and Korean the regional face of a CJK font (ja, ko, zh-Hans, zh-Hant, zh-HK).",
        valueName: "tag"))
    var language: String?

    func validate() throws {
        if let reason = OptionRules.letterSpacing(letterSpacing) { throw ValidationError("invalid --letter-spacing \(letterSpacing): \(reason)") }
        _ = try featureList()
        if let language, !TextStyle.isWellFormedLanguage(language) {
            throw ValidationError("invalid --lang \"\(language)\": expected a BCP 47 language tag such as ja, ko, zh-Hans, zh-Hant, en-US")
        }
    }

    private func featureList() throws -> [FontFeature] {
        guard let features else { return [] }
        guard let list = FontFeature.list(features) else {
            throw ValidationError("invalid --features \(features): \(OptionRules.featuresReason)")
        }
        return list
    }

    /// Sets the style in render settings.
    func apply(to settings: inout RenderSettings) throws {
        (settings.weight, settings.italic, settings.underline, settings.strikethrough) = (weight, italic, underline, strikethrough)
        (settings.letterSpacing, settings.features, settings.language) = (letterSpacing, try featureList(), language)
    }
}
