extension Aggregate {
    /// Count, minimum, maximum, sum and mean of `values`, or `nil` when it is empty.
    ///
    /// `SIMD8<Double>` lanes keep eight running minima, maxima and sums, folded at the end, so
    /// the sum is added in a different order than `ScalarAggregate.statistics`: the two differ
    /// by at most `n × 2⁻⁵³ × Σ|v|`. Minimum and maximum are exact. A NaN anywhere makes every
    /// statistic NaN (the loop ignores NaNs in min and max; NaN in the sum triggers a check).
    /// O(n).
    public static func statistics(_ values: [Double]) -> ColumnStatistics? {
        guard !values.isEmpty else { return nil }
        return values.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            let count = buffer.count
            var minimum = SIMD8<Double>(repeating: .infinity)
            var maximum = SIMD8<Double>(repeating: -.infinity)
            var sum = SIMD8<Double>()
            var index = 0
            while count &- index >= 8 {
                let chunk = base.loadUnaligned(fromByteOffset: index &* 8, as: SIMD8<Double>.self)
                minimum = minimum.replacing(with: chunk, where: chunk .< minimum)
                maximum = maximum.replacing(with: chunk, where: chunk .> maximum)
                sum += chunk
                index &+= 8
            }
            var lowest = minimum.min()
            var highest = maximum.max()
            var total = sum.sum()
            while index < count {
                let value = buffer[index]
                if value < lowest { lowest = value }
                if value > highest { highest = value }
                total += value
                index &+= 1
            }
            if total.isNaN, buffer.contains(where: \.isNaN) { return .withNaN(count: count) }
            return ColumnStatistics(count: count, min: lowest, max: highest, sum: total, mean: total / Double(count))
        }
    }

    /// Count, minimum, maximum, sum and mean of `values`, or `nil` when it is empty.
    ///
    /// The sum is exact — each value's upper and lower 32-bit halves are summed apart and
    /// combined in 128 bits — and rounded once to `Double`; minimum and maximum are exact
    /// integers converted to `Double` (exact up to 2⁵³, 104 days of nanoseconds). O(n).
    ///
    /// Scalar code: baseline x86-64 (SSE2) has no 64-bit integer compare, so `SIMD2<Int64>`
    /// minima and maxima cost about a dozen instructions per pair, slower than scalar
    /// compare-and-move.
    public static func statistics(_ values: [Int64]) -> ColumnStatistics? {
        guard let first = values.first else { return nil }
        var lowest = first
        var highest = first
        var sum = Int64Sum()
        values.withUnsafeBufferPointer { buffer in
            // Per chunk, the lower halves (< 2³² each) and upper halves (|h| ≤ 2³¹) of 2³⁰
            // values cannot overflow 64 bits.
            let chunkLength = 1 << 30
            var start = 0
            while start < buffer.count {
                let end = min(buffer.count, start + chunkLength)
                var lower: UInt64 = 0
                var upper: Int64 = 0
                for index in start..<end {
                    let value = buffer[index]
                    lowest = min(lowest, value)
                    highest = max(highest, value)
                    lower &+= UInt64(bitPattern: value) & 0xFFFF_FFFF
                    upper &+= value &>> 32
                }
                sum.add(upper: upper, lower: lower)
                start = end
            }
        }
        let total = sum.doubleValue
        return ColumnStatistics(
            count: values.count, min: Double(lowest), max: Double(highest), sum: total,
            mean: total / Double(values.count))
    }
}
