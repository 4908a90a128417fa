/// The hash of the caches' fixed-size keys (shaped words, glyphs): operands xored with a
/// random per-cache seed, multiplied to 128 bits and the halves xored (as wyhash does). A
/// fraction of `Hasher`'s SipHash for keys looked up hundreds of times a post; every operand
/// is seeded, so input cannot be chosen to zero one of them.
enum WideFold {
    /// The two halves of the 128-bit product, xored.
    @inline(__always)
    static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }
}
