import Foundation
import Testing
import TextKitLite
@testable import TextKitLiteFeed

/// The emoticon table: loading (the shipped table and broken ones) and finding codes in text.
@Suite struct EmoticonTableTests {
    static let shippedPath = Fixtures.testsDirectory
        .appendingPathComponent("../../examples/emoticons/emoticons.json").standardizedFileURL.path

    static let shipped: EmoticonTable = {
        do { return try EmoticonTable(contentsOf: shippedPath) } catch { fatalError("\(error)") }
    }()

    /// A small table built in code: three codes with 1×1 images.
    static let small = try! EmoticonTable(["[微笑]", "[心]", "[ok]"].map {
        Emoticon(code: $0, image: GrayImage(width: 1, height: 1, gray: [0]))
    })

    /// A table built in code with a bad entry is refused with an error, not a trap.
    @Test(arguments: [("[a]", 1e300), ("[a]", -1), ("[a]", .nan), ("no brackets", 1), ("[]", 1)])
    func badEntryBuiltInCodeIsAnError(code: String, size: Double) {
        let entry = Emoticon(code: code, image: GrayImage(width: 1, height: 1, gray: [0]), size: size)
        #expect(throws: EmoticonTableError.self) { _ = try EmoticonTable([entry]) }
        #expect(throws: EmoticonTableError.self) { _ = try EmoticonTable([Emoticon(code: "[b]", image: entry.image), Emoticon(code: "[b]", image: entry.image)]) }
    }

    @Test func shippedTableDecodesEveryImage() throws {
        let table = Self.shipped
        #expect(table.emoticons.count >= 16)
        for code in ["[微笑]", "[哈哈]", "[爱你]", "[泪]", "[偷笑]", "[怒]", "[赞]", "[心]",
                     "[鼓掌]", "[晕]", "[酷]", "[思考]", "[哭]", "[嘻嘻]", "[生病]", "[吃惊]"] {
            #expect(table.emoticon(for: code) != nil, "\(code)")
        }
        for emoticon in table.emoticons {
            #expect(emoticon.image.width == 64 && emoticon.image.height == 64, "\(emoticon.code)")
            #expect(emoticon.size == 1)
            // A transparent corner, and opaque pixels.
            #expect(emoticon.image[0, 0].alpha == 0 && emoticon.image.alpha.contains(255), "\(emoticon.code)")
        }
    }

    @Test func knownAndUnknownCodes() throws {
        let table = Self.shipped
        let text = "今天[微笑]好[不存在]的[哈哈][[赞]]"
        let found = table.matches(in: text)
        #expect(found.map(\.emoticon.code) == ["[微笑]", "[哈哈]", "[赞]"])
        let units = Array(text.utf16)
        for match in found {
            #expect(String(decoding: units[match.range], as: UTF16.self) == match.emoticon.code)
        }
        #expect(found.map(\.range) == [2..<6, 13..<17, 18..<21])
        #expect(table.emoticon(for: "[微笑]")?.code == "[微笑]")
        #expect(table.emoticon(for: text.dropFirst(2).prefix(4)) != nil, "a Substring")
        #expect(table.emoticon(for: "[不存在]") == nil)
        #expect(table.emoticon(for: "微笑") == nil)
    }

    @Test func rangesAreInUTF16Units() {
        // 😀 is two UTF-16 units; "\u{1F600}[心]" puts the code at 2..<5.
        #expect(Self.small.matches(in: "😀[心]x[ok]").map(\.range) == [2..<5, 6..<10])
    }

    @Test func codeGrammar() {
        #expect(EmoticonTable.isCode("[微笑]"))
        #expect(EmoticonTable.isCode("[" + String(repeating: "字", count: 16) + "]"))
        #expect(!EmoticonTable.isCode("[" + String(repeating: "字", count: 17) + "]"))
        #expect(!EmoticonTable.isCode("[]"))
        #expect(!EmoticonTable.isCode("[a]b"))
        #expect(!EmoticonTable.isCode("[a[b]"))
        #expect(!EmoticonTable.isCode("[a\nb]"))
        #expect(!EmoticonTable.isCode("[a\u{2028}b]"))
        #expect(!EmoticonTable.isCode("微笑"))
        // A code cut by a line break is not matched; the code after it is.
        #expect(Self.small.matches(in: "[微\n笑][心]").map(\.emoticon.code) == ["[心]"])
        // A "[" inside a would-be code starts the next candidate.
        #expect(Self.small.matches(in: "[x[心]").map(\.range) == [2..<5])
        // After 17 scalars without "]" nothing matches, and the next code still does.
        #expect(Self.small.matches(in: "[" + String(repeating: "a", count: 17) + "][ok]").map(\.emoticon.code) == ["[ok]"])
    }

