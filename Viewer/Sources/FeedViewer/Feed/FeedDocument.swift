import Foundation
import TextKitLiteFeed

/// A feed read whole from a JSON Lines file: its posts in order, and what was wrong with it,
/// in the words `textrender feed` uses on standard error (a missing file, a malformed line,
/// a read error). Nothing here stops the viewer: a bad line is skipped, a missing file is
/// an empty feed with its message.
public struct FeedDocument: Sendable {
    /// The file's path as given.
    public let path: String
    public private(set) var posts: [FeedPost] = []
    /// What the command-line tool would report, one message per problem (without the
    /// program's name).
    public private(set) var messages: [String] = []

    /// Reads a feed; with `repeat` > 1 its posts come that many times, each copy's ids
    /// suffixed "~2", "~3"… so that every cell is a post of its own (a long feed for scrolling).
    public init(path: String, repeat count: Int = 1) {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            messages.append("\(path): no such file")
            return
        }
        guard !isDirectory.boolValue else {
            messages.append("\(path): is a directory, not a feed file")
            return
        }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            messages.append("\(path): cannot open (\(String(cString: strerror(errno))))")
            return
        }
        defer { close(descriptor) }
        let reader = FeedReader(descriptor: descriptor)
        var read: [FeedPost] = []
        for record in reader {
            switch record.result {
            case .success(let post): read.append(post)
            case .failure(let error): messages.append("\(path):\(error.line): \(error.reason) (line skipped)")
            }
        }
        if let reason = reader.status.readErrorDescription { messages.append("cannot read \(path): \(reason)") }
        posts = read
        for copy in stride(from: 2, through: max(1, count), by: 1) {
            for var post in read {
                post.id += "~\(copy)"
                post.idIsInteger = false
                posts.append(post)
            }
        }
    }
}
