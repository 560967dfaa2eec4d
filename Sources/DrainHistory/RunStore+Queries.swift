import DrainGate
import DrainReport
import Foundation
import SQLKit

extension RunStore {
    /// The newest runs that match `filter`, newest first, at most `limit`. Uses the
    /// `recorded_at` index; O(limit) rows read.
    public func list(_ filter: RunFilter, limit: Int) async throws(StoreError) -> [StoredRunSummary] {
        guard schemaVersion > 0 else { return [] }
        return try await perform("cannot list runs") { [self] in
            try await database.raw(
                """
                SELECT \(unsafeRaw: Self.summaryColumns) FROM runs \(Self.whereClause(filter)) \
                ORDER BY recorded_at DESC, id DESC LIMIT \(bind: max(0, limit))
                """
            ).rows().map(Self.summary)
        }
    }

    /// Everything stored of run `id` but its report.
    ///
    /// - Throws: `StoreError.noSuchRun` when there is no run `id`.
    public func run(_ id: Int) async throws(StoreError) -> StoredRun {
        let store = location.description
        guard schemaVersion > 0 else { throw .noSuchRun(store: store, reference: String(id)) }
        return try await perform("cannot read run \(id)") { [self] in
            guard
                let row = try await database.raw(
                    """
                    SELECT \(unsafeRaw: Self.summaryColumns), parents, run_start, duration_s, host_cpu, host_cores, generator, \
                    report_schema_version, report_size, report_sha256 FROM runs WHERE id = \(bind: id)
                    """
                ).firstRow()
            else { throw StoreError.noSuchRun(store: store, reference: String(id)) }
            let metrics = try await database.raw(
                "SELECT metric, value, unit FROM run_metrics WHERE run_id = \(bind: id) ORDER BY metric"
            ).rows().map { row in
                StoredMetric(
                    name: try row.decode(column: "metric", as: String.self), value: try row.decode(column: "value", as: Double.self),
                    unit: try row.decode(column: "unit", as: String.self))
            }
            let findings = try await database.raw(
                """
                SELECT finding_key, rule, severity, energy_j, occurrences FROM run_findings WHERE run_id = \(bind: id) \
                ORDER BY finding_key
                """
            ).rows().map(Self.finding)
            let cpu = try row.decode(column: "host_cpu", as: String?.self)
            let cores = try row.decode(column: "host_cores", as: Int?.self)
            return StoredRun(
                summary: try Self.summary(row),
                parents: try row.decode(column: "parents", as: String.self).split(separator: " ").map(String.init),
                runStart: try row.decode(column: "run_start", as: String?.self),
                durationS: try row.decode(column: "duration_s", as: Double.self),
                host: cpu.map { HostInfo(cpu: $0, cores: cores ?? 0) },
                generator: try row.decode(column: "generator", as: String.self),
                reportSchemaVersion: try row.decode(column: "report_schema_version", as: Int.self),
                reportBytes: try row.decode(column: "report_size", as: Int.self),
                reportSHA256: try row.decode(column: "report_sha256", as: String.self), metrics: metrics, findings: findings)
        }
    }

    /// The report JSON of run `id`, byte for byte as it was stored (what `drain analyze
    /// --json` writes for it).
    public func reportJSON(_ id: Int) async throws(StoreError) -> [UInt8] {
        let store = location.description
        guard schemaVersion > 0 else { throw .noSuchRun(store: store, reference: String(id)) }
        return try await perform("cannot read the report of run \(id)") { [self] in
            guard let row = try await database.raw("SELECT report_size, report_deflated FROM runs WHERE id = \(bind: id)").firstRow() else {
                throw StoreError.noSuchRun(store: store, reference: String(id))
            }
            let size = try row.decode(column: "report_size", as: Int.self)
            let deflated = try row.decode(column: "report_deflated", as: Data.self)
            guard let bytes = ReportDeflate.inflate(Array(deflated), size: size) else {
                throw StoreError.damaged(store: store, reason: "the stored report of run \(id) is damaged (it does not inflate to \(size) bytes)")
            }
            return bytes
        }
    }

    /// The report of run `id`, loaded as `Report.load` loads a file.
    public func report(_ id: Int) async throws(StoreError) -> Report {
        let bytes = try await reportJSON(id)
        do {
            return try Report.decode(Data(bytes), path: "store:\(id)")
        } catch {
            throw .damaged(store: location.description, reason: error.description)
        }
    }

