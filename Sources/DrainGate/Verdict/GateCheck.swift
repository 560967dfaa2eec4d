/// One check of a gate: a budget limit, a findings limit, a regression test of a metric, or
/// a finding key new against the baseline.
public struct GateCheck: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        case budget, findings, regression
        case newFinding = "new_finding"
        case resolvedFinding = "resolved_finding"
        /// `--require-baseline` found no baseline in the run history.
        case baseline
    }

    /// What came of it.
    public enum Status: String, Codable, Sendable, CaseIterable {
        /// Within its limit, or no significant change.
        case pass
        /// An error-level limit breached, or a confirmed regression at error level: the gate fails.
        case fail
        /// A warn-level limit breached, or a regression at warn level.
        case warn
        /// Significantly better than the baseline.
        case improvement
        /// Past the tolerance, but the interval crosses it: more runs would tell.
        case inconclusive
        /// Not evaluated (say why in `note`).
        case skipped
    }

    /// Stable identifier: `budget:energy.total_j`, `findings:NET-PERIODIC`,
    /// `regression:energy.total_j`, `new:NET-PERIODIC:api.example.com`.
    public var id: String
    public var kind: Kind
    /// The metric, the findings budget key, or the finding key.
    public var subject: String
    public var status: Status
    /// What was expected, for people: `≤ 12 J`, `no regression beyond 10 % or 0.5 J`.
    public var expected: String
    /// What was found: `13.4 J (median of 13.1, 13.4, 14.0)`.
    public var found: String
    /// The unit of the values (`J`, `B`, `count`…), empty for finding keys.
    public var unit: String
    /// The aggregate compared, in `unit`.
    public var value: Double?
    /// Each candidate run's value, in run order.
    public var runs: [Double]
    /// For regressions: the baseline's aggregate, its runs, Δ, the tolerance, the 95 %
    /// interval of Δ and the Mann-Whitney p-value.
    public var regression: RegressionDetail?
    /// Energy at stake, joules: how far over an energy budget, an energy regression's Δ, the
    /// energy of the findings counted. Ranks annotations.
    public var energyImpactJ: Double
    /// Why a check was skipped, what limits its statistics, how to tighten a baseline.
    public var note: String?

    enum CodingKeys: String, CodingKey {
        case energyImpactJ = "energy_impact_j"
        case expected, found, id, kind, note, regression, runs, status, subject, unit, value
    }
}

/// The statistics of one regression check.
public struct RegressionDetail: Codable, Sendable, Equatable {
    /// The baseline's median.
    public var baseline: Double
    public var baselineRuns: [Double]
    /// The candidate's median.
    public var candidate: Double
    /// candidate − baseline.
    public var delta: Double
    /// `delta` over the baseline, or `nil` for a zero baseline.
    public var deltaShare: Double?
    /// max(absolute floor, relative × |baseline|).
    public var tolerance: Double
    /// The 95 % bootstrap interval of the median difference; `nil` with one run on a side.
    public var intervalLow: Double?
    public var intervalHigh: Double?
    /// The two-sided Mann-Whitney U p-value; `nil` with one run on a side.
    public var pValue: Double?

    enum CodingKeys: String, CodingKey {
        case baseline
        case baselineRuns = "baseline_runs"
        case candidate, delta
        case deltaShare = "delta_share"
        case intervalHigh = "interval_high"
        case intervalLow = "interval_low"
        case pValue = "p_value"
        case tolerance
    }
}
