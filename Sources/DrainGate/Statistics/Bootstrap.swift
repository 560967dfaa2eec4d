/// A percentile-bootstrap confidence interval for the difference of one aggregate (the
/// median, by default) between two sets of runs.
public enum Bootstrap {
    /// How many resamples an interval takes: enough for stable 2.5 % and 97.5 % points.
    public static let resamples = 4_000

    /// The central `level` (0.95) interval of `aggregate(candidate*) − aggregate(baseline*)`
    /// over resamples drawn with replacement from each side, with a generator seeded by
    /// `seed`: the same inputs give the same interval. Both sides need at least one run.
    /// O(resamples × n log n).
    public static func differenceInterval(
        baseline: [Double], candidate: [Double], aggregate: RunAggregate = .median, level: Double = 0.95, seed: UInt64
    ) -> (low: Double, high: Double) {
        precondition(!baseline.isEmpty && !candidate.isEmpty, "a bootstrap needs runs on both sides")
        var generator = SplitMix64(seed: seed)
        var differences = [Double]()
        differences.reserveCapacity(resamples)
        var left = baseline
        var right = candidate
        for _ in 0..<resamples {
            for index in left.indices { left[index] = baseline[Int(generator.next() % UInt64(baseline.count))] }
            for index in right.indices { right[index] = candidate[Int(generator.next() % UInt64(candidate.count))] }
            differences.append(aggregate.of(right) - aggregate.of(left))
        }
        differences.sort()
        let tail = (1 - level) / 2 * 100
        return (RunAggregate.percentile(differences, tail), RunAggregate.percentile(differences, 100 - tail))
    }
}
