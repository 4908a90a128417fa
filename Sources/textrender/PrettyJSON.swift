import Foundation

/// Writes one JSON object as `JSONEncoder` with `[.prettyPrinted, .sortedKeys,
/// .withoutEscapingSlashes]` writes it whole, but member by member and array element by
/// element: each value is encoded alone and indented to its depth, and goes to the writer
/// (flushed every 64 KB), so that a report of a million lines is never one string in memory
/// (`render --json`). The caller gives the members in sorted key order.
struct PrettyJSONObject {
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
    private var writer: JSONLinesWriter
    private var members = 0

    /// Starts the object ("{").
    init(writer: JSONLinesWriter) throws {
        self.writer = writer
        try self.writer.write(bytes: [0x7B])
    }

    /// A member whose value is encoded whole.
    mutating func member(_ key: String, _ value: some Encodable) throws {
        try start(key)
        try writer.write(bytes: Self.indented(encoder.encode(value), depth: 1))
    }

    /// A member whose value is an array, encoded one element at a time.
    mutating func array<Element: Encodable>(_ key: String, count: Int, _ element: (Int) throws -> Element) throws {
        try start(key)
        guard count > 0 else { return try writer.write(bytes: Array("[\n\n  ]".utf8)) }
        try writer.write(bytes: Array("[\n".utf8))
        for index in 0..<count {
            try writer.write(bytes: Array("    ".utf8) + Self.indented(encoder.encode(element(index)), depth: 2)
                             + Array((index + 1 < count ? ",\n" : "\n").utf8))
        }
        try writer.write(bytes: Array("  ]".utf8))
    }

    /// Ends the object and its line ("}\n"), and flushes the writer.
    mutating func end() throws {
        try writer.write(bytes: Array((members == 0 ? "\n\n}\n" : "\n}\n").utf8))
        try writer.flush()
    }

    /// Writes what comes before a member's value: a comma after the one before, the key.
    private mutating func start(_ key: String) throws {
        try writer.write(bytes: Array(((members == 0 ? "\n  \"" : ",\n  \"") + key + "\" : ").utf8))
        members += 1
    }

    /// A value as `JSONEncoder` pretty-prints it at the top level, as it reads `depth`
    /// levels down: each line after the first that is not empty gains two spaces a level
    /// (a string's line breaks are escaped, so every byte 0x0A ends a line).
    private static func indented(_ json: Data, depth: Int) -> [UInt8] {
        let indent = [UInt8](repeating: 0x20, count: 2 * depth)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(json.count + json.count / 8)
        var atLineStart = false
        for byte in json {
            if atLineStart, byte != 0x0A { bytes += indent }
            atLineStart = byte == 0x0A
            bytes.append(byte)
        }
        return bytes
    }
}
