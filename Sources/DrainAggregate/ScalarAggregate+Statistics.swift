extension ScalarAggregate {
    /// Count, minimum, maximum, sum and mean in one plain loop, summing in order in `Double`;
    /// `nil` when empty, every statistic NaN when a value is NaN. O(n).
    public static func statistics(_ values: [Double]) -> ColumnStatistics? {
        guard let first = values.first else { return nil }
        var lowest = first
        var highest = first
        var sum = 0.0
        for value in values {
            if value.isNaN { return .withNaN(count: values.count) }
            if value < lowest { lowest = value }
            if value > highest { highest = value }
            sum += value
        }
        return ColumnStatistics(count: values.count, min: lowest, max: highest, sum: sum, mean: sum / Double(values.count))
    }

    /// Count, minimum, maximum, sum and mean in one plain loop, converting each value to
    /// `Double` and summing in order (so large sums round at every step, unlike
    /// `Aggregate.statistics`, which sums exactly); `nil` when empty. O(n).
    public static func statistics(_ values: [Int64]) -> ColumnStatistics? {
        guard let first = values.first else { return nil }
        var lowest = first
        var highest = first
        var sum = 0.0
        for value in values {
            lowest = min(lowest, value)
            highest = max(highest, value)
            sum += Double(value)
        }
        return ColumnStatistics(
            count: values.count, min: Double(lowest), max: Double(highest), sum: sum, mean: sum / Double(values.count))
    }

    /// The `ps` percentiles (in percent) of `values` by sorting a copy, with the definition of
    /// `Aggregate.percentiles`. O(n log n).
    public static func percentiles(_ values: [Double], _ ps: [Double]) -> [Double] {
        guard !values.isEmpty, !values.contains(where: \.isNaN) else { return ps.map { _ in .nan } }
        let sorted = values.sorted()
        return sorted.withUnsafeBufferPointer { sorted in
            ps.map { PercentileRank($0, count: sorted.count).value(inSorted: sorted) }
        }
    }
}
