import Foundation

/// The 0–100 energy score of a run's average power, on a log-normal curve set by two control
/// points of the device model, in the manner of Lighthouse's metric scores.
///
/// With `m` = `score50` (the curve's median) and `z` = (ln p − ln m) / σ, the score is
/// 100 × (1 − Φ(z)) = 50 × erfc(z / √2), the complementary CDF of a log-normal distribution
/// of power. σ is chosen so that `score90` scores exactly 90: 1 − Φ(z₉₀) = 0.9 gives
/// z₉₀ = −Φ⁻¹(0.9), so σ = (ln m − ln p₉₀) / Φ⁻¹(0.9). Lower power scores higher; zero power
/// scores 100. O(1).
public enum EnergyScore {
    /// Φ⁻¹(0.9), the 90th percentile of the standard normal distribution.
    static let normalQuantile90 = 1.2815515655446004

    /// The score of `averageMilliwatts` for a curve with the power that scores 90 and the
    /// power that scores 50, both in milliwatts.
    ///
    /// Control points that do not make a curve (`score90` not below `score50`, or either not
    /// positive) give the curve's limit as σ → 0, a step: 100 below `score50`, 50 at it, 0
    /// above. Model loading is expected to reject such models.
    public static func score(averageMilliwatts: Double, score90: Double, score50: Double) -> Double {
        if averageMilliwatts <= 0 { return 100 }
        guard score90 > 0, score50 > score90 else {
            if averageMilliwatts == score50 { return 50 }
            return averageMilliwatts < score50 ? 100 : 0
        }
        let sigma = (log(score50) - log(score90)) / normalQuantile90
        let z = (log(averageMilliwatts) - log(score50)) / sigma
        return 50 * erfc(z / 2.0.squareRoot())
    }
}
