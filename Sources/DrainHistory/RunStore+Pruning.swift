import SQLKit

extension RunStore {
    /// Deletes the runs that match `filter` (its `before` included) and, with `keep`, are
    /// not among the newest `keep` runs of their project, scenario and branch. Returns the
    /// ids deleted (or that would be, with `dryRun`), oldest first. One transaction; the
    /// metric and finding rows go with their runs.
    public func prune(_ filter: RunFilter, keep: Int?, dryRun: Bool) async throws(StoreError) -> [Int] {
        guard schemaVersion > 0 else { return [] }
        return try await perform("cannot prune") { [self] in
            let rows = try await database.raw(
                """
                SELECT id, project, scenario, branch FROM runs \(Self.whereClause(RunFilter(project: filter.project, scenario: filter.scenario, branch: filter.branch))) \
                ORDER BY recorded_at DESC, id DESC
                """
            ).rows()
            let candidates = try await database.raw(
                "SELECT id FROM runs \(Self.whereClause(filter))"
            ).rows().map { try $0.decode(column: "id", as: Int.self) }
            var deletable = Set(candidates)
            if let keep {
                var seen: [String: Int] = [:]
                for row in rows {
                    let group = [
                        try row.decode(column: "project", as: String.self), try row.decode(column: "scenario", as: String.self),
                        try row.decode(column: "branch", as: String.self),
                    ].joined(separator: "\u{0}")
                    seen[group, default: 0] += 1
                    if seen[group]! <= keep { deletable.remove(try row.decode(column: "id", as: Int.self)) }
                }
            }
            let ids = deletable.sorted()
            guard !dryRun, !ids.isEmpty else { return ids }
            try await transaction {
                for chunk in ids.chunked(500) {
                    try await database.raw("DELETE FROM run_findings WHERE run_id IN (\(binds: Array(chunk)))").run()
                    try await database.raw("DELETE FROM run_metrics WHERE run_id IN (\(binds: Array(chunk)))").run()
                    try await database.raw("DELETE FROM runs WHERE id IN (\(binds: Array(chunk)))").run()
                }
            }
            return ids
        }
    }
}
