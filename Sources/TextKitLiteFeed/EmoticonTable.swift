import Foundation
import TextKitLite

/// One emoticon: a code such as "[微笑]" that a post's text shows as an image.
public struct Emoticon: Sendable, Hashable, Codable {
    /// The code as it appears in text, brackets included: "[微笑]".
    public let code: String
    /// The image drawn in place of the code.
    public let image: GrayImage
    /// Height of the drawn image relative to the font size (1 is one font size high); the
    /// width follows the image's aspect ratio.
    public let size: Double

    public init(code: String, image: GrayImage, size: Double = 1) {
        self.code = code
        self.image = image
        self.size = size
    }
}

/// Emoticon codes and their images, loaded from a JSON file:
///
/// ```json
/// {"emoticons": [{"code": "[微笑]", "image": "smile.png", "size": 1.0}, ...]}
/// ```
///
/// Image paths are relative to the JSON file (or absolute); `size` is relative to the font
/// size, above 0 and at most `maximumSize`, and defaults to 1; other fields are ignored. A
/// code is "[" + 1 to 16 Unicode scalars other than "[", "]" and line breaks + "]". Every
/// image is decoded when the table loads, each file once (entries that name one file share
/// its pixels), and a table's images hold at most `maximumTotalPixels` pixels in all.
public struct EmoticonTable: Sendable, Hashable {
    /// The emoticons, in the order of the file.
    public let emoticons: [Emoticon]
    private let byCode: [String: Emoticon]

    /// The table without emoticons: no text matches it.
    public static let empty = EmoticonTable(validated: [])

    /// Environment variable naming the emoticon table file, overriding the bundled one.
    public static let environmentVariable = "TEXTKITLITE_EMOTICONS"

    /// The bundled table: `$TEXTKITLITE_EMOTICONS`, else examples/emoticons/emoticons.json
    /// under the first of `BundledFonts.shippedRoots` that has it (24 Weibo codes).
    public static var bundledPath: String {
        BundledFonts.shippedPath("examples/emoticons/emoticons.json", unless: environmentVariable)
    }

    /// The bundled table (`bundledPath`), loaded once per process.
    ///
    /// - Throws: `EmoticonTableError` naming the file.
    public static func bundled() throws(EmoticonTableError) -> EmoticonTable {
        try bundledTable.get()
    }

    private static let bundledTable = Result { () throws(EmoticonTableError) -> EmoticonTable in
        try EmoticonTable(contentsOf: bundledPath)
    }

    /// The longest code body, in Unicode scalars (brackets not counted).
    public static let maximumCodeLength = 16

    /// The largest table file read: 16 MB.
    public static let maximumFileSize = 16 << 20

    /// The largest image of an emoticon accepted by default: 1024 × 1024 pixels.
    public static let defaultMaxPixels = 1 << 20

    /// The most pixels a table's images hold in all, each image file counted once:
    /// 16,777,216 (sixteen images of 1024 × 1024; 32 MB of gray and alpha planes).
    public static let maximumTotalPixels = 1 << 24

    /// The largest emoticon `size`: 10 font sizes high.
    public static let maximumSize = 10.0

