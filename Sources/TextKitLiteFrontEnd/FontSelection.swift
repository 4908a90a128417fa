import Foundation
import TextKitLite
import TextKitLiteFeed

/// The fonts a front end's options choose (`--font`, `--font-family`, `--no-fallback` of
/// `textrender` and `textrender-server`), made into a fallback chain in one place for both.
public struct FontSelection: Sendable, Hashable {
    /// Font files for the chain, in order: PATH or PATH#INDEX.
    public var files: [String]
    /// Installed families (through fontconfig) after the files: NAME or NAME:STYLE.
    public var families: [String]
    /// The bundled fonts behind them, and installed fonts for characters none of them has.
    public var fallback: Bool

    public init(files: [String] = [], families: [String] = [], fallback: Bool = true) {
        self.files = files
        self.families = families
        self.fallback = fallback
    }

    /// Why the selection gives no font at all (no fallback and nothing named), or nil.
    public var problem: String? {
        !fallback && files.isEmpty && families.isEmpty ? "--no-fallback needs --font or --font-family: there would be no font" : nil
    }

    /// The fallback chain: the files and the families' fonts, then (with `fallback`) the
    /// bundled fonts, and installed fonts found through fontconfig for characters none of
    /// them has.
    ///
    /// - Throws: `OptionFailure` whose description is the message (a font that
    ///   does not load, a family that is not installed, a style the family does not have).
    public func chain() throws(OptionFailure) -> FontFallbackChain {
        let given = try files + families.map(Self.installedFace)
        do {
            if !fallback { return try FontFallbackChain.load(specs: given) }
            return try BundledFonts.chain(after: given).withSystemFallback()
        } catch {
            throw OptionFailure(error.description)
        }
    }

    /// The font specification of an installed family "NAME" or "NAME:STYLE".
    private static func installedFace(_ family: String) throws(OptionFailure) -> String {
        let parts = family.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let name = parts.first, !name.isEmpty else {
            throw OptionFailure("invalid --font-family \"\(family)\": expected NAME or NAME:STYLE")
        }
        let style = parts.count > 1 && !parts[1].isEmpty ? parts[1] : nil
        guard let face = SystemFonts.face(family: name, style: style) else {
            if let style, SystemFonts.face(family: name) != nil {
                let styles = SystemFonts.styles(family: name)
                throw OptionFailure("no style \"\(style)\" in installed font family \"\(name)\" (--font-family; "
                                    + (styles.isEmpty ? "`fc-list \"\(name)\" style` lists its styles)" : "its styles: \(styles.joined(separator: ", ")))"))
            }
            throw OptionFailure("no installed font family \"\(name)\" (--font-family; `fc-list : family` lists the installed families)")
        }
        return face.spec
    }
}
