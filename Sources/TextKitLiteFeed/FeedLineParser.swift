import Foundation
import TextKitLite

/// Why one line of a JSON Lines feed was rejected.
public struct FeedLineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line number in the input.
    public let line: Int
    public let reason: String

    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    public var description: String { "line \(line): \(reason)" }
}

/// Parses one JSON Lines record into a `FeedPost`: `id` (string or integer), `author`,
/// `text` (required), optional `quote` and `images` (a count from 0 to 100).
public enum FeedLineParser {
    /// Longest accepted line, in bytes (a post is small; this bounds memory on bad input).
    public static let maximumLineBytes = 1 << 20
    /// Most images a post may have.
    public static let maximumImages = 100

    /// Parses a line's bytes (without its newline).
    ///
    /// - Returns: nil for a blank line.
    /// - Throws: `FeedLineError` naming the line and what is wrong.
    public static func parse(_ bytes: some Collection<UInt8>, line: Int) throws(FeedLineError) -> FeedPost? {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
        guard bytes.count <= maximumLineBytes else {
            throw FeedLineError(line: line, reason: "line longer than \(maximumLineBytes) bytes")
        }
        let array = Array(bytes)
        if let offset = UTF8Validation.firstInvalidOffset(array) {
            throw FeedLineError(line: line, reason: "invalid UTF-8 at byte offset \(offset) of the line (\(UTF8Validation.describeByte(array, at: offset)))")
        }
        let data = Data(array)
        let record: Record
        do {
            record = try JSONDecoder().decode(Record.self, from: data)
        } catch let error as DecodingError {
            throw FeedLineError(line: line, reason: describe(error, data: data))
        } catch let error as FeedLineError {
            throw FeedLineError(line: line, reason: error.reason)
        } catch {
            throw FeedLineError(line: line, reason: "bad JSON")
        }
        guard (0...maximumImages).contains(record.images ?? 0) else {
            throw FeedLineError(line: line, reason: "\"images\" must be an integer from 0 to \(maximumImages), got \(record.images ?? 0)")
        }
        return FeedPost(id: record.id, author: record.author ?? "", text: record.text, quote: record.quote,
                        images: record.images ?? 0)
    }

    /// The JSON shape of a post: `id` may be a string or an integer.
    private struct Record: Decodable {
        var id: String
        var author: String?
        var text: String
        var quote: String?
        var images: Int?

        enum CodingKeys: String, CodingKey { case id, author, text, quote, images }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let string = try? container.decode(String.self, forKey: .id) {
                guard !string.isEmpty else { throw FeedLineError(line: 0, reason: "\"id\" is empty") }
                id = string
            } else if let integer = try? container.decode(Int64.self, forKey: .id) {
                id = String(integer)
            } else if container.contains(.id), try !container.decodeNil(forKey: .id) {
                throw FeedLineError(line: 0, reason: "\"id\" must be a string or an integer")
            } else {
                throw FeedLineError(line: 0, reason: "missing \"id\"")
            }
            text = try container.decode(String.self, forKey: .text)
            author = try container.decodeIfPresent(String.self, forKey: .author)
            quote = try container.decodeIfPresent(String.self, forKey: .quote)
            images = try container.decodeIfPresent(Int.self, forKey: .images)
        }
    }

    private static func describe(_ error: DecodingError, data: Data) -> String {
        switch error {
        case .keyNotFound(let key, _): "missing \"\(key.stringValue)\""
        case .valueNotFound(_, let context), .typeMismatch(_, let context):
            if let key = context.codingPath.last?.stringValue {
                key == "images" ? "\"images\" must be an integer" : "\"\(key)\" must be a string"
            } else {
                "expected a JSON object"
            }
        case .dataCorrupted(let context):
            context.codingPath.isEmpty ? "bad JSON" + syntaxError(data) : "bad value for \"\(context.codingPath.last!.stringValue)\""
        @unknown default: "bad JSON"
        }
    }

    /// Where the JSON syntax goes wrong (": Invalid value around character 1"), from
    /// Foundation's parser, whose message `JSONDecoder` does not pass on; empty when it
    /// gives none. Runs on bad lines only.
    private static func syntaxError(_ data: Data) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            if let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String, !detail.isEmpty {
                return ": " + (detail.hasSuffix(".") ? String(detail.dropLast()) : detail)
            }
        }
        return ""
    }
}
