/// An exact sum of `Int64` values: a 128-bit two's-complement integer (`high`, `low`), enough
/// for 2⁶³ values of any size. Converts to the nearest `Double` with a single rounding.
struct Int64Sum: Equatable {
    var high: Int64 = 0
    var low: UInt64 = 0

    /// Adds `upper × 2³² + lower`: how `Aggregate.statistics` folds in the split sums it
    /// accumulates per chunk (the upper and lower 32-bit halves of each value, summed apart).
    mutating func add(upper: Int64, lower: UInt64) {
        add(high: upper >> 32, low: UInt64(bitPattern: upper) << 32)
        add(high: 0, low: lower)
    }

    mutating func add(_ value: Int64) {
        add(high: value >> 63, low: UInt64(bitPattern: value))
    }

    private mutating func add(high otherHigh: Int64, low otherLow: UInt64) {
        let (sum, carry) = low.addingReportingOverflow(otherLow)
        low = sum
        high = high &+ otherHigh &+ (carry ? 1 : 0)
    }

    /// The sum rounded to the nearest `Double` (ties to even), exactly as if computed in
    /// infinite precision and rounded once.
    var doubleValue: Double {
        let negative = high < 0
        var magnitudeHigh = UInt64(bitPattern: high)
        var magnitudeLow = low
        if negative {
            magnitudeLow = ~magnitudeLow &+ 1
            magnitudeHigh = ~magnitudeHigh &+ (magnitudeLow == 0 ? 1 : 0)
        }
        let magnitude: Double
        if magnitudeHigh == 0 {
            magnitude = Double(magnitudeLow)
        } else {
            // The top 64 significant bits, with any lower nonzero bit folded into bit 0: that
            // bit is below the rounding position of a 53-bit significand, so the one rounding
            // of `Double(UInt64)` is the rounding of the whole 128-bit value.
            let shift = magnitudeHigh.leadingZeroBitCount
            let top = shift == 0 ? magnitudeHigh : magnitudeHigh << shift | magnitudeLow >> (64 - shift)
            let dropped = shift == 0 ? magnitudeLow : magnitudeLow << shift
            let rounded = Double(top | (dropped == 0 ? 0 : 1))
            magnitude = rounded * Double(sign: .plus, exponent: 64 - shift, significand: 1)
        }
        return negative ? -magnitude : magnitude
    }
}