    private init(validated emoticons: [Emoticon]) {
        self.emoticons = emoticons
        byCode = Dictionary(emoticons.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// A table of the given emoticons.
    ///
    /// - Throws: `EmoticonTableError` (its path `(in code)`) naming the first entry whose
    ///   code is not a valid code (see the type's summary) or appears twice, or whose size
    ///   is not above 0 and at most `maximumSize`.
    public init(_ emoticons: [Emoticon]) throws(EmoticonTableError) {
        var seen: Set<String> = []
        for (index, emoticon) in emoticons.enumerated() {
            if let problem = Self.problem(code: emoticon.code, size: emoticon.size, seen: &seen) {
                throw EmoticonTableError(path: "(in code)", entry: index + 1, code: emoticon.code, reason: problem)
            }
        }
        self.init(validated: emoticons)
    }

    /// Loads a table file and decodes each of its images.
    ///
    /// - Parameters:
    ///   - path: the JSON file; image paths in it are relative to its folder.
    ///   - maxPixels: the largest image accepted, in pixels.
    /// - Throws: `EmoticonTableError` naming the table file and, for an entry, its number
    ///   and code: the file cannot be read or is larger than `maximumFileSize`; it is not
    ///   JSON of the expected shape; an entry's code is not a code or appears twice, its
    ///   size is not above 0 or is over `maximumSize`, its image cannot be read or decoded
    ///   (`ImageError`), or it would take the table's images past `maximumTotalPixels`
    ///   (checked from the image's header, before its pixels are decoded).
    /// - Complexity: O(file size + pixels of the distinct images).
    public init(contentsOf path: String, maxPixels: Int = EmoticonTable.defaultMaxPixels) throws(EmoticonTableError) {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.contents(of: path, limit: Self.maximumFileSize)
        } catch {
            throw EmoticonTableError(path: path, reason: .cannotRead(error.description))
        }
        let file: TableFile
        do {
            file = try JSONDecoder().decode(TableFile.self, from: Data(bytes))
        } catch {
            throw EmoticonTableError(decoding: error, data: Data(bytes), path: path)
        }
        let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        var emoticons: [Emoticon] = []
        var seen: Set<String> = []
        var images = ImageFiles()
        for (index, entry) in file.emoticons.enumerated() {
            func failure(_ reason: EmoticonTableError.Reason) -> EmoticonTableError {
                EmoticonTableError(path: path, entry: index + 1, code: entry.code, reason: reason)
            }
            let size = entry.size ?? 1
            if let problem = Self.problem(code: entry.code, size: size, seen: &seen) { throw failure(problem) }
            let imagePath = entry.image.hasPrefix("/") ? entry.image : folder + entry.image
            do {
                emoticons.append(Emoticon(code: entry.code, image: try images.image(at: imagePath, maxPixels: maxPixels), size: size))
            } catch {
                throw failure(error.reason)
            }
        }
        self.init(validated: emoticons)
    }

    /// A table's image files, each decoded once, and the pixels they hold in all.
    private struct ImageFiles {
        /// Why an entry's image is refused (the table adds the entry).
        struct Refusal: Error {
            let reason: EmoticonTableError.Reason
        }

        private var decoded: [String: GrayImage] = [:]
        private var pixels = 0

        /// The image of a file: decoded the first time (keyed by its real path, so that
        /// "a.png" and "./a.png" are one file), shared after.
        ///
        /// - Throws: `Refusal`: `.image` when it cannot be read or decoded; `.tooManyPixels`
        ///   when its header says it would take the table past `maximumTotalPixels`.
        mutating func image(at path: String, maxPixels: Int) throws(Refusal) -> GrayImage {
            let key = realpath(path, nil).map { resolved in
                defer { free(resolved) }
                return String(cString: resolved)
            } ?? path
            if let image = decoded[key] { return image }
            let left = EmoticonTable.maximumTotalPixels - pixels
            let image: GrayImage
            do {
                image = try GrayImage(pngFile: path, maxPixels: min(maxPixels, left))
            } catch {
                // Over what is left of the table's pixels, not over the image's own bound.
                if case .tooLarge(let width, let height, _) = error.reason {
                    let (count, overflow) = width.multipliedReportingOverflow(by: height)
                    if !overflow, count <= maxPixels { throw Refusal(reason: .tooManyPixels(limit: EmoticonTable.maximumTotalPixels)) }
                }
                throw Refusal(reason: .image(error))
            }
            pixels += image.width * image.height
            decoded[key] = image
            return image
        }
    }

    /// What is wrong with an entry's code or size, if anything; adds the code to `seen`.
    private static func problem(code: String, size: Double, seen: inout Set<String>) -> EmoticonTableError.Reason? {
        guard isCode(code) else { return .invalidCode }
        guard seen.insert(code).inserted else { return .duplicateCode }
        guard size.isFinite, size > 0, size <= maximumSize else { return .invalidSize(size) }
        return nil
    }

    /// True when the table has no emoticons.
    public var isEmpty: Bool { emoticons.isEmpty }

    /// The emoticon of a code ("[微笑]", brackets included), or nil.
    public func emoticon(for code: some StringProtocol) -> Emoticon? {
        byCode[String(code)]
    }

    /// The known codes in a text, in order and not overlapping; unknown codes are not matched.
    ///
    /// - Returns: each code's range in UTF-16 code units, and its emoticon.
    /// - Complexity: O(text): no scalar is read more than twice, whatever the text (a text
    ///   of "[[[[" included).
    public func matches(in text: String) -> [(range: Range<Int>, emoticon: Emoticon)] {
        // Most texts have no "[" at all: a byte scan answers them.
        guard !byCode.isEmpty, Self.mayHoldCode(text) else { return [] }
        var result: [(range: Range<Int>, emoticon: Emoticon)] = []
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        var offset = 0
        while index < scalars.endIndex {
            guard scalars[index] == "[" else {
                offset += scalars[index].utf16.count
                index = scalars.index(after: index)
                continue
            }
            let candidate = Self.scanCode(scalars, from: index, offset: offset)
            if candidate.isCode, let emoticon = byCode[String(Substring(scalars[index..<candidate.end]))] {
                result.append((offset..<candidate.endOffset, emoticon))
            }
            // No "[" lies between the two, so no code starts before `end`.
            index = candidate.end
            offset = candidate.endOffset
        }
        return result
    }

    /// The text has a "[" (memchr over its UTF-8 bytes).
    private static func mayHoldCode(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in bytes.baseAddress.map { memchr($0, 0x5B, bytes.count) != nil } ?? false }
    }

