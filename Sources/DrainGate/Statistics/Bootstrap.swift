import DrainTrace
import Foundation

/// A confidence interval for the difference of one aggregate (the median, by default)
/// between two sets of runs, by a seeded, smoothed percentile bootstrap.
///
/// Runs are few (5 to 10 a side), and the median of a plain resample of so few values can
/// only take a handful of values: its percentiles jump, and the interval is wider than the
/// noise warrants. Each resampled value is therefore jittered by a normal kernel of
/// Silverman's rule-of-thumb bandwidth h = 0.9 · s · n^(−1/5), and shrunk back towards the
/// mean by √(1 + h²/s²) so that the resample keeps the sample's variance (the smoothed
/// bootstrap: Silverman, "Density Estimation", 1986, §6.4; Hall, DiCiccio and Romano, "On
/// smoothing and the bootstrap", Annals of Statistics 17(2), 1989, show it improves
/// bootstrap intervals of quantiles). A side whose runs are all equal is not jittered.
public enum Bootstrap {
    /// How many resamples an interval takes: enough for stable 2.5 % and 97.5 % points.
    public static let resamples = 4_000

    /// The central `level` (0.95) interval of `aggregate(candidate*) − aggregate(baseline*)`
    /// over smoothed resamples of each side, drawn with a generator seeded by `seed`: the
    /// same inputs give the same interval. Both sides need at least one run.
    /// O(resamples × n log n).
    public static func differenceInterval(
        baseline: [Double], candidate: [Double], aggregate: RunAggregate = .median, level: Double = 0.95, seed: UInt64
    ) -> (low: Double, high: Double) {
        precondition(!baseline.isEmpty && !candidate.isEmpty, "a bootstrap needs runs on both sides")
        var generator = SplitMix64(seed: seed)
        let left = Smoothing(baseline)
        let right = Smoothing(candidate)
        var leftSample = baseline
        var rightSample = candidate
        var differences = [Double]()
        differences.reserveCapacity(resamples)
        for _ in 0..<resamples {
            left.resample(into: &leftSample, using: &generator)
            right.resample(into: &rightSample, using: &generator)
            differences.append(aggregate.of(sorted: rightSample) - aggregate.of(sorted: leftSample))
        }
        differences.sort()
        let tail = (1 - level) / 2 * 100
        return (RunAggregate.percentile(differences, tail), RunAggregate.percentile(differences, 100 - tail))
    }

    /// One side's values and its kernel.
    private struct Smoothing {
        let values: [Double]
        let mean: Double
        /// The kernel's bandwidth; 0 when the values do not vary.
        let bandwidth: Double
        /// 1 / √(1 + h²/s²).
        let shrink: Double

        init(_ values: [Double]) {
            self.values = values
            let count = Double(values.count)
            let mean = values.reduce(0, +) / count
            self.mean = mean
            let variance = values.count > 1 ? values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (count - 1) : 0
            let deviation = variance.squareRoot()
            let bandwidth = deviation > 0 ? 0.9 * deviation * pow(count, -0.2) : 0
            self.bandwidth = bandwidth
            shrink = deviation > 0 ? 1 / (1 + bandwidth * bandwidth / variance).squareRoot() : 1
        }

        /// Fills `sample` with a smoothed resample, sorted.
        func resample(into sample: inout [Double], using generator: inout SplitMix64) {
            for index in sample.indices {
                let drawn = values[Int(generator.next() % UInt64(values.count))]
                let jitter = bandwidth > 0 ? bandwidth * Self.standardNormal(&generator) : 0
                sample[index] = mean + (drawn - mean + jitter) * shrink
            }
            sample.sort()
        }

        /// A standard normal deviate (Box-Muller).
        static func standardNormal(_ generator: inout SplitMix64) -> Double {
            let u1 = (Double(generator.next() >> 11) + 1) / Double(1 << 53)
            let u2 = Double(generator.next() >> 11) / Double(1 << 53)
            return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
        }
    }
}
