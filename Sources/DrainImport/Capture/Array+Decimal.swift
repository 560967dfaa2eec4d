extension Array where Element == UInt8 {
    /// Appends a non-negative number in decimal ASCII, without leading zeros: the ports,
    /// octets and generations of connection labels, written without a `String`.
    mutating func appendDecimal(_ value: Int) {
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            append(UInt8(truncatingIfNeeded: 48 + rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
