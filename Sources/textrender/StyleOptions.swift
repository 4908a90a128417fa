import ArgumentParser
import TextKitLite
import TextKitLiteFrontEnd

extension TextStyle.Weight: ExpressibleByArgument {}

/// The style options that change how text is shaped and broken into lines: weight, slant,
/// letter spacing, features, language (`render`, and `measure --layout text`).
struct ShapingStyleOptions: ParsableArguments {
    @Option(help: "Font weight: \(TextStyle.Weight.allCases.map(\.rawValue).joined(separator: ", ")). Bold uses a bold face of the family when the chain has one (the bundled DejaVu Sans Bold), else emboldens the glyphs.")
    var weight: TextStyle.Weight = .regular

    @Flag(help: "Italic: an italic face of the family when the chain has one, else slanted glyphs.")
    var italic = false

    @Option(name: .customLong("letter-spacing"), parsing: .unconditional,
            help: "Extra points after each grapheme cluster (not inside joined Arabic words).")
    var letterSpacing: Double = 0

    @Option(help: ArgumentHelp("OpenType features, comma-separated: 'tnum,-liga', 'ss01=2'.", valueName: "list"))
    var features: String?

    @Option(help: ArgumentHelp(
        "Variable-font axis settings, comma-separated TAG=VALUE: 'wght=650,wdth=80'. Each font that has an axis draws at the value clamped to the axis's range; an axis no font of the chain has is an error. A wght setting overrides --weight.",
        valueName: "list"))
    var variations: String?

    @Option(name: .customLong("lang"), help: ArgumentHelp(
        "The text's language (BCP 47): language-specific glyphs and line breaking; for Chinese, Japanese and Korean the regional face of a CJK font (ja, ko, zh-Hans, zh-Hant, zh-HK).",
        valueName: "tag"))
    var language: String?

    func validate() throws {
        if let reason = OptionRules.letterSpacing(letterSpacing) { throw ValidationError("invalid --letter-spacing \(letterSpacing): \(reason)") }
        _ = try featureList()
        _ = try variationList()
        if let language, let reason = OptionRules.language(language) { throw ValidationError("invalid --lang \"\(language)\": \(reason)") }
    }

    /// True when any option was given a value other than its default.
    var isGiven: Bool { weight != .regular || italic || letterSpacing != 0 || features != nil || language != nil || variations != nil }

    private func featureList() throws -> [FontFeature] {
        guard let features else { return [] }
        guard let list = FontFeature.list(features) else {
            throw ValidationError("invalid --features \(features): \(OptionRules.featuresReason)")
        }
        return list
    }

    private func variationList() throws -> [FontVariation] {
        guard let variations else { return [] }
        guard let list = FontVariation.list(variations) else {
            throw ValidationError("invalid --variations \(variations): \(OptionRules.variationsReason)")
        }
        return list
    }

    /// Checks the axis settings against the fonts they are for (`OptionRules.variationsProblem`):
    /// a usage error of `command` when no font has a tag.
    func validateVariations<Command: ParsableCommand>(for chain: FontFallbackChain, of command: Command.Type) throws {
        if let variations, let problem = OptionRules.variationsProblem(try variationList(), chain: chain) {
            try usageFailure("invalid --variations \(variations): \(problem)", of: command)
        }
    }

    /// Sets the style in render settings.
    func apply(to settings: inout RenderSettings) throws {
        (settings.weight, settings.italic, settings.letterSpacing) = (weight, italic, letterSpacing)
        settings.variations = try variationList()
        (settings.features, settings.language) = (try featureList(), language)
    }
}

/// Text style options of `render`: the shaping options and decorations.
struct StyleOptions: ParsableArguments {
    @OptionGroup var shaping: ShapingStyleOptions

    @Flag(help: "Underline the text (position and thickness from the font).")
    var underline = false

    @Flag(help: "Strike the text through (position and thickness from the font).")
    var strikethrough = false

    /// Sets the style in render settings.
    func apply(to settings: inout RenderSettings) throws {
        try shaping.apply(to: &settings)
        (settings.underline, settings.strikethrough) = (underline, strikethrough)
    }
}