    /// `text` with each known code replaced by its emoticon: an image attachment, a square
    /// `size` × the code's point size wide, centred on the text's font, in the style of the
    /// code's first character. Unknown codes stay text.
    public func attributed(_ text: AttributedText) -> AttributedText {
        guard !isEmpty else { return text }
        let matches = self.matches(in: text.string)
        guard !matches.isEmpty else { return text }
        var result = AttributedText("", style: text.baseStyle)
        var position = 0
        for (range, emoticon) in matches {
            result.append(text, range: position..<range.lowerBound)
            let style = text.style(at: range.lowerBound)
            let side = emoticon.size * style.size
            result.append(TextAttachment(size: Size(width: side, height: side), alignment: .center, content: .image(emoticon.image)),
                          style: style)
            position = range.upperBound
        }
        result.append(text, range: position..<text.utf16Count)
        return result
    }

    /// Whether a string is a code: "[" + 1 to 16 scalars other than "[", "]" and line
    /// breaks + "]".
    public static func isCode(_ string: String) -> Bool {
        let scalars = string.unicodeScalars
        guard scalars.first == "[" else { return false }
        let candidate = scanCode(scalars, from: scalars.startIndex, offset: 0)
        return candidate.isCode && candidate.end == scalars.endIndex
    }

    /// Reads a code from the "[" at `start`: how far it goes, and whether it is one. When it
    /// is, `end` is just after its "]"; when not, `end` is the first scalar that could still
    /// start a code (a "[" or a line break stops the scan, and so does a 17th scalar).
    private static func scanCode(_ scalars: String.UnicodeScalarView, from start: String.Index, offset: Int)
        -> (isCode: Bool, end: String.Index, endOffset: Int)
    {
        var index = scalars.index(after: start)
        var endOffset = offset + 1
        var length = 0
        while index < scalars.endIndex, length <= maximumCodeLength {
            let scalar = scalars[index]
            if scalar == "]" {
                return (length > 0, scalars.index(after: index), endOffset + 1)
            }
            if scalar == "[" || isLineBreak(scalar) { break }
            length += 1
            endOffset += scalar.utf16.count
            index = scalars.index(after: index)
        }
        return (false, index, endOffset)
    }

    /// The line breaks that end a paragraph (as `AttributedText` splits them): LF, VT, FF,
    /// CR, NEL, U+2028, U+2029.
    private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        (0x0A...0x0D).contains(scalar.value) || scalar.value == 0x85 || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    public static func == (a: EmoticonTable, b: EmoticonTable) -> Bool { a.emoticons == b.emoticons }

    public func hash(into hasher: inout Hasher) { hasher.combine(emoticons) }
}

/// The shape of a table file.
private struct TableFile: Decodable {
    struct Entry: Decodable {
        let code: String
        let image: String
        let size: Double?
    }

    let emoticons: [Entry]
}