    /// The run a `store:` reference names: a run id, or `BRANCH@COMMIT` (a commit id or a
    /// prefix of at least 4 hex digits): the newest run of that branch at that commit, of
    /// `scenario` when given.
    ///
    /// - Throws: `StoreError.noSuchRun`; `.usage` for a malformed reference or one that
    ///   matches runs of several scenarios when none was given.
    public func resolve(_ reference: String, scenario: String? = nil) async throws(StoreError) -> Int {
        let store = location.description
        if let id = Int(reference), id > 0 {
            guard schemaVersion > 0 else { throw .noSuchRun(store: store, reference: reference) }
            let exists = try await perform("cannot look up run \(id)") { [self] in
                try await database.raw("SELECT id FROM runs WHERE id = \(bind: id)").firstRow() != nil
            }
            guard exists else { throw .noSuchRun(store: store, reference: reference) }
            return id
        }
        guard let at = reference.lastIndex(of: "@"), at != reference.startIndex else {
            throw .usage("store:\(reference) is neither a run id nor BRANCH@COMMIT")
        }
        let branch = String(reference[..<at])
        let commit = reference[reference.index(after: at)...].lowercased()
        guard commit.count >= 4, commit.count <= 64, commit.allSatisfy(\.isHexDigit) else {
            throw .usage("store:\(reference): '\(commit)' is not a commit id (4 to 64 hex digits)")
        }
        guard schemaVersion > 0 else { throw .noSuchRun(store: store, reference: reference) }
        let rows = try await perform("cannot look up \(reference)") { [self] in
            try await database.raw(
                """
                SELECT id, scenario FROM runs \(Self.whereClause(
                    RunFilter(scenario: scenario, branch: branch), and: ["commit_sha LIKE \(bind: commit + "%")"])) \
                ORDER BY recorded_at DESC, id DESC LIMIT 1000
                """
            ).rows().map { (try $0.decode(column: "id", as: Int.self), try $0.decode(column: "scenario", as: String.self)) }
        }
        guard let newest = rows.first else { throw .noSuchRun(store: store, reference: reference) }
        let scenarios = Set(rows.map(\.1))
        guard scenarios.count == 1 else {
            throw .usage(
                "store:\(reference) has runs of several scenarios (\(scenarios.sorted().joined(separator: ", "))): give --scenario NAME")
        }
        return newest.0
    }

    /// The columns of `StoredRunSummary`, the headline metrics read by sub-queries.
    static let summaryColumns = """
        id, project, scenario, branch, commit_sha, recorded_at, model, \
        (SELECT value FROM run_metrics WHERE run_id = runs.id AND metric = 'energy.total_j') AS energy_j, \
        (SELECT value FROM run_metrics WHERE run_id = runs.id AND metric = 'memory.peak_bytes') AS peak_memory_bytes
        """

    static func summary(_ row: any SQLRow) throws -> StoredRunSummary {
        StoredRunSummary(
            id: try row.decode(column: "id", as: Int.self), project: try row.decode(column: "project", as: String.self),
            scenario: try row.decode(column: "scenario", as: String.self), branch: try row.decode(column: "branch", as: String.self).nonEmpty,
            commit: try row.decode(column: "commit_sha", as: String.self).nonEmpty, recordedAt: try row.decode(column: "recorded_at", as: String.self),
            model: try row.decode(column: "model", as: String.self), energyJ: try row.decode(column: "energy_j", as: Double?.self),
            peakMemoryBytes: try row.decode(column: "peak_memory_bytes", as: Double?.self))
    }

    static func finding(_ row: any SQLRow) throws -> StoredFinding {
        let severity = try row.decode(column: "severity", as: String.self)
        return StoredFinding(
            key: try row.decode(column: "finding_key", as: String.self), rule: try row.decode(column: "rule", as: String.self),
            severity: Severity(rawValue: severity) ?? .info, energyJ: try row.decode(column: "energy_j", as: Double?.self),
            occurrences: try row.decode(column: "occurrences", as: Int.self))
    }

    /// `WHERE …` for `filter` and `more` conditions, every value bound; empty when there are none.
    static func whereClause(_ filter: RunFilter, and more: [SQLQueryString] = []) -> SQLQueryString {
        var conditions = more
        if let project = filter.project { conditions.append("project = \(bind: project)") }
        if let scenario = filter.scenario { conditions.append("scenario = \(bind: scenario)") }
        if let branch = filter.branch { conditions.append("branch = \(bind: branch)") }
        if let since = filter.since { conditions.append("recorded_at >= \(bind: since)") }
        if let before = filter.before { conditions.append("recorded_at < \(bind: before)") }
        guard !conditions.isEmpty else { return "" }
        return "WHERE \(conditions.joined(separator: " AND "))"
    }
}

extension String {
    /// `nil` for the empty string: how the store's NOT NULL name columns say "unknown".
    var nonEmpty: String? { isEmpty ? nil : self }
}
