extension Bitmap {
    /// The file formats a `Bitmap` is written in: binary PGM (P5, gray), binary PPM (P6, RGB)
    /// and PNG (libpng: gray, RGB or RGBA as the bitmap is).
    public enum FileFormat: String, Sendable, CaseIterable {
        case pgm, ppm, png

        /// The format a file name's extension names (case-insensitively), if any.
        public init?(path: String) {
            guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
            self.init(rawValue: path[path.index(after: dot)...].lowercased())
        }

        /// The file name extension, without the dot.
        public var fileExtension: String { rawValue }
    }
}
