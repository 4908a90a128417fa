import ArgumentParser
import Foundation

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

    /// ArgumentParser's `main`, but an error Foundation threw that no command worded is
    /// worded before it is printed (`Output.worded`): never an NSError dump.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withError: Output.worded(error))
        }
    }
}
