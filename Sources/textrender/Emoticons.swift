import TextKitLite
import TextKitLiteFeed

/// The emoticon table an `--emoticons` option names: a JSON file, `none`, or (nil) the
/// command's default.
///
/// - Throws: `CLIError` naming the file and what is wrong with it.
func emoticonTable(_ option: String?, default fallback: EmoticonTable? = nil) throws -> EmoticonTable {
    switch option {
    case "none": return .empty
    case nil: return fallback ?? .empty
    case let path?:
        do { return try EmoticonTable(contentsOf: path) } catch { throw CLIError("--emoticons: \(error.description)") }
    }
}

/// The bundled emoticon table (examples/emoticons), the default of `feed` and `measure`.
func bundledEmoticons() throws -> EmoticonTable {
    do { return try EmoticonTable.bundled() } catch {
        throw CLIError("bundled emoticons: \(error.description) (set \(EmoticonTable.environmentVariable) to the table file, "
                       + "pass --emoticons none, or install the shipped files with scripts/install.sh)")
    }
}
