import DrainReport

/// A limit on one metric over a scenario's runs: `energy.total_j: {max: 12 J}`.
public struct MetricBudget: Sendable, Equatable {
    public var metric: MetricDefinition
    /// The largest allowed value, in the metric's unit.
    public var max: Double?
    /// The smallest allowed value (scores, say).
    public var min: Double?
    public var level: BudgetLevel
    /// How the runs' values become the figure compared: `median` by default, `max` for
    /// memory metrics (a peak that any run reaches is the peak).
    public var aggregate: RunAggregate

    /// The default aggregate of a metric: `max` for memory, else `median`.
    public static func defaultAggregate(_ metric: MetricDefinition) -> RunAggregate {
        metric.name.hasPrefix("memory.") ? .max : .median
    }
}

/// What a findings limit counts.
public enum FindingBudgetKey: Sendable, Equatable, Hashable {
    /// Findings of one rule at severity warning or error.
    case rule(String)
    /// Findings of one severity.
    case severity(Severity)
    /// Finding keys that are new against the baseline.
    case new

    /// The key as a budget file writes it.
    public var name: String {
        switch self {
        case let .rule(id): id
        case let .severity(severity): severity.rawValue
        case .new: "new"
        }
    }
}

/// A limit on a count of findings per run: `NET-PERIODIC: {max: 0}`.
public struct FindingBudget: Sendable, Equatable {
    public var key: FindingBudgetKey
    public var max: Int
    public var level: BudgetLevel
    /// How the runs' counts become the figure compared (`median` by default).
    public var aggregate: RunAggregate
}

/// How a change against the baseline becomes a regression.
public struct RegressionPolicy: Sendable, Equatable {
    /// The share of the baseline a metric may move by before it counts: 10 % by default.
    public var relative: Double
    /// Per-metric absolute floors, in the metric's unit, overriding the catalog's defaults.
    public var absolute: [String: Double]
    /// Metrics checked besides those with a budget and `energy.total_j`.
    public var metrics: [String]
    /// What a confirmed regression does.
    public var level: BudgetLevel

    public static let defaultRelative = 0.10

    public init(relative: Double = defaultRelative, absolute: [String: Double] = [:], metrics: [String] = [], level: BudgetLevel = .error) {
        self.relative = relative
        self.absolute = absolute
        self.metrics = metrics
        self.level = level
    }

    /// The tolerance for `metric` around `baseline`: max(absolute floor, relative × |baseline|).
    public func tolerance(_ metric: MetricDefinition, baseline: Double) -> Double {
        Swift.max(absolute[metric.name] ?? metric.absoluteFloor, relative * abs(baseline))
    }
}
