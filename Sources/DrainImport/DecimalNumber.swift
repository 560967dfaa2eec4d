/// A JSON number read from its decimal digits as `significand × 10^exponent`, so that
/// seconds convert to integer nanoseconds exactly (`1.000000001` is 1 000 000 001 ns,
/// which no `Double` holds).
struct DecimalNumber {
    var isNegative = false
    /// Up to 19 significant digits (at most 10^19 - 1).
    var significand: UInt64 = 0
    var exponent = 0
    /// Whether non-zero digits beyond the significand's were dropped.
    var isInexact = false

    /// Reads `bytes[start..<end]`, a number already validated by `JSONScanner.scanNumber()`.
    /// O(digits).
    @inline(__always)
    init(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) {
        var index = start
        if bytes[index] == ASCII.minus {
            isNegative = true
            index += 1
        }
        while index < end, ASCII.isDigit(bytes[index]) {
            accumulate(bytes[index] - ASCII.zero, fractional: false)
            index += 1
        }
        if index < end, bytes[index] == ASCII.dot {
            index += 1
            while index < end, ASCII.isDigit(bytes[index]) {
                accumulate(bytes[index] - ASCII.zero, fractional: true)
                index += 1
            }
        }
        if index < end {
            // The exponent: [eE][+-]?digits. Clamped, since anything this large over- or
            // underflows every column anyway.
            index += 1
            var negativeExponent = false
            if bytes[index] == ASCII.minus || bytes[index] == ASCII.plus {
                negativeExponent = bytes[index] == ASCII.minus
                index += 1
            }
            var value = 0
            while index < end {
                value = min(value * 10 + Int(bytes[index] - ASCII.zero), 1_000_000)
                index += 1
            }
            exponent += negativeExponent ? -value : value
        }
    }

    /// Adds one digit. Leading zeros need no special case: they leave the significand at 0,
    /// and after the point they still shift the scale.
    @inline(__always)
    private mutating func accumulate(_ digit: UInt8, fractional: Bool) {
        if significand < 1_000_000_000_000_000_000 {
            significand = significand &* 10 &+ UInt64(digit)
            if fractional { exponent -= 1 }
        } else {
            // A 20th significant digit would not fit: drop it, keeping the scale.
            if digit != 0 { isInexact = true }
            if !fractional { exponent += 1 }
        }
    }

    /// The magnitude times `10^power`, rounded to the nearest integer (halves away from
    /// zero), or `nil` when it does not fit in an `Int64`. `exact` says whether no digits
    /// were lost. O(1).
    func scaled(byPowerOfTen power: Int) -> (value: Int64, exact: Bool)? {
        if significand == 0 { return (0, true) }
        let shift = exponent + power
        if shift >= 0 {
            guard shift <= 19 else { return nil }
            let (product, overflow) = significand.multipliedReportingOverflow(by: Self.powerOfTen(shift))
            guard !overflow, product <= UInt64(Int64.max) else { return nil }
            return (Int64(product), !isInexact)
        }
        guard -shift <= 19 else { return (0, false) }
        let divisor = Self.powerOfTen(-shift)
        let (quotient, remainder) = significand.quotientAndRemainder(dividingBy: divisor)
        // Dropped digits cannot change the rounding: the divisor is an even power of ten.
        let rounded = remainder >= divisor - remainder ? quotient + 1 : quotient
        guard rounded <= UInt64(Int64.max) else { return nil }
        return (Int64(rounded), remainder == 0 && !isInexact)
    }

    /// The value as the nearest `Double`, or `nil` if it is too large to be finite.
    ///
    /// Exact small cases are computed directly (one correctly rounded multiplication or
    /// division, as both operands are exact); the rest go through the standard library's
    /// correctly rounded parser. O(digits).
    func doubleValue(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Double? {
        var magnitude: Double
        if !isInexact, significand < 1 << 53, (-22...22).contains(exponent) {
            magnitude = Double(significand)
            if exponent >= 0 {
                magnitude *= DecimalNumber.doublePowersOfTen[exponent]
            } else {
                magnitude /= DecimalNumber.doublePowersOfTen[-exponent]
            }
            return isNegative ? -magnitude : magnitude
        }
        let text = String(decoding: UnsafeBufferPointer(start: bytes + start, count: end - start), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// 10^exponent, for 0 ≤ exponent ≤ 19 (the powers a `UInt64` holds).
    @inline(__always)
    static func powerOfTen(_ exponent: Int) -> UInt64 {
        powersOfTen[exponent]
    }

    /// A literal, so that it is laid out in the binary rather than built at run time.
    private static let powersOfTen: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
        10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
        1_000_000_000_000_000, 10_000_000_000_000_000, 100_000_000_000_000_000,
        1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ]

    private static let doublePowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
        1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
