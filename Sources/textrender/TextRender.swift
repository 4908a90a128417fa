import ArgumentParser

@main
struct TextRender: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "textrender",
        abstract: "Lay out and render text with TextKitLite (HarfBuzz shaping, ICU line breaking, FreeType glyphs).",
        discussion: """
            Fonts default to the bundled fallback chain in fonts/ (DejaVu Sans for Latin, Greek, \
            Cyrillic, Arabic and Hebrew; Noto Sans SC; Noto Color Emoji). Set TEXTKITLITE_FONTS to \
            use another folder, or pass --font (repeatable) to give the chain yourself.
            """,
        subcommands: [RenderCommand.self, FeedCommand.self, MeasureCommand.self],
        defaultSubcommand: nil)
}
