/// The one "over" rule every drawing operation uses, on any pixel format, in 8-bit
/// integers rounded to nearest.
///
/// - Ink at a coverage (a glyph's mask, a rectangle's opacity) moves each channel of the
///   destination toward the ink's channel: `d' = (d × (255 − k) + s × k + 127) / 255`, where
///   `k` is the coverage times the ink's alpha / 255 and `s` is the ink's straight channel,
///   255 for alpha. On a premultiplied destination this is Porter-Duff "over" with the
///   source `s × k / 255`; on a gray bitmap it is exactly the blend gray bitmaps always had.
/// - A premultiplied image (a color glyph, a decoded picture) adds its channels to the
///   destination's scaled by its transparency: `d' = s + (d × (255 − a) + 127) / 255`.
enum Blend {
    /// A channel moved toward `source` by `coverage` (0...255).
    @inline(__always)
    static func toward(_ destination: UInt32, _ source: UInt32, by coverage: UInt32) -> UInt32 {
        (destination &* (255 &- coverage) &+ source &* coverage &+ 127) / 255
    }

    /// A premultiplied channel `source` of alpha `alpha` over a destination channel.
    @inline(__always)
    static func over(_ destination: UInt32, premultiplied source: UInt32, alpha: UInt32) -> UInt32 {
        Swift.min(255, source &+ (destination &* (255 &- alpha) &+ 127) / 255)
    }

    /// A coverage scaled by an ink's alpha: the coverage itself for opaque ink.
    @inline(__always)
    static func coverage(_ coverage: UInt32, alpha: UInt32) -> UInt32 {
        (coverage &* alpha &+ 127) / 255
    }

    /// The channels ink is blended toward on an RGBA bitmap: its straight color, 255 alpha.
    @inline(__always)
    static func rgbaSource(_ color: Color) -> SIMD4<UInt32> {
        SIMD4(UInt32(color.red), UInt32(color.green), UInt32(color.blue), 255)
    }

    /// `toward` for the four channels of an RGBA pixel.
    @inline(__always)
    static func toward(_ destination: SIMD4<UInt32>, _ source: SIMD4<UInt32>, by coverage: UInt32) -> SIMD4<UInt32> {
        let k = SIMD4<UInt32>(repeating: coverage)
        let n = destination &* (SIMD4(repeating: 255) &- k) &+ source &* k &+ SIMD4(repeating: 127)
        return (n &+ SIMD4(repeating: 1) &+ (n &>> 8)) &>> 8  // n / 255, exact for n < 65,536 + 255
    }

    /// `over` for the four channels of an RGBA pixel.
    @inline(__always)
    static func over(_ destination: SIMD4<UInt32>, premultiplied source: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let a = SIMD4<UInt32>(repeating: source[3])
        let n = destination &* (SIMD4(repeating: 255) &- a) &+ SIMD4(repeating: 127)
        let scaled = (n &+ SIMD4(repeating: 1) &+ (n &>> 8)) &>> 8
        return pointwiseMin(SIMD4(repeating: 255), source &+ scaled)
    }
}

extension UnsafeMutableRawPointer {
    /// The RGBA pixel at this address, widened.
    @inline(__always)
    func loadPixel() -> SIMD4<UInt32> {
        SIMD4<UInt32>(truncatingIfNeeded: loadUnaligned(as: SIMD4<UInt8>.self))
    }

    /// Stores an RGBA pixel, narrowed (each channel is at most 255).
    @inline(__always)
    func storePixel(_ pixel: SIMD4<UInt32>) {
        storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: pixel), as: SIMD4<UInt8>.self)
    }
}
