import DrainReport
import DrainTrace

/// How a gate judges.
public struct GateOptions: Sendable {
    public var scenario: String?
    /// Fail on an inconclusive regression too (`--fail-on inconclusive`).
    public var failOnInconclusive: Bool
    /// Written into the verdict.
    public var generator: String
    /// The machine the candidate runs were made on, compared with the baseline's.
    public var host: HostInfo?

    public init(scenario: String? = nil, failOnInconclusive: Bool = false, generator: String, host: HostInfo? = nil) {
        self.scenario = scenario
        self.failOnInconclusive = failOnInconclusive
        self.generator = generator
        self.host = host
    }
}

/// The CI gate: candidate runs against a budget and against a baseline (`docs/gate.md`).
public enum Gate {
    /// A finding key is new when it is in more than this share of the candidate runs…
    public static let newInCandidate = 0.5
    /// …and in at most this share of the baseline runs (and resolved the other way round).
    public static let rareInBaseline = 0.25
    /// The fewest runs per side with which a Mann-Whitney test can reach p < 0.05 (with 3 runs
    /// each its smallest two-sided p is 0.1).
    public static let runsForSignificance = 4

    /// Judges `runs` (repeated runs of one scenario, at least one) against `budget` (already
    /// resolved for the scenario, or not) and `baseline`. Deterministic: the bootstrap is
    /// seeded by each metric's name. O(checks × bootstrap resamples × runs log runs).
    public static func evaluate(_ runs: [Report], budget: Budget?, baseline: Baseline?, options: GateOptions) -> GateVerdict {
        precondition(!runs.isEmpty, "a gate needs at least one run")
        let budget = budget?.resolved(for: options.scenario)
        var checks: [GateCheck] = []
        var warnings: [String] = []
        for limit in budget?.metrics ?? [] where limit.level != .off {
            checks.append(budgetCheck(limit, runs))
        }
        let newKeys = baseline.map { newFindingKeys(runs, against: $0) }
        for limit in budget?.findings ?? [] where limit.level != .off {
            checks.append(findingsCheck(limit, runs, newKeys: newKeys))
        }
        if let baseline {
            let policy = budget?.regression ?? RegressionPolicy()
            if policy.level != .off {
                for metric in regressionMetrics(budget, policy) {
                    checks.append(regressionCheck(metric, runs, baseline, policy))
                }
            }
            checks += findingKeyChecks(runs, baseline)
            warnings += baselineWarnings(runs: runs.count, baseline: baseline, host: options.host)
        }
        checks.sort(by: Self.precedes)
        let failed = checks.contains { $0.status == .fail || (options.failOnInconclusive && $0.status == .inconclusive) }
        return GateVerdict(
            gateVersion: GateVerdict.currentVersion, generator: options.generator, scenario: options.scenario,
            model: runs[0].model.name, runs: runs.count, baselineRuns: baseline?.runs.count, baselineGit: baseline?.git,
            baselineHost: baseline?.host, warnings: warnings, checks: checks, outcome: failed ? .fail : .pass,
            exitCode: failed ? 1 : 0)
    }

    // MARK: Budgets

    static func budgetCheck(_ limit: MetricBudget, _ runs: [Report]) -> GateCheck {
        let metric = limit.metric
        let values = runs.compactMap { MetricCatalog.value(metric, in: $0) }
        let expected = Self.expected(limit)
        guard !values.isEmpty else {
            return GateCheck(
                id: "budget:\(metric.name)", kind: .budget, subject: metric.name, status: breach(limit.level), expected: expected,
                found: "not measured in any of the \(runs.count) run\(runs.count == 1 ? "" : "s")", unit: metric.unit.rawValue,
                value: nil, runs: [], regression: nil, energyImpactJ: 0,
                note: "a budget on a metric no run has cannot pass; remove it or record what it measures")
        }
        let value = limit.aggregate.of(values)
        let over = limit.max.map { value - $0 } ?? -Double.infinity
        let under = limit.min.map { $0 - value } ?? -Double.infinity
        let breached = over > 0 || under > 0
        return GateCheck(
            id: "budget:\(metric.name)", kind: .budget, subject: metric.name, status: breached ? breach(limit.level) : .pass,
            expected: expected, found: found(value, values, metric.unit, limit.aggregate), unit: metric.unit.rawValue, value: value,
            runs: values, regression: nil,
            energyImpactJ: breached ? energyImpact(max(over, under), metric, runs) : 0,
            note: values.count < runs.count ? "measured in \(values.count) of \(runs.count) runs" : nil)
    }

