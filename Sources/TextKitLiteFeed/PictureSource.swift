import TextKitLite

/// Where the pictures of cells come from, for measuring (a single picture's aspect ratio
/// sizes its box) and drawing (`CellRenderer`): `FeedMedia` reads files, a client may
/// bring its own. Called from any thread.
///
/// A picture that cannot be had is no error of the cell: the source answers nil, reports
/// the failure its own way (once per source), and the cell shows its placeholder there.
public protocol PictureSource: Sendable {
    /// The picture's size in pixels as displayed, from what describes it (a file's header,
    /// never its pixels); nil when it cannot be read.
    func pixelSize(of source: String) -> (width: Int, height: Int)?
    /// The picture aspect-filled into `width × height` pixels (scaled to cover them,
    /// centred, the overflow cropped) and masked to its shape; nil when it cannot be had.
    func image(_ picture: CellPicture, width: Int, height: Int) -> GrayImage?
}