/// Why an emoticon table could not be loaded. Every case names the table file; an entry's
/// problem also names the entry (1-based) and its code.
public struct EmoticonTableError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The table file could not be read: why.
        case cannotRead(String)
        /// The file is not JSON of the table's shape: the JSON decoder's words.
        case invalidJSON(String)
        /// The entry's code is not "[" + 1 to 16 scalars other than brackets and line breaks + "]".
        case invalidCode
        /// An earlier entry has the same code.
        case duplicateCode
        /// The entry's size is not a number above 0 and at most `EmoticonTable.maximumSize`.
        case invalidSize(Double)
        /// The entry's image would take the table's images past this many pixels in all
        /// (`EmoticonTable.maximumTotalPixels`).
        case tooManyPixels(limit: Int)
        /// The entry's image could not be read or decoded (the error names the image file).
        case image(ImageError)
    }

    /// The table file.
    public let path: String
    /// The entry's number (1-based) in the file, when the problem is one entry's.
    public let entry: Int?
    /// The entry's code, when it has one.
    public let code: String?
    public let reason: Reason

    public init(path: String, entry: Int? = nil, code: String? = nil, reason: Reason) {
        self.path = path
        self.entry = entry
        self.code = code
        self.reason = reason
    }

    /// A JSON decoding error of `data`, with the entry it is about when its coding path
    /// says, and where the syntax goes wrong when it does.
    init(decoding error: any Error, data: Data? = nil, path: String) {
        guard let error = error as? DecodingError else {
            self.init(path: path, reason: .invalidJSON("\(error)"))
            return
        }
        let context: DecodingError.Context
        var what = ""
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c): context = c
        case .keyNotFound(let key, let c):
            context = c
            what = "missing \"\(key.stringValue)\""
        case .dataCorrupted(let c):
            context = c
            // "The given data was not valid JSON." says neither what nor where: the parser's
            // words do (JSONDecoder does not keep them).
            if c.codingPath.isEmpty, let data { what = FeedLineParser.syntaxError(in: data) ?? "" }
        @unknown default: context = DecodingError.Context(codingPath: [], debugDescription: "\(error)")
        }
        let entry = context.codingPath.count >= 2 && context.codingPath[0].stringValue == "emoticons"
            ? context.codingPath[1].intValue.map { $0 + 1 } : nil
        let field = context.codingPath.count >= 3 ? "\"\(context.codingPath[2].stringValue)\": " : ""
        let message = what.isEmpty ? field + context.debugDescription : what
        self.init(path: path, entry: entry, reason: .invalidJSON(message))
    }

    public var description: String {
        var place = "emoticon table \(path)"
        if let entry { place += ", entry \(entry)" }
        if let code { place += " \(code)" }
        return switch reason {
        case .cannotRead(let why): "cannot read \(place): \(why)"
        case .invalidJSON(let why): "invalid JSON in \(place): \(why)"
        case .invalidCode: "\(place): not an emoticon code (\"[\" + 1 to 16 characters other than brackets and line breaks + \"]\")"
        case .duplicateCode: "\(place): the code appears twice"
        case .invalidSize(let size): "\(place): size \(size) must be above 0 and at most \(EmoticonTable.maximumSize) (font sizes)"
        case .tooManyPixels(let limit): "\(place): the table's images would hold more than \(limit) pixels in all (the limit of a table)"
        case .image(let error): "\(place): \(error)"
        }
    }
}

extension EmoticonTable {
    /// The table an `--emoticons` option of `textrender` or `textrender-server` names: a JSON
    /// file, `none`, or (nil) the bundled table when `bundledByDefault`, else none.
    ///
    /// - Throws: `OptionFailure` naming the option, the file and what is wrong with it.
    public static func forOption(_ option: String?, bundledByDefault: Bool) throws(OptionFailure) -> EmoticonTable {
        switch option {
        case "none": return .empty
        case let path?:
            do { return try EmoticonTable(contentsOf: path) } catch { throw OptionFailure("--emoticons: \(error.description)") }
        case nil:
            guard bundledByDefault else { return .empty }
            do { return try EmoticonTable.bundled() } catch {
                throw OptionFailure("bundled emoticons: \(error.description) (set \(EmoticonTable.environmentVariable) to the table file, "
                                    + "pass --emoticons none, or install the shipped files with scripts/install.sh)")
            }
        }
    }
}
