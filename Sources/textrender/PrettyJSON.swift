import Foundation

/// Writes one JSON object as `JSONEncoder` with `[.prettyPrinted, .sortedKeys,
/// .withoutEscapingSlashes]` writes it whole, but member by member and array elements a
/// batch at a time: each part is encoded alone and indented to its depth, and goes to the writer
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

    /// A member whose value is an array, encoded `batch` elements at a time (one call of
    /// the encoder per element costs about half as much again as the whole array at once).
    mutating func array<Element: Encodable>(_ key: String, count: Int, batch: Int = 256, _ element: (Int) throws -> Element) throws {
        try start(key)
        guard count > 0 else { return try writer.write(bytes: Array("[\n\n  ]".utf8)) }
        try writer.write(bytes: Array("[\n".utf8))
        for first in stride(from: 0, to: count, by: batch) {
            let elements = try (first..<min(first + batch, count)).map(element)
            // "[\n" + the elements one level down + "\n]": the elements, a level further down.
            let json = try encoder.encode(elements)
            try writer.write(bytes: Array("  ".utf8) + Self.indented(json.dropFirst(2).dropLast(2), depth: 1)
                             + Array((first + batch < count ? ",\n" : "\n").utf8))
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
    /// (a string's line breaks are escaped, so every byte 0x0A ends a line). Lines are
    /// found with `memchr` and copied whole.
    private static func indented(_ json: Data, depth: Int) -> [UInt8] {
        let indent = [UInt8](repeating: 0x20, count: 2 * depth)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(json.count + json.count / 4)
        json.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            guard let base = raw.baseAddress else { return }
            var start = 0
            while start < raw.count {
                var end = raw.count
                if let found = memchr(base + start, 0x0A, raw.count - start) { end = base.distance(to: UnsafeRawPointer(found)) }
                if start > 0, end > start { bytes.append(contentsOf: indent) }
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[start..<min(end + 1, raw.count)]))
                start = end + 1
            }
        }
        return bytes
    }
}
