import DrainReport
import Foundation

/// A budget file (`drain-budget.yml`, `docs/gate.md`): limits on metrics and findings, the
/// regression policy, the pinned model, and overrides per scenario.
public struct Budget: Sendable, Equatable {
    /// The model every run and baseline must be priced with, when the file pins one.
    public var model: String?
    /// Limits by metric name, in file order.
    public var metrics: [MetricBudget]
    /// Findings limits, in file order.
    public var findings: [FindingBudget]
    public var regression: RegressionPolicy
    /// Overrides for scenarios whose name matches `pattern`, applied in order: the last match
    /// wins.
    public var scenarios: [ScenarioOverride]

    public init(
        model: String? = nil, metrics: [MetricBudget] = [], findings: [FindingBudget] = [],
        regression: RegressionPolicy = RegressionPolicy(), scenarios: [ScenarioOverride] = []
    ) {
        self.model = model
        self.metrics = metrics
        self.findings = findings
        self.regression = regression
        self.scenarios = scenarios
    }

    /// The budget for `scenario`: the file's limits with every matching override applied in
    /// order (an override's limit replaces the limit on the same metric or key, its
    /// regression settings replace those it names). Without a scenario name, no override
    /// applies.
    public func resolved(for scenario: String?) -> Budget {
        var result = Budget(model: model, metrics: metrics, findings: findings, regression: regression)
        guard let scenario else { return result }
        for override in scenarios where override.matches(scenario) {
            for limit in override.metrics {
                if let index = result.metrics.firstIndex(where: { $0.metric.name == limit.metric.name }) {
                    result.metrics[index] = limit
                } else {
                    result.metrics.append(limit)
                }
            }
            for limit in override.findings {
                if let index = result.findings.firstIndex(where: { $0.key == limit.key }) {
                    result.findings[index] = limit
                } else {
                    result.findings.append(limit)
                }
            }
            if let relative = override.regression.relative { result.regression.relative = relative }
            if let level = override.regression.level { result.regression.level = level }
            result.regression.absolute.merge(override.regression.absolute) { $1 }
            for metric in override.regression.metrics where !result.regression.metrics.contains(metric) {
                result.regression.metrics.append(metric)
            }
        }
        return result
    }
}

/// Limits that apply to the scenarios whose name matches a shell pattern (`sync-*`).
public struct ScenarioOverride: Sendable, Equatable {
    public var pattern: String
    public var metrics: [MetricBudget]
    public var findings: [FindingBudget]
    public var regression: RegressionOverride

    /// Regression settings an override changes; `nil` keeps the file's.
    public struct RegressionOverride: Sendable, Equatable {
        public var relative: Double?
        public var absolute: [String: Double]
        public var metrics: [String]
        public var level: BudgetLevel?
    }

    /// Whether `scenario` matches the pattern (`*`, `?` and `[…]` as in the shell).
    public func matches(_ scenario: String) -> Bool {
        fnmatch(pattern, scenario, 0) == 0
    }
}
