import SQLKit

/// One run's value of a metric, as `drain history trend` plots it.
public struct TrendPoint: Sendable, Equatable, Codable {
    public var runID: Int
    public var commit: String?
    public var branch: String?
    public var recordedAt: String
    public var value: Double

    enum CodingKeys: String, CodingKey {
        case branch, commit
        case recordedAt = "recorded_at"
        case runID = "run"
        case value
    }
}

extension RunStore {
    /// The value of `metric` in every run matching `filter`, oldest first, with the
    /// metric's unit (`nil` when no run has it).
    public func trend(metric: String, filter: RunFilter) async throws(StoreError) -> (points: [TrendPoint], unit: String?) {
        guard schemaVersion > 0 else { return ([], nil) }
        return try await perform("cannot read the trend of \(metric)") { [self] in
            let rows = try await database.raw(
                """
                SELECT runs.id AS id, commit_sha, branch, recorded_at, value, unit FROM runs \
                JOIN run_metrics ON run_metrics.run_id = runs.id \
                \(Self.whereClause(filter, and: ["run_metrics.metric = \(bind: metric)"])) \
                ORDER BY recorded_at, runs.id
                """
            ).rows()
            let points = try rows.map { row in
                TrendPoint(
                    runID: try row.decode(column: "id", as: Int.self), commit: try row.decode(column: "commit_sha", as: String.self).nonEmpty,
                    branch: try row.decode(column: "branch", as: String.self).nonEmpty, recordedAt: try row.decode(column: "recorded_at", as: String.self),
                    value: try row.decode(column: "value", as: Double.self))
            }
            return (points, try rows.first?.decode(column: "unit", as: String.self))
        }
    }
}
