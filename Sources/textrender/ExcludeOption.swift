import ArgumentParser
import TextKitLite
import TextKitLiteFrontEnd

/// `--exclude`, as `render` and `measure --layout text` take it.
enum ExcludeOption {
    /// The shapes of the option's values (`ExclusionShape.shapes(options:)`).
    static func shapes(_ values: [String]) throws -> [ExclusionShape] {
        do { return try ExclusionShape.shapes(options: values).get() } catch { throw ValidationError(error.message(option: "--exclude")) }
    }

    /// The option a library refusal of shapes beside other options names (its property:
    /// "exclusions" or "lineBalance"), as given, and the value to show (the library's: the
    /// shape refused or how many vertices); nil for any other property.
    static func refused(_ property: String, value: String, vertical: Bool) -> (name: String, value: String)? {
        guard let conflict = ExclusionConflict(property: property, vertical: vertical) else { return nil }
        return ("--\(conflict.option)", conflict.other.map { "with --\($0)" } ?? value)
    }
}
