import DrainGate

/// A metric over commits: the runs of each commit, in the order the commits were first
/// recorded, with their median (`drain history trend`).
public struct TrendSeries: Sendable, Equatable, Codable {
    /// One commit's runs.
    public struct Commit: Sendable, Equatable, Codable {
        /// The commit id, or `nil` for runs recorded outside git.
        public var commit: String?
        /// When its first run was recorded.
        public var firstRecordedAt: String
        public var runs: [TrendPoint]
        public var median: Double

        enum CodingKeys: String, CodingKey {
            case commit
            case firstRecordedAt = "first_recorded_at"
            case median, runs
        }
    }

    public var metric: String
    /// The metric's unit as stored (`J`, `B`, `count`…), empty when unknown.
    public var unit: String
    public var scenario: String
    public var branch: String?
    public var commits: [Commit]

    /// Groups `points` (oldest first) by commit. O(n).
    public init(metric: String, unit: String?, scenario: String, branch: String?, points: [TrendPoint]) {
        self.metric = metric
        self.unit = unit ?? ""
        self.scenario = scenario
        self.branch = branch
        var order: [String?] = []
        var byCommit: [String?: [TrendPoint]] = [:]
        for point in points {
            if byCommit[point.commit] == nil { order.append(point.commit) }
            byCommit[point.commit, default: []].append(point)
        }
        commits = order.map { commit in
            let runs = byCommit[commit]!
            return Commit(commit: commit, firstRecordedAt: runs[0].recordedAt, runs: runs, median: RunAggregate.median.of(runs.map(\.value)))
        }
    }

    /// `value` for people, in the metric's unit.
    public func format(_ value: Double) -> String {
        MetricCatalog.definition(metric)?.unit.format(value) ?? "\(value) \(unit)"
    }

    enum CodingKeys: String, CodingKey {
        case branch, commits, metric, scenario, unit
    }
}
