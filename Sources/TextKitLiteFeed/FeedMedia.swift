import Foundation
import TextKitLite
import TextKitLiteMedia

/// A feed's pictures read from files: the `PictureSource` of `textrender feed` and
/// `measure`. A source is resolved against a media root (the feed file's folder, or
/// `--media-root`); its header gives a single picture's size without decoding it; a picture
/// is decoded, scaled and cropped once per size and kept in a bounded `PictureCache`.
///
/// A source that cannot be had (missing, unreadable, corrupt, truncated, too large, or not
/// a file path) is reported to `onFailure` once, and its cells show placeholders.
public final class FeedMedia: PictureSource {
    /// The folder relative sources are resolved against.
    public let root: String
    /// The decoded, scaled pictures and the headers read.
    public let cache: PictureCache
    private let onFailure: @Sendable (ImageError) -> Void
    /// The sources reported as failed.
    private let failed = Locked<Set<String>>([])

    /// - Parameters:
    ///   - root: the folder relative sources are resolved against.
    ///   - cache: where pictures are kept (bounded by bytes).
    ///   - onFailure: called once per source that cannot be had, with why (from any thread).
    public init(root: String, cache: PictureCache = PictureCache(), onFailure: @escaping @Sendable (ImageError) -> Void = { _ in }) {
        self.root = root
        self.cache = cache
        self.onFailure = onFailure
    }

    /// The media root of a feed read from `path`: the file's folder (relative sources are
    /// written relative to the feed), or the current folder for standard input (nil or "-").
    public static func root(forFeedAt path: String?) -> String {
        guard let path, path != "-" else { return "." }
        return URL(fileURLWithPath: path).deletingLastPathComponent().path
    }

    /// The file a source names: a `file://` URL's path (percent-decoded; host empty or
    /// `localhost`), an absolute path as it is, a relative one under `root`.
    ///
    /// - Throws: `ImageError.cannotRead` naming the source for a URL of another scheme
    ///   (`https:`, `data:`): only files are read.
    public func path(of source: String) throws(ImageError) -> String {
        if source.hasPrefix("file://") {
            var rest = source.dropFirst("file://".count)
            if rest.hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
            guard rest.hasPrefix("/"), let path = String(rest).removingPercentEncoding else {
                throw ImageError(path: source, reason: .cannotRead("a file:// URL names a local absolute path (file:///path)"))
            }
            return path
        }
        if let colon = source.firstIndex(of: ":"), let first = source.first, first.isLetter,
           source[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) }) {
            throw ImageError(path: source, reason: .cannotRead("only file paths and file:// URLs are read, not \(source[..<colon]): URLs"))
        }
        return source.hasPrefix("/") ? source : (root.hasSuffix("/") ? root : root + "/") + source
    }

    public func pixelSize(of source: String) -> (width: Int, height: Int)? {
        do {
            let header = try cache.header(path: path(of: source))
            return (header.width, header.height)
        } catch {
            report(source, error)
            return nil
        }
    }

    public func image(_ picture: CellPicture, width: Int, height: Int) -> GrayImage? {
        do {
            return try cache.picture(path: path(of: picture.source), width: width, height: height, shape: picture.shape)
        } catch {
            report(picture.source, error)
            return nil
        }
    }

    /// Number of sources that could not be had.
    public var failureCount: Int { failed.withLock { $0.count } }

    private func report(_ source: String, _ error: ImageError) {
        if failed.withLock({ $0.insert(source).inserted }) { onFailure(error) }
    }
}
