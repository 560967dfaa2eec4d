import DrainGate
import DrainRender

/// The run history for a terminal: runs as a table, one run's details, a trend by commit.
/// Every stored string (project, scenario, branch, host) is sanitised: it came from whoever
/// recorded the run.
public enum HistoryTerminalRenderer {
    /// One line per run, newest first, under a header; `no runs` when empty.
    public static func list(_ runs: [StoredRunSummary]) -> String {
        guard !runs.isEmpty else { return "no runs\n" }
        let header = ["ID", "RECORDED (UTC)", "PROJECT", "SCENARIO", "BRANCH", "COMMIT", "MODEL", "ENERGY", "PEAK MEMORY"]
        let rows = runs.map { run in
            [
                String(run.id), String(run.recordedAt.prefix(16)).replacingOccurrences(of: "T", with: " "), text(run.project),
                text(run.scenario), text(run.branch ?? "-"), String((run.commit ?? "-").prefix(12)), text(run.model),
                run.energyJ.map(MetricUnit.joules.format) ?? "-", run.peakMemoryBytes.map(MetricUnit.bytes.format) ?? "-",
            ]
        }
        return table([header] + rows, rightAligned: [0, 7, 8])
    }

    /// A run's provenance, metrics and finding keys.
    public static func show(_ run: StoredRun) -> String {
        let summary = run.summary
        var lines = [
            "run \(summary.id): \(text(summary.project)) · \(text(summary.scenario))",
            "  recorded   \(summary.recordedAt)",
            "  branch     \(text(summary.branch ?? "-"))",
            "  commit     \(summary.commit ?? "-")" + (run.parents.isEmpty ? "" : " (parents \(run.parents.map { String($0.prefix(12)) }.joined(separator: ", ")))"),
            "  model      \(text(summary.model))",
            "  host       " + (run.host.map { "\(text($0.cpu)), \($0.cores) cores" } ?? "-"),
            "  generator  \(text(run.generator))",
            "  run        " + (run.runStart.map { "started \(text($0)), " } ?? "") + MetricUnit.seconds.format(run.durationS),
            "  report     schema \(run.reportSchemaVersion), \(MetricUnit.bytes.format(Double(run.reportBytes))), sha256 \(run.reportSHA256.prefix(16))…",
            "",
            "metrics",
        ]
        lines += table(
            run.metrics.map { [text($0.name), MetricCatalog.definition($0.name)?.unit.format($0.value) ?? "\($0.value) \(text($0.unit))"] },
            rightAligned: [1]
        ).split(separator: "\n").map { "  " + $0 }
        lines.append("")
        lines.append(run.findings.isEmpty ? "no findings" : "findings")
        lines += table(
            run.findings.map {
                [$0.severity.rawValue, text($0.key), $0.energyJ.map(MetricUnit.joules.format) ?? "", $0.occurrences > 1 ? "×\($0.occurrences)" : ""]
            }, rightAligned: [2]
        ).split(separator: "\n").map { "  " + $0 }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line per commit: first recorded, runs, median, min and max.
    public static func trend(_ series: TrendSeries) -> String {
        let title = "\(text(series.metric)) · \(text(series.scenario))" + (series.branch.map { " · \(text($0))" } ?? "")
        guard !series.commits.isEmpty else { return title + ": no runs\n" }
        let header = ["COMMIT", "FIRST RUN (UTC)", "RUNS", "MEDIAN", "MIN", "MAX"]
        let rows = series.commits.map { commit in
            let values = commit.runs.map(\.value)
            return [
                String((commit.commit ?? "-").prefix(12)), String(commit.firstRecordedAt.prefix(16)).replacingOccurrences(of: "T", with: " "),
                String(commit.runs.count), series.format(commit.median), series.format(values.min()!), series.format(values.max()!),
            ]
        }
        return title + "\n" + table([header] + rows, rightAligned: [2, 3, 4, 5])
    }

    private static func text(_ value: String) -> String { TerminalText.sanitize(value) }

    /// Columns padded to their widest cell (in characters).
    private static func table(_ rows: [[String]], rightAligned: Set<Int>) -> String {
        guard let columns = rows.map(\.count).max() else { return "" }
        var widths = [Int](repeating: 0, count: columns)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        return rows.map { row in
            row.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                return rightAligned.contains(index) ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingTrailingSpaces
        }.joined(separator: "\n") + "\n"
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