    static func expected(_ limit: MetricBudget) -> String {
        let unit = limit.metric.unit
        return switch (limit.min, limit.max) {
        case let (min?, max?): "between \(unit.format(min)) and \(unit.format(max))"
        case let (nil, max?): "≤ \(unit.format(max))"
        case let (min?, nil): "≥ \(unit.format(min))"
        case (nil, nil): "any"
        }
    }

    // MARK: Findings

    static func findingsCheck(_ limit: FindingBudget, _ runs: [Report], newKeys: Set<String>?) -> GateCheck {
        let id = "findings:\(limit.key.name)"
        let expected = "≤ \(limit.max) finding\(limit.max == 1 ? "" : "s")"
        if limit.key == .new, newKeys == nil {
            return GateCheck(
                id: id, kind: .findings, subject: limit.key.name, status: .skipped, expected: expected,
                found: "no baseline to compare with", unit: "count", value: nil, runs: [], regression: nil, energyImpactJ: 0,
                note: "new findings are counted against a baseline: pass --baseline")
        }
        func counted(_ finding: Finding) -> Bool {
            switch limit.key {
            case let .rule(rule): finding.rule == rule && finding.severity >= .warning
            case let .severity(severity): finding.severity == severity
            case .new: newKeys?.contains(finding.key) ?? false
            }
        }
        let perRun = runs.map { $0.findings.filter(counted) }
        let counts = perRun.map { Double($0.count) }
        let value = limit.aggregate.of(counts)
        let breached = value > Double(limit.max)
        let energies = perRun.map { $0.reduce(0) { $0 + ($1.energyJ ?? 0) } }
        let keys = Array(Set(perRun.flatMap { $0.map(\.key) })).sorted()
        return GateCheck(
            id: id, kind: .findings, subject: limit.key.name, status: breached ? breach(limit.level) : .pass, expected: expected,
            found: found(value, counts, .count, limit.aggregate), unit: "count", value: value, runs: counts, regression: nil,
            energyImpactJ: breached ? RunAggregate.median.of(energies) : 0,
            note: keys.isEmpty ? nil : "keys: " + keys.prefix(5).joined(separator: ", ") + (keys.count > 5 ? ", …" : ""))
    }

    /// Keys in more than half the candidate runs and at most a quarter of the baseline's.
    static func newFindingKeys(_ runs: [Report], against baseline: Baseline) -> Set<String> {
        Set(keyShares(runs).filter { $0.value > newInCandidate && baseline.share(of: $0.key) <= rareInBaseline }.keys)
    }

    static func keyShares(_ runs: [Report]) -> [String: Double] {
        var counts: [String: Int] = [:]
        for run in runs { for key in Set(run.findings.map(\.key)) { counts[key, default: 0] += 1 } }
        return counts.mapValues { Double($0) / Double(runs.count) }
    }

    /// A check per new finding key (a warning: a `new` findings budget makes it fail) and per
    /// resolved one.
    static func findingKeyChecks(_ runs: [Report], _ baseline: Baseline) -> [GateCheck] {
        let shares = keyShares(runs)
        var checks: [GateCheck] = []
        for key in shares.keys.sorted() where shares[key]! > newInCandidate && baseline.share(of: key) <= rareInBaseline {
            let energies = runs.map { $0.findings.filter { $0.key == key }.reduce(0) { $0 + ($1.energyJ ?? 0) } }
            checks.append(
                GateCheck(
                    id: "new:\(key)", kind: .newFinding, subject: key, status: .warn, expected: "not in the baseline",
                    found: "in \(count(shares[key]!, runs.count)) of \(runs.count) runs, \(count(baseline.share(of: key), baseline.runs.count)) of \(baseline.runs.count) baseline runs",
                    unit: "", value: nil, runs: [], regression: nil, energyImpactJ: RunAggregate.median.of(energies), note: nil))
        }
        for finding in baseline.findings where finding.share > newInCandidate && (shares[finding.key] ?? 0) <= rareInBaseline {
            checks.append(
                GateCheck(
                    id: "resolved:\(finding.key)", kind: .resolvedFinding, subject: finding.key, status: .improvement,
                    expected: "in the baseline",
                    found: "in \(count(shares[finding.key] ?? 0, runs.count)) of \(runs.count) runs, \(finding.runs) of \(baseline.runs.count) baseline runs",
                    unit: "", value: nil, runs: [], regression: nil, energyImpactJ: 0, note: nil))
        }
        return checks
    }

