/// A summary of one numeric column: how many values, their range, their sum and their mean.
///
/// Produced by `Aggregate.statistics` (and its reference `ScalarAggregate.statistics`). When
/// the column holds a NaN, `min`, `max`, `sum` and `mean` are all NaN — and, as NaN never equals
/// itself, such a value is not `==` to any other.
public struct ColumnStatistics: Equatable, Sendable {
    /// The number of values, NaNs included.
    public var count: Int
    public var min: Double
    public var max: Double
    public var sum: Double
    /// `sum / count`.
    public var mean: Double

    public init(count: Int, min: Double, max: Double, sum: Double, mean: Double) {
        self.count = count
        self.min = min
        self.max = max
        self.sum = sum
        self.mean = mean
    }

    /// The statistics of a column with a NaN in it: every value NaN.
    static func withNaN(count: Int) -> ColumnStatistics {
        ColumnStatistics(count: count, min: .nan, max: .nan, sum: .nan, mean: .nan)
    }
}
