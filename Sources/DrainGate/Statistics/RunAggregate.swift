/// How a metric's values over repeated runs become one figure.
public enum RunAggregate: String, Codable, Sendable, CaseIterable {
    case median, min, max, p90

    /// The figure of `values` (not empty). The median of an even count is the mean of the
    /// middle two; p90 interpolates linearly between ranks (numpy's default). O(n log n).
    public func of(_ values: [Double]) -> Double {
        precondition(!values.isEmpty, "an aggregate of no runs")
        return of(sorted: values.sorted())
    }

    /// The figure of `sorted`, already in ascending order (not empty). O(1).
    func of(sorted: [Double]) -> Double {
        switch self {
        case .min: return sorted[0]
        case .max: return sorted[sorted.count - 1]
        case .median: return Self.percentile(sorted, 50)
        case .p90: return Self.percentile(sorted, 90)
        }
    }

    /// The `p` percentile of ascending `sorted`, linear between closest ranks.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        let rank = Double(sorted.count - 1) * p / 100
        let lower = Int(rank.rounded(.down))
        let upper = Swift.min(lower + 1, sorted.count - 1)
        let fraction = rank - Double(lower)
        return sorted[lower] + fraction * (sorted[upper] - sorted[lower])
    }
}
