extension Aggregate {
    /// The `ps` percentiles of `values`, one result per entry of `ps`, in the same order.
    ///
    /// Definition (numpy's default, "linear"): sort the n values as v₀ ≤ … ≤ vₙ₋₁; percentile p
    /// (in percent, clamped to 0…100) sits at rank h = (n − 1) × p / 100 and is
    /// v⌊h⌋ + (h − ⌊h⌋) × (v⌊h⌋₊₁ − v⌊h⌋): linear interpolation between the two closest ranks.
    /// So `[1, 2, 3, 4]` has p50 = 2.5, p25 = 1.75, p0 = 1, p100 = 4. Like numpy, a fraction
    /// t ≥ ½ is computed from the upper value, b − (1 − t) × (b − a), which keeps the result
    /// monotone in p. An empty `values`, a NaN in `values` or a NaN `p` gives NaN.
    ///
    /// Finds each rank by selection (Hoare partitioning around a median of three) in a copy
    /// of `values`, narrowing the range from one requested rank to the next: O(n) expected per
    /// percentile and O(n log n) at worst (a partition that keeps failing to shrink the range
    /// falls back to sorting it). With more percentiles than log₂ n it sorts the copy once.
    /// Returns exactly what `ScalarAggregate.percentiles` (sort, then interpolate) returns.
    public static func percentiles(_ values: [Double], _ ps: [Double]) -> [Double] {
        let count = values.count
        guard count > 0, !values.contains(where: \.isNaN) else { return ps.map { _ in .nan } }
        var ranked = values
        return ranked.withUnsafeMutableBufferPointer { ranked in
            if ps.count > Int.bitWidth - count.leadingZeroBitCount {
                ranked.sort()
                return ps.map { PercentileRank($0, count: count).value(inSorted: UnsafeBufferPointer(ranked)) }
            }
            var results = [Double](repeating: .nan, count: ps.count)
            let requests = ps.indices
                .map { (position: $0, rank: PercentileRank(ps[$0], count: count)) }
                .filter { $0.rank.isValid }
                .sorted { $0.rank.lower < $1.rank.lower }
            var settled = 0
            for request in requests {
                let rank = request.rank
                Selection.select(rank.lower, in: ranked, from: settled)
                settled = rank.lower
                let lowerValue = ranked[rank.lower]
                var upperValue = lowerValue
                if rank.fraction > 0 {
                    upperValue = ranked[rank.lower + 1]
                    for index in (rank.lower + 2)..<count where ranked[index] < upperValue { upperValue = ranked[index] }
                }
                results[request.position] = rank.interpolate(lowerValue, upperValue)
            }
            return results
        }
    }
}

/// Where percentile p falls among n sorted values: between ranks `lower` and `lower + 1`, at
/// `fraction` of the way. Shared by `Aggregate.percentiles` and its reference so both
/// interpolate with the same arithmetic.
struct PercentileRank {
    let lower: Int
    let fraction: Double
    /// False for a NaN percentile.
    let isValid: Bool

    init(_ percent: Double, count: Int) {
        guard !percent.isNaN else {
            (lower, fraction, isValid) = (0, 0, false)
            return
        }
        let position = Double(count - 1) * (Swift.min(Swift.max(percent, 0), 100) / 100)
        let floor = position.rounded(.down)
        lower = Swift.min(Int(floor), count - 1)
        fraction = lower == count - 1 ? 0 : position - floor
        isValid = true
    }

    func interpolate(_ lowerValue: Double, _ upperValue: Double) -> Double {
        if fraction == 0 { return lowerValue }
        let difference = upperValue - lowerValue
        return fraction < 0.5 ? lowerValue + fraction * difference : upperValue - (1 - fraction) * difference
    }

    func value(inSorted sorted: UnsafeBufferPointer<Double>) -> Double {
        guard isValid else { return .nan }
        return interpolate(sorted[lower], fraction == 0 ? sorted[lower] : sorted[lower + 1])
    }
}

/// In-place selection (Hoare's FIND) over a buffer without NaNs.
enum Selection {
    /// Reorders `values[start...]` so that `values[k]` holds the value of rank `k`, everything
    /// before it is ≤ and everything after it ≥. Elements before `start` must already be ≤
    /// every element from `start` on. O(n) expected; sorts the remaining range after
    /// 2 log₂ n + 8 partitions, so O(n log n) at worst.
    static func select(_ k: Int, in values: UnsafeMutableBufferPointer<Double>, from start: Int) {
        var low = start
        var high = values.count - 1
        var partitionsLeft = 2 * (Int.bitWidth - values.count.leadingZeroBitCount) + 8
        while low < high {
            if partitionsLeft == 0 || high - low < 16 {
                var remaining = UnsafeMutableBufferPointer(rebasing: values[low...high])
                remaining.sort()
                return
            }
            partitionsLeft -= 1
            let pivot = medianOfThree(values[low], values[low + (high - low) / 2], values[high])
            var left = low
            var right = high
            repeat {
                while values[left] < pivot { left += 1 }
                while pivot < values[right] { right -= 1 }
                if left <= right {
                    values.swapAt(left, right)
                    left += 1
                    right -= 1
                }
            } while left <= right
            // Now values[low...right] ≤ pivot ≤ values[left...high], and anything between equals pivot.
            if right < k { low = left }
            if k < left { high = right }
        }
    }

    private static func medianOfThree(_ a: Double, _ b: Double, _ c: Double) -> Double {
        Swift.max(Swift.min(a, b), Swift.min(Swift.max(a, b), c))
    }
}
