import Crypto
import DrainGate
import DrainRender
import DrainReport
import Foundation
import SQLKit

/// The result of recording one run.
public struct RecordedRun: Sendable, Equatable {
    /// The run's id in the store.
    public var id: Int
    /// `false` when the same report of the same project, scenario, branch and commit was
    /// stored before (a retried CI job): nothing was written and `id` is the earlier run's.
    public var isNew: Bool
}

extension RunStore {
    /// Stores `report` as one run of `scenario`, in one transaction: the run's row, a row per
    /// metric (`MetricCatalog.values`), a row per finding key, and the report JSON deflated.
    /// The same report recorded twice for one project, scenario, branch and commit is stored
    /// once.
    ///
    /// - Throws: `StoreError.unavailable` when the store fails or refuses (nothing of the run
    ///   is then stored).
    public func record(_ report: Report, scenario: String, provenance: RunProvenance) async throws(StoreError) -> RecordedRun {
        let row = try StoredRunRow(report: report, scenario: scenario, provenance: provenance, store: location.description)
        return try await perform("cannot record the run") { [self] in
            try await transaction {
                let inserted = try await database.raw(
                    """
                    INSERT INTO runs (project, scenario, branch, commit_sha, parents, recorded_at, run_start, duration_s, \
                    host_cpu, host_cores, model, generator, report_schema_version, report_sha256, report_size, report_deflated, \
                    metric_count, finding_count) VALUES (\(bind: row.project), \(bind: row.scenario), \(bind: row.branch), \
                    \(bind: row.commit), \(bind: row.parents), \(bind: row.recordedAt), \(bind: row.runStart), \(bind: row.durationS), \
                    \(bind: row.hostCPU), \(bind: row.hostCores), \(bind: row.model), \(bind: row.generator), \
                    \(bind: row.reportSchemaVersion), \(bind: row.reportSHA256), \(bind: row.reportSize), \(bind: row.reportDeflated), \
                    \(bind: row.metrics.count), \(bind: row.findings.count)) \
                    ON CONFLICT (project, scenario, branch, commit_sha, report_sha256) DO NOTHING RETURNING id
                    """
                ).firstRow()
                guard let inserted else {
                    let existing = try await database.raw(
                        """
                        SELECT id FROM runs WHERE project = \(bind: row.project) AND scenario = \(bind: row.scenario) \
                        AND branch = \(bind: row.branch) AND commit_sha = \(bind: row.commit) AND report_sha256 = \(bind: row.reportSHA256)
                        """
                    ).firstRow()
                    return RecordedRun(id: try existing?.decode(column: "id", as: Int.self) ?? 0, isNew: false)
                }
                let id = try inserted.decode(column: "id", as: Int.self)
                for chunk in row.metrics.chunked(200) {
                    let values = chunk.map { metric -> SQLQueryString in
                        "(\(bind: id), \(bind: metric.name), \(bind: metric.value), \(bind: metric.unit))"
                    }
                    try await database.raw("INSERT INTO run_metrics (run_id, metric, value, unit) VALUES \(values.joined(separator: ", "))")
                        .run()
                }
                for chunk in row.findings.chunked(200) {
                    let values = chunk.map { finding -> SQLQueryString in
                        """
                        (\(bind: id), \(bind: finding.key), \(bind: finding.rule), \(bind: finding.severity.rawValue), \
                        \(bind: finding.energyJ), \(bind: finding.occurrences))
                        """
                    }
                    try await database.raw(
                        """
                        INSERT INTO run_findings (run_id, finding_key, rule, severity, energy_j, occurrences) \
                        VALUES \(values.joined(separator: ", "))
                        """
                    ).run()
                }
                return RecordedRun(id: id, isNew: true)
            }
        }
    }
}

/// One run as the `runs`, `run_metrics` and `run_findings` tables hold it.
struct StoredRunRow {
    var project: String
    var scenario: String
    /// Empty when unknown (outside git): the columns are NOT NULL so that the uniqueness of
    /// a run holds outside git too.
    var branch: String
    var commit: String
    /// Space-separated commit ids.
    var parents: String
    var recordedAt: String
    var runStart: String?
    var durationS: Double
    var hostCPU: String?
    var hostCores: Int?
    var model: String
    var generator: String
    var reportSchemaVersion: Int
    var reportSHA256: String
    var reportSize: Int
    var reportDeflated: Data
    var metrics: [(name: String, value: Double, unit: String)]
    var findings: [StoredFinding]

    init(report: Report, scenario: String, provenance: RunProvenance, store: String) throws(StoreError) {
        // Neither engine keeps a NUL in text (SQLite cuts it there, PostgreSQL refuses); no
        // git name or command-line word can hold one.
        let names = [("project", provenance.project), ("scenario", scenario), ("branch", provenance.branch ?? ""), ("commit", provenance.commit ?? "")]
        if let (what, _) = names.first(where: { $0.1.unicodeScalars.contains("\u{0}") }) {
            throw .usage("the run's \(what) name contains a NUL character, which a store cannot keep")
        }
        let json: String
        do {
            json = try ReportJSON.document(report)
        } catch {
            throw .damaged(store: store, reason: "the report cannot be encoded: \(error)")
        }
        let bytes = Array(json.utf8)
        project = provenance.project
        self.scenario = scenario
        branch = provenance.branch ?? ""
        commit = provenance.commit ?? ""
        parents = provenance.parents.joined(separator: " ")
        recordedAt = StoredTime.format(provenance.recordedAt)
        runStart = report.start
        durationS = report.durationS
        hostCPU = provenance.host?.cpu
        hostCores = provenance.host?.cores
        model = report.model.name
        generator = provenance.generator
        reportSchemaVersion = report.schemaVersion
        reportSHA256 = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        reportSize = bytes.count
        reportDeflated = Data(ReportDeflate.deflate(bytes))
        metrics = MetricCatalog.values(in: report).sorted { $0.key < $1.key }.map { name, value in
            (name, value, report.metrics[name]?.unit ?? MetricCatalog.definition(name)?.unit.rawValue ?? "")
        }
        findings = StoredFinding.tally(report.findings)
    }
}

/// A finding key of one run: the rule, the worst severity and the summed energy of the
/// findings that share the key, and how many there were.
public struct StoredFinding: Sendable, Equatable, Codable {
    public var key: String
    public var rule: String
    public var severity: Severity
    public var energyJ: Double?
    public var occurrences: Int

    static func tally(_ findings: [Finding]) -> [StoredFinding] {
        var byKey: [String: StoredFinding] = [:]
        for finding in findings {
            var entry = byKey[finding.key] ?? StoredFinding(key: finding.key, rule: finding.rule, severity: finding.severity, energyJ: nil, occurrences: 0)
            entry.severity = max(entry.severity, finding.severity)
            if let energy = finding.energyJ { entry.energyJ = (entry.energyJ ?? 0) + energy }
            entry.occurrences += 1
            byKey[finding.key] = entry
        }
        return byKey.values.sorted { $0.key < $1.key }
    }

    enum CodingKeys: String, CodingKey {
        case energyJ = "energy_j"
        case key, occurrences, rule, severity
    }
}

extension Array {
    /// Consecutive slices of at most `size` elements: multi-row inserts stay far below the
    /// engines' limits on bound parameters per statement.
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
