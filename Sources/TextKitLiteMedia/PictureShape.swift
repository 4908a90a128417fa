/// The outline a picture is cut to: its whole frame, or the ellipse inscribed in it (a
/// circle in a square frame: an avatar) with an anti-aliased edge.
public enum PictureShape: String, Sendable, Hashable, Codable {
    /// The whole frame.
    case rectangle
    /// The ellipse inscribed in the frame.
    case circle
}
