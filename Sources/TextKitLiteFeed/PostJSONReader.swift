import Foundation

extension FeedLineParser.Record {
    /// The record of a line of valid UTF-8 as `JSONDecoder` reads it, or nil where the decoder
    /// refuses the line. A line of the usual shape is read directly (`PostJSONReader`: a whole
    /// `textrender measure` process over generated posts runs 23% more instructions through
    /// the decoder alone, over diverse ones 12%); any other goes to `decode`, the decoder (a
    /// test passes its own, to see which lines reach it).
    init?(json bytes: [UInt8], decode: ([UInt8]) -> Self? = { try? JSONDecoder().decode(Self.self, from: Data($0)) }) {
        guard let record = bytes.withUnsafeBufferPointer(PostJSONReader.record) ?? decode(bytes) else { return nil }
        self = record
    }
}

/// Reads the usual shape of a post line straight into a record: one JSON object whose values
/// are strings, integers, `null`, `true` or `false`. Foundation's `JSONDecoder` stays the
/// judge of everything else: on anything this reader does not take (a nested value, a number
/// with a fraction or an exponent, a repeated key, a lone surrogate, bad syntax, a field of
/// the wrong type) it gives nil and the line goes to the decoder, which reads it or says
/// what is wrong. So it never accepts a line the decoder refuses nor reads one otherwise
/// (`FeedLineParserTests` compares the two on generated lines).
private struct PostJSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var i = 0

    private enum Value {
        case string(String)
        case integer(Int64)
        case null
        case boolean
    }

    /// The record of a line of valid UTF-8, or nil when the decoder must decide.
    static func record(_ bytes: UnsafeBufferPointer<UInt8>) -> FeedLineParser.Record? {
        var reader = PostJSONReader(bytes: bytes)
        return reader.object()
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private mutating func object() -> FeedLineParser.Record? {
        var id: Value?, author: Value?, text: Value?, quote: Value?, avatar: Value?, images: Value?, lang: Value?
        var time: Value?, source: Value?, reposts: Value?, comments: Value?, likes: Value?
        skipWhiteSpace()
        guard take(UInt8(ascii: "{")) else { return nil }
        skipWhiteSpace()
        if !take(UInt8(ascii: "}")) {
            repeat {
                skipWhiteSpace()
                guard take(UInt8(ascii: "\"")), let key = string() else { return nil }
                skipWhiteSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipWhiteSpace()
                guard let value = value() else { return nil }
                func set(_ field: inout Value?) -> Bool {
                    guard field == nil else { return false }  // a repeated key: the decoder decides
                    field = value
                    return true
                }
                switch key {
                case "id": guard set(&id) else { return nil }
                case "author": guard set(&author) else { return nil }
                case "text": guard set(&text) else { return nil }
                case "quote": guard set(&quote) else { return nil }
                case "avatar": guard set(&avatar) else { return nil }
                case "images": guard set(&images) else { return nil }
                case "lang": guard set(&lang) else { return nil }
                case "time": guard set(&time) else { return nil }
                case "source": guard set(&source) else { return nil }
                case "reposts": guard set(&reposts) else { return nil }
                case "comments": guard set(&comments) else { return nil }
                case "likes": guard set(&likes) else { return nil }
                default: break
                }
                skipWhiteSpace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
        }
        skipWhiteSpace()
        guard i == bytes.count else { return nil }
        guard var record = Self.record(id: id, author: author, text: text, quote: quote, avatar: avatar, images: images, lang: lang),
              let source = Self.optionalString(source), let reposts = Self.count(reposts), let comments = Self.count(comments),
              let likes = Self.count(likes) else { return nil }
        switch time {
        case nil, .null?: break
        case .integer(let seconds)?: record.time = .seconds(seconds)
        case .string(let text)?: record.time = .text(text)
        default: return nil
        }
        (record.source, record.reposts, record.comments, record.likes) = (source, reposts, comments, likes)
        return record
    }

    /// A string field's value: nil when missing or null; nil inside when of another type.
    private static func optionalString(_ value: Value?) -> String?? {
        switch value {
        case nil, .null?: .some(nil)
        case .string(let string)?: string
        default: nil
        }
    }

    /// A count field's value as the decoder reads it (`Int`): nil inside when missing or
    /// null; nil when of another type.
    private static func count(_ value: Value?) -> Int?? {
        switch value {
        case nil, .null?: .some(nil)
        case .integer(let value)?: Int(exactly: value).map { .some($0) } ?? nil
        default: nil
        }
    }

    /// The record the decoder makes of these fields (`FeedLineParser.Record.init(from:)`),
    /// or nil where it would throw.
    private static func record(id: Value?, author: Value?, text: Value?, quote: Value?, avatar: Value?, images: Value?,
                               lang: Value?) -> FeedLineParser.Record? {
        guard case .string(let body)? = text, let author = optionalString(author), let quote = optionalString(quote),
              let lang = optionalString(lang), let avatarSource = optionalString(avatar), avatarSource != "" else { return nil }
        let avatar = avatarSource.map { PostPicture(source: $0) }
        let count: Int?
        switch images {
        case nil, .null?: count = nil
        case .integer(let value)?: count = Int(value)
        default: return nil
        }
        switch id {
        case .string(let string)? where !string.isEmpty:
            return FeedLineParser.Record(id: string, idIsInteger: false, author: author, text: body, quote: quote, avatar: avatar,
                                         images: count, lang: lang)
        case .integer(let value)?:
            return FeedLineParser.Record(id: String(value), idIsInteger: true, author: author, text: body, quote: quote, avatar: avatar,
                                         images: count, lang: lang)
        default:
            return nil
        }
    }

    private mutating func skipWhiteSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard i < bytes.count, bytes[i] == byte else { return false }
        i += 1
        return true
    }

    private mutating func value() -> Value? {
        guard i < bytes.count else { return nil }
        switch bytes[i] {
        case UInt8(ascii: "\""):
            i += 1
            return string().map(Value.string)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return integer().map(Value.integer)
        case UInt8(ascii: "n"): return word("null") ? .null : nil
        case UInt8(ascii: "t"): return word("true") ? .boolean : nil
        case UInt8(ascii: "f"): return word("false") ? .boolean : nil
        default: return nil
        }
    }

    private mutating func word(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - i >= count, UnsafeBufferPointer(start: word.utf8Start, count: count).elementsEqual(bytes[i..<i + count]) else {
            return false
        }
        i += count
        return true
    }

    /// An integer without fraction or exponent that fits 64 bits.
    private mutating func integer() -> Int64? {
        let negative = take(UInt8(ascii: "-"))
        let start = i
        var magnitude: UInt64 = 0
        while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(bytes[i] - UInt8(ascii: "0")))
            guard !o1, !o2 else { return nil }
            magnitude = sum
            i += 1
        }
        // Digits, no leading zero, and nothing of a fraction or an exponent after them.
        guard i > start, bytes[start] != UInt8(ascii: "0") || i == start + 1 else { return nil }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") || bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") { return nil }
        if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// The rest of a string after its opening quote, escapes decoded; nil when it holds a
    /// control character.
    private mutating func string() -> String? {
        var run = i  // the bytes since the last escape
        var decoded: [UInt8]? = nil  // once an escape comes
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\""):
                defer { i += 1 }
                guard var decoded else { return String(decoding: bytes[run..<i], as: UTF8.self) }
                decoded.append(contentsOf: bytes[run..<i])
                return String(decoding: decoded, as: UTF8.self)
            case UInt8(ascii: "\\"):
                decoded = decoded ?? []
                decoded!.append(contentsOf: bytes[run..<i])
                i += 1
                guard i < bytes.count else { return nil }
                let escape = bytes[i]
                i += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded!.append(escape)
                case UInt8(ascii: "b"): decoded!.append(0x08)
                case UInt8(ascii: "f"): decoded!.append(0x0C)
                case UInt8(ascii: "n"): decoded!.append(0x0A)
                case UInt8(ascii: "r"): decoded!.append(0x0D)
                case UInt8(ascii: "t"): decoded!.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = escapedScalar() else { return nil }
                    decoded!.append(contentsOf: UTF8.encode(scalar)!)
                default: return nil
                }
                run = i
            case 0..<0x20: return nil
            default: i += 1
            }
        }
        return nil
    }

    /// The scalar of a `\u` escape (its `u` read): a surrogate pair as one, a lone surrogate nil.
    private mutating func escapedScalar() -> Unicode.Scalar? {
        guard let unit = hex4() else { return nil }
        if UTF16.isLeadSurrogate(unit) {
            guard word("\\u"), let trail = hex4(), UTF16.isTrailSurrogate(trail) else { return nil }
            return Unicode.Scalar(0x10000 + (UInt32(unit) - 0xD800) << 10 + (UInt32(trail) - 0xDC00))
        }
        return Unicode.Scalar(unit)  // nil for a lone trail surrogate
    }

    private mutating func hex4() -> UInt16? {
        guard bytes.count - i >= 4 else { return nil }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[i]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
            i += 1
        }
        return value
    }
}