    private static func count(_ share: Double, _ total: Int) -> Int { Int((share * Double(total)).rounded()) }

    // MARK: Regressions

    /// `energy.total_j`, every metric with a budget, and the policy's own, each once.
    static func regressionMetrics(_ budget: Budget?, _ policy: RegressionPolicy) -> [MetricDefinition] {
        var names = ["energy.total_j"]
        for name in (budget?.metrics.map(\.metric.name) ?? []) + policy.absolute.keys.sorted() + policy.metrics where !names.contains(name) {
            names.append(name)
        }
        return names.compactMap(MetricCatalog.definition)
    }

    static func regressionCheck(_ metric: MetricDefinition, _ runs: [Report], _ baseline: Baseline, _ policy: RegressionPolicy) -> GateCheck {
        let candidate = runs.compactMap { MetricCatalog.value(metric, in: $0) }
        let base = baseline.values(metric)
        let id = "regression:\(metric.name)"
        guard !candidate.isEmpty, !base.isEmpty else {
            return GateCheck(
                id: id, kind: .regression, subject: metric.name, status: .skipped, expected: "no regression",
                found: candidate.isEmpty ? "not measured in the runs" : "not measured in the baseline", unit: metric.unit.rawValue,
                value: nil, runs: candidate, regression: nil, energyImpactJ: 0, note: nil)
        }
        let baseMedian = RunAggregate.median.of(base)
        let candidateMedian = RunAggregate.median.of(candidate)
        let delta = candidateMedian - baseMedian
        let tolerance = policy.tolerance(metric, baseline: baseMedian)
        let sign = metric.higherIsWorse ? 1.0 : -1.0
        let worse = sign * delta
        var detail = RegressionDetail(
            baseline: baseMedian, baselineRuns: base, candidate: candidateMedian, delta: delta,
            deltaShare: baseMedian != 0 ? delta / abs(baseMedian) : nil, tolerance: tolerance, intervalLow: nil, intervalHigh: nil,
            pValue: nil)
        let verdict: Verdict
        var note: String?
        if base.count == 1 || candidate.count == 1 {
            verdict = worse > tolerance ? .regression : (worse < -tolerance ? .improvement : .unchanged)
            note = "no noise estimate (one run on a side): thresholds only"
        } else {
            let interval = Bootstrap.differenceInterval(baseline: base, candidate: candidate, seed: SplitMix64.seed(metric.name))
            detail.intervalLow = interval.low
            detail.intervalHigh = interval.high
            detail.pValue = MannWhitney.pValue(base, candidate)
            let low = sign > 0 ? interval.low : -interval.high
            let high = sign > 0 ? interval.high : -interval.low
            if low > tolerance {
                verdict = .regression
            } else if high < -tolerance {
                verdict = .improvement
            } else if abs(worse) > tolerance {
                verdict = .inconclusive
            } else {
                verdict = .unchanged
            }
            if min(base.count, candidate.count) < runsForSignificance {
                note = "with \(min(base.count, candidate.count)) run\(min(base.count, candidate.count) == 1 ? "" : "s") on a side a difference cannot reach significance (p < 0.05 needs \(runsForSignificance) runs per side)"
            }
        }
        let status: GateCheck.Status =
            switch verdict {
            case .regression: breach(policy.level)
            case .improvement: .improvement
            case .inconclusive: .inconclusive
            case .unchanged: .pass
            }
        if verdict == .improvement {
            note = [note, "improved beyond the tolerance: save a new baseline (--save-baseline) to tighten it"].compactMap { $0 }
                .joined(separator: "; ")
        }
        let unit = metric.unit
        let relative = policy.relative * 100
        return GateCheck(
            id: id, kind: .regression, subject: metric.name, status: status,
            expected: "no \(metric.higherIsWorse ? "increase" : "decrease") beyond \(unit.format(tolerance)) (max of \(MetricUnit.decimal(relative, significant: 3)) % of the baseline and \(unit.format(policy.absolute[metric.name] ?? metric.absoluteFloor)))",
            found: regressionText(detail, unit), unit: unit.rawValue, value: candidateMedian, runs: candidate, regression: detail,
            energyImpactJ: verdict == .regression ? energyImpact(worse, metric, runs) : 0, note: note)
    }

