/// Why a front end's option could not be used (a font that does not load, an emoticon table
/// that cannot be read): the message, which names the option and the file.
///
/// Here, not in the front ends' module (`TextKitLiteFrontEnd`), because
/// `EmoticonTable.forOption(_:bundledByDefault:)` throws it.
public struct OptionFailure: Error, Sendable, CustomStringConvertible {
    /// The message: the option, the file and what is wrong.
    public let description: String

    /// A failure with its message.
    public init(_ description: String) { self.description = description }
}