    @Test func emptyTableMatchesNothing() {
        #expect(EmoticonTable.empty.isEmpty)
        #expect(EmoticonTable.empty.matches(in: "[微笑]").isEmpty)
        #expect(EmoticonTable.empty.emoticon(for: "[微笑]") == nil)
    }

    /// Hostile texts finish (the scan is linear; no timing is asserted).
    @Test func bracketStormsFinish() {
        let megabyte = 1 << 20
        #expect(Self.small.matches(in: String(repeating: "[", count: megabyte)).isEmpty)
        #expect(Self.small.matches(in: String(repeating: "[a", count: megabyte / 2)).isEmpty)
        #expect(Self.small.matches(in: String(repeating: "[" + String(repeating: "a", count: 16), count: megabyte / 17)).isEmpty)
        #expect(Self.small.matches(in: String(repeating: "[[心]]", count: megabyte / 5)).count == megabyte / 5)
    }

    @Test func emoticonIsCodable() throws {
        let emoticon = Self.shipped.emoticons[0]
        let decoded = try JSONDecoder().decode(Emoticon.self, from: JSONEncoder().encode(emoticon))
        #expect(decoded == emoticon)
    }

    // MARK: Broken tables: each error names the table file, and the entry when it is one's.

    /// A fresh folder holding `emoticons.json` with the given text and a valid `ok.png`.
    static func table(_ json: String) throws -> String {
        let folder = Fixtures.temporaryPath("emoticons")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(GrayImage(width: 2, height: 2, gray: [0, 1, 2, 3]).pngData()).write(to: URL(fileURLWithPath: folder + "/ok.png"))
        try Data("not a PNG".utf8).write(to: URL(fileURLWithPath: folder + "/text.png"))
        let path = folder + "/emoticons.json"
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Loads a table expecting an error; checks that its message names the table file.
    static func failure(_ path: String) -> EmoticonTableError? {
        do {
            let table = try EmoticonTable(contentsOf: path)
            Issue.record("loaded \(table.emoticons.count) emoticons from \(path)")
            return nil
        } catch {
            #expect(error.path == path)
            #expect(error.description.contains(path), "\(error)")
            return error
        }
    }

    @Test func relativeImagePathsLoad() throws {
        let path = try Self.table(#"{"emoticons": [{"code": "[ok]", "image": "ok.png", "size": 1.5}, {"code": "[b]", "image": "ok.png"}]}"#)
        let table = try EmoticonTable(contentsOf: path)
        #expect(table.emoticons.map(\.size) == [1.5, 1])
        #expect(table.emoticon(for: "[ok]")?.image.gray == [0, 1, 2, 3])
    }

    @Test func missingTableFile() {
        #expect(Self.failure("/nonexistent/emoticons.json")?.reason == .cannotRead("No such file or directory"))
    }

    @Test func notJSON() throws {
        let error = try Self.failure(Self.table("{\"emoticons\": [ oops"))
        guard case .invalidJSON(let why) = error?.reason else { Issue.record("\(String(describing: error))"); return }
        #expect(error?.entry == nil)
        // The parser's words (where it stopped), not "The given data was not valid JSON."
        #expect(why == "Invalid value around character 16", "\(why)")
        let cut = try Self.failure(Self.table("{\"emoticons\": ["))
        #expect(cut?.reason == .invalidJSON("Unexpected end of file during JSON parse"))
    }

    @Test func entryWithoutImage() throws {
        let error = try Self.failure(Self.table(#"{"emoticons": [{"code": "[ok]", "image": "ok.png"}, {"code": "[x]"}]}"#))
        #expect(error?.reason == .invalidJSON("missing \"image\""))
        #expect(error?.entry == 2)
        #expect(error?.description.contains("entry 2") == true)
    }

    @Test func invalidDuplicateAndBadlySizedCodes() throws {
        let invalid = try Self.failure(Self.table(#"{"emoticons": [{"code": "微笑", "image": "ok.png"}]}"#))
        #expect(invalid?.reason == .invalidCode && invalid?.entry == 1 && invalid?.code == "微笑")
        let duplicate = try Self.failure(Self.table(
            #"{"emoticons": [{"code": "[ok]", "image": "ok.png"}, {"code": "[ok]", "image": "ok.png"}]}"#))
        #expect(duplicate?.reason == .duplicateCode && duplicate?.entry == 2)
        let size = try Self.failure(Self.table(#"{"emoticons": [{"code": "[ok]", "image": "ok.png", "size": 0}]}"#))
        #expect(size?.reason == .invalidSize(0))
    }

    /// An emoticon's size is a number of font sizes up to `maximumSize`; a larger one (which
    /// would make an attachment past the layout's limits) is refused when the table loads.
    @Test(arguments: [10.5, 1e300])
    func sizeOverTheMaximumIsRefusedWhenTheTableLoads(_ size: Double) throws {
        let error = try Self.failure(Self.table(#"{"emoticons": [{"code": "[ok]", "image": "ok.png", "size": \#(size)}]}"#))
        #expect(error?.reason == .invalidSize(size) && error?.entry == 1)
        #expect(error?.description.hasSuffix("[ok]: size \(size) must be above 0 and at most 10.0 (font sizes)") == true,
                "\(String(describing: error))")
        let largest = try Self.table(#"{"emoticons": [{"code": "[ok]", "image": "ok.png", "size": 10}]}"#)
        #expect(try EmoticonTable(contentsOf: largest).emoticons[0].size == 10)
    }

    /// Entries that name one image file (however the path is written) share one decoded
    /// image: the file is decoded once per table, not once per code.
    @Test func entriesNamingOneFileShareOneDecodedImage() throws {
        let path = try Self.table("{}")
        let folder = String(path.dropLast("emoticons.json".count))
        try Data(#"{"emoticons": [{"code": "[a]", "image": "ok.png"}, {"code": "[b]", "image": "./ok.png"}, {"code": "[c]", "image": "\#(folder)ok.png"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let images = try EmoticonTable(contentsOf: path).emoticons.map(\.image)
        #expect(images.count == 3 && images.allSatisfy { $0 == images[0] })
        let buffers = Set(images.map { $0.gray.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) } })
        #expect(buffers.count == 1)
    }

    /// A table's distinct images hold at most `maximumTotalPixels` in all: the image that
    /// would go past it is refused (from its header) naming the table, the entry and the
    /// limit; a file named again is not counted again.
    @Test func tableOverItsTotalPixelsIsRefused() throws {
        let path = try Self.table("{}")
        let folder = String(path.dropLast("emoticons.json".count))
        let side = 1024, count = EmoticonTable.maximumTotalPixels / (side * side)
        let png = try GrayImage(width: side, height: side, gray: [UInt8](repeating: 7, count: side * side)).pngData()
        for index in 0...count { try Data(png).write(to: URL(fileURLWithPath: folder + "big\(index).png")) }
        func entries(_ files: [Int]) -> String {
            #"{"emoticons": ["# + files.enumerated().map { #"{"code": "[\#($0.offset)]", "image": "big\#($0.element).png"}"# }
                .joined(separator: ", ") + "]}"
        }
        try Data(entries(Array(0..<count) + Array(repeating: 0, count: 50)).utf8).write(to: URL(fileURLWithPath: path))
        #expect(try EmoticonTable(contentsOf: path).emoticons.count == count + 50)
        try Data(entries(Array(0...count)).utf8).write(to: URL(fileURLWithPath: path))
        let error = Self.failure(path)
        #expect(error?.reason == .tooManyPixels(limit: 16_777_216) && error?.entry == count + 1)
        #expect(error?.description == "emoticon table \(path), entry \(count + 1) [\(count)]: "
                + "the table's images would hold more than 16777216 pixels in all (the limit of a table)")
    }

    @Test func missingImageNamesTableEntryAndImage() throws {
        let path = try Self.table(
            #"{"emoticons": [{"code": "[ok]", "image": "ok.png"}, {"code": "[泪]", "image": "tears.png"}]}"#)
        let error = Self.failure(path)
        let image = path.replacingOccurrences(of: "emoticons.json", with: "tears.png")
        #expect(error?.reason == .image(ImageError(path: image, reason: .cannotRead("No such file or directory"))))
        #expect(error?.entry == 2 && error?.code == "[泪]")
        let message = error?.description ?? ""
        #expect(message.contains("entry 2") && message.contains("[泪]") && message.contains(image), "\(message)")
    }

    @Test func imageThatIsNotAPNG() throws {
        let error = try Self.failure(Self.table(#"{"emoticons": [{"code": "[t]", "image": "text.png"}]}"#))
        guard case .image(let imageError) = error?.reason else { Issue.record("\(String(describing: error))"); return }
        #expect(imageError.reason == .notPNG)
        #expect(imageError.path.hasSuffix("/text.png"))
    }
}
