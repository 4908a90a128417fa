extension FixedWidthInteger {
    /// `value` rounded toward zero and clamped to the type's range; 0 for NaN.
    ///
    /// A plain `Int(value)` traps on NaN, on the infinities and on values out of range. A
    /// conversion whose value no check bounds (a size or position from a decoded layout,
    /// an option of a public call that does not validate) goes through this instead.
    init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value <= Double(Self.min) {
            self = .min
        } else if value >= Double(Self.max) {  // Double(Int64.max) is 2^63, one past it
            self = .max
        } else {
            self.init(value)
        }
    }
}
