import DrainGate
import DrainPipeline
import SQLKit

/// What identifies the runs a baseline may be taken from: one project, scenario, model and
/// branch.
public struct BaselineKey: Sendable, Equatable {
    public var project: String
    public var scenario: String
    public var model: String
    public var branch: String

    public init(project: String, scenario: String, model: String, branch: String) {
        self.project = project
        self.scenario = scenario
        self.model = model
        self.branch = branch
    }
}

extension RunStore {
    /// How many runs of `key` each of `commits` has (commits without runs are left out).
    /// Uses the `runs_by_baseline` index: O(commits · log runs).
    public func runCounts(_ key: BaselineKey, commits: [String]) async throws(StoreError) -> [String: Int] {
        guard schemaVersion > 0, !commits.isEmpty else { return [:] }
        return try await perform("cannot look for baseline runs") { [self] in
            var counts: [String: Int] = [:]
            for chunk in commits.chunked(500) {
                let rows = try await database.raw(
                    """
                    SELECT commit_sha, COUNT(*) AS runs FROM runs WHERE project = \(bind: key.project) \
                    AND scenario = \(bind: key.scenario) AND model = \(bind: key.model) AND branch = \(bind: key.branch) \
                    AND commit_sha IN (\(binds: Array(chunk))) GROUP BY commit_sha
                    """
                ).rows()
                for row in rows {
                    counts[try row.decode(column: "commit_sha", as: String.self)] = try row.decode(column: "runs", as: Int.self)
                }
            }
            return counts
        }
    }

    /// The runs of `key` at `commit` as a gate baseline: each run's metric rows and finding
    /// keys, read without inflating any report.
    public func baseline(_ key: BaselineKey, commit: String) async throws(StoreError) -> Baseline {
        try await perform("cannot read the baseline runs") { [self] in
            let runs = try await database.raw(
                """
                SELECT id, host_cpu, host_cores FROM runs WHERE project = \(bind: key.project) AND scenario = \(bind: key.scenario) \
                AND model = \(bind: key.model) AND branch = \(bind: key.branch) AND commit_sha = \(bind: commit) ORDER BY id
                """
            ).rows()
            let ids = try runs.map { try $0.decode(column: "id", as: Int.self) }
            var metrics: [Int: [String: Double]] = [:]
            var findings: [Int: [String]] = [:]
            for chunk in ids.chunked(500) {
                for row in try await database.raw(
                    "SELECT run_id, metric, value FROM run_metrics WHERE run_id IN (\(binds: Array(chunk)))"
                ).rows() {
                    metrics[try row.decode(column: "run_id", as: Int.self), default: [:]][try row.decode(column: "metric", as: String.self)] =
                        try row.decode(column: "value", as: Double.self)
                }
                for row in try await database.raw(
                    "SELECT run_id, finding_key FROM run_findings WHERE run_id IN (\(binds: Array(chunk)))"
                ).rows() {
                    findings[try row.decode(column: "run_id", as: Int.self), default: []].append(
                        try row.decode(column: "finding_key", as: String.self))
                }
            }
            let host = try runs.first.flatMap { row -> HostInfo? in
                guard let cpu = try row.decode(column: "host_cpu", as: String?.self) else { return nil }
                return HostInfo(cpu: cpu, cores: try row.decode(column: "host_cores", as: Int?.self) ?? 0)
            }
            return Baseline(
                generator: Analysis.generator, model: key.model, scenario: key.scenario,
                git: GitRevision(commit: commit, branch: key.branch), host: host,
                runs: ids.map { id in
                    BaselineRun(metrics: metrics[id] ?? [:], findings: (findings[id] ?? []).sorted(), source: "store:\(id)")
                })
        }
    }
}
