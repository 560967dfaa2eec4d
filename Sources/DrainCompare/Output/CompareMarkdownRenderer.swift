import DrainRender

/// A comparison as Markdown for a pull-request comment: the runs, a summary table, the
/// largest changes of endpoints, files and threads, and the findings that are new or
/// resolved. Every string from the reports is escaped. Deterministic.
public struct CompareMarkdownRenderer: Sendable {
    /// How many changed endpoints, files and threads are listed.
    public static let changeLimit = 10

    public init() {}

    public func render(_ comparison: Comparison) -> String {
        let runs = comparison.runs
        var lines = ["## Drain comparison", ""]
        for (index, run) in runs.enumerated() {
            let role = index == comparison.reference ? " (reference)" : ""
            lines.append(
                "- **\(Markdown.escape(run.label))**\(role): model `\(Markdown.escape(run.model))`, "
                    + "\(DisplayNumber.duration(run.activeDurationS)), \(run.inputs.map { "`\(Markdown.escape($0))`" }.joined(separator: ", "))")
        }
        for note in comparison.notes { lines.append("- ⚠️ \(Markdown.escape(note))") }
        lines.append("")
        lines += table(comparison.summary + comparison.categories, runs: runs, title: "Figure")
        let changes = (comparison.endpoints.map { ("endpoint", $0) } + comparison.files.map { ("file", $0) } + comparison.threads.map { ("thread", $0) })
            .filter { $0.1.status.contains { $0 != .reference && $0 != .unchanged && $0 != .unknown } }
            .sorted { magnitude($0.1) > magnitude($1.1) }
            .prefix(Self.changeLimit)
        if !changes.isEmpty {
            lines += ["", "### Largest changes", "", "| | key | " + runs.dropFirst().map { "Δ \(Markdown.escape($0.label))" }.joined(separator: " | ") + " |"]
            lines.append("|---|---|" + String(repeating: "---|", count: runs.count - 1))
            for (kind, row) in changes {
                let cells = row.changes.indices.dropFirst().map { index in
                    "\(row.status[index].rawValue): \(CompareNumber.change(row.changes[index], unit: "J"))"
                }
                lines.append("| \(kind) | \(Markdown.escape(row.key)) | " + cells.joined(separator: " | ") + " |")
            }
        }
        let notable = comparison.findings.filter { $0.status.contains { $0 == .new || $0 == .resolved || $0 == .worse || $0 == .better } }
        if !notable.isEmpty {
            lines += ["", "### Findings", "", "| finding | " + runs.dropFirst().map { Markdown.escape($0.label) }.joined(separator: " | ") + " |"]
            lines.append("|---|" + String(repeating: "---|", count: runs.count - 1))
            for row in notable {
                let cells = row.status.dropFirst().map(\.rawValue)
                lines.append("| \(Markdown.escape(row.key)) — \(Markdown.escape(row.title)) | " + cells.joined(separator: " | ") + " |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func table(_ rows: [MetricRow], runs: [ComparedRun], title: String) -> [String] {
        var lines = ["| \(title) | " + runs.map { Markdown.escape($0.label) }.joined(separator: " | ") + " | " + runs.dropFirst().map { "Δ \(Markdown.escape($0.label))" }.joined(separator: " | ") + " |"]
        lines.append("|---|" + String(repeating: "---:|", count: runs.count * 2 - 1))
        for row in rows {
            let values = row.values.map { CompareNumber.optional($0, unit: row.unit) }
            let changes = row.changes.dropFirst().map { CompareNumber.change($0, unit: row.unit) }
            lines.append("| \(Markdown.escape(row.name)) | " + (values + changes).map { Markdown.escape($0) }.joined(separator: " | ") + " |")
        }
        return lines
    }

    private func magnitude(_ row: KeyRow) -> Double {
        row.changes.compactMap { $0.map { abs($0.delta) } }.max() ?? 0
    }
}
