import TextKitLite
import TextKitLiteFeed

/// The emoticon table an `--emoticons` option names (see `EmoticonTable.forOption`).
///
/// - Throws: `CLIError` naming the file and what is wrong with it.
func emoticonTable(_ option: String?, bundledByDefault: Bool = false) throws -> EmoticonTable {
    do { return try EmoticonTable.forOption(option, bundledByDefault: bundledByDefault) } catch { throw CLIError(error.description) }
}