    enum Verdict {
        case regression, improvement, inconclusive, unchanged
    }

    /// `12.3 J → 13.9 J, Δ +1.6 J (+13 %), 95 % interval [+1.2 J, +2 J], p = 0.008`.
    static func regressionText(_ detail: RegressionDetail, _ unit: MetricUnit) -> String {
        func signed(_ value: Double) -> String { (value > 0 ? "+" : "") + unit.format(value) }
        var text = "\(unit.format(detail.baseline)) → \(unit.format(detail.candidate)), Δ \(signed(detail.delta))"
        if let share = detail.deltaShare { text += " (\(share > 0 ? "+" : "")\(MetricUnit.decimal(share * 100, significant: 3)) %)" }
        if let low = detail.intervalLow, let high = detail.intervalHigh {
            text += ", 95 % interval [\(signed(low)), \(signed(high))]"
        }
        if let p = detail.pValue { text += ", p = \(MetricUnit.decimal(p, significant: 2))" }
        return text
    }

    // MARK: Shared

    static func baselineWarnings(runs: Int, baseline: Baseline, host: HostInfo?) -> [String] {
        var warnings: [String] = []
        if let host, let baselineHost = baseline.host, baselineHost != host {
            warnings.append(
                "the baseline was made on another machine (\(baselineHost.cpu), \(baselineHost.cores) cores) than these runs (\(host.cpu), \(host.cores) cores): energy measured by a recorder or probe depends on the CPU")
        }
        let fewest = min(runs, baseline.runs.count)
        if fewest == 1 {
            warnings.append("one run on a side gives no noise estimate: regressions are judged by thresholds only")
        } else if fewest < runsForSignificance {
            warnings.append(
                "\(runs) run\(runs == 1 ? "" : "s") against \(baseline.runs.count) baseline run\(baseline.runs.count == 1 ? "" : "s"): significance needs at least \(runsForSignificance) runs per side")
        }
        return warnings
    }

    static func breach(_ level: BudgetLevel) -> GateCheck.Status {
        level == .error ? .fail : .warn
    }

    /// `13.4 J (median of runs 13.1 J, 13.4 J, 14 J)`, or the value alone for one run.
    static func found(_ value: Double, _ values: [Double], _ unit: MetricUnit, _ aggregate: RunAggregate) -> String {
        guard values.count > 1 else { return unit.format(value) }
        let listed = values.prefix(10).map(unit.format).joined(separator: ", ") + (values.count > 10 ? ", …" : "")
        return "\(unit.format(value)) (\(aggregate.rawValue) of runs \(listed))"
    }

    /// Joules at stake in `excess` of `metric`: itself for energy; power over the runs'
    /// median active duration; nothing for other units.
    static func energyImpact(_ excess: Double, _ metric: MetricDefinition, _ runs: [Report]) -> Double {
        switch metric.unit {
        case .joules: max(0, excess)
        case .milliwatts: max(0, excess) / 1_000 * RunAggregate.median.of(runs.map(\.activeDurationS))
        default: 0
        }
    }

    /// Failures first, then warnings, inconclusive results, improvements, passes and skips;
    /// within a status, the most energy at stake first, then by id.
    static func precedes(_ lhs: GateCheck, _ rhs: GateCheck) -> Bool {
        let order: [GateCheck.Status] = [.fail, .warn, .inconclusive, .improvement, .pass, .skipped]
        let left = order.firstIndex(of: lhs.status)!, right = order.firstIndex(of: rhs.status)!
        if left != right { return left < right }
        if lhs.energyImpactJ != rhs.energyImpactJ { return lhs.energyImpactJ > rhs.energyImpactJ }
        return lhs.id < rhs.id
    }
}
