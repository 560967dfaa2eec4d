import DrainRender
import Foundation

/// The trend as CSV: one record per run, with its commit's median.
public enum TrendCSVRenderer {
    public static func render(_ series: TrendSeries) -> String {
        var table = CSVTable(name: "trend", header: ["run", "commit", "branch", "recorded_at", "metric", "value", "unit", "commit_median"])
        for commit in series.commits {
            for run in commit.runs {
                table.append([
                    .integer(run.runID), .text(run.commit), .text(run.branch), .text(run.recordedAt), .text(series.metric),
                    .number(number(run.value)), .text(series.unit), .number(number(commit.median)),
                ])
            }
        }
        return table.csv
    }

    /// Shortest round-tripping decimal: what the store holds, exactly.
    static func number(_ value: Double) -> String { value.isFinite ? "\(value)" : "" }
}

/// The trend as an offline HTML page (`docs/history.md#trend`): a chart of the metric over
/// commits, each run a point and the commits' medians a line, hovering or focusing a point
/// showing its commit, date, run and value; the same figures as a table below. Every
/// stored string is escaped; the page loads nothing (the report page's Content-Security-Policy).
public enum TrendHTMLRenderer {
    public static func render(_ series: TrendSeries) throws(ReportRenderError) -> String {
        let title = "\(series.metric) · \(series.scenario)" + (series.branch.map { " · \($0)" } ?? "")
        var body = """
            <header class="top"><div class="wrap"><div class="brand">Drain · run history</div>
            <h1>\(HTML.escape(series.metric))</h1>
            <p class="meta">Scenario <b>\(HTML.escape(series.scenario))</b>\(series.branch.map { " on <b>\(HTML.escape($0))</b>" } ?? "") · \
            \(series.commits.count) commit\(series.commits.count == 1 ? "" : "s") · \(series.commits.reduce(0) { $0 + $1.runs.count }) runs\
            \(series.unit.isEmpty ? "" : " · unit \(HTML.escape(series.unit))")</p></div></header>
            <main>
            <figure id="trend-chart" class="chart" aria-label="\(HTML.escape(series.metric)) over commits"></figure>
            <p class="meta">Each dot is one run; the line joins each commit's median. Hover or focus a dot for its commit and date.</p>
            <h2>By commit</h2>
            <table class="commits"><thead><tr><th>Commit</th><th>First run (UTC)</th><th class="num">Runs</th><th class="num">Median</th></tr></thead><tbody>

            """
        for commit in series.commits {
            body += """
                <tr><td><code>\(HTML.escape(String((commit.commit ?? "-").prefix(12))))</code></td><td>\(HTML.escape(commit.firstRecordedAt))</td>\
                <td class="num">\(commit.runs.count)</td><td class="num">\(HTML.escape(series.format(commit.median)))</td></tr>

                """
        }
        body += "</tbody></table>\n</main>\n"
        let data = PageData(
            metric: series.metric, unit: series.unit,
            commits: series.commits.map { commit in
                PageData.Commit(
                    commit: commit.commit ?? "", median: commit.median, medianLabel: series.format(commit.median),
                    runs: commit.runs.map { PageData.Run(run: $0.runID, recordedAt: $0.recordedAt, value: $0.value, label: series.format($0.value)) })
            })
        return HTMLPage.document(
            title: "Drain trend: \(title)", style: WebAssets.trendStyle, body: body, data: try ReportJSON.encode(data, pretty: false),
            script: WebAssets.trendScript)
    }

    /// What the page's script draws.
    struct PageData: Encodable {
        struct Run: Encodable {
            var run: Int
            var recordedAt: String
            var value: Double
            var label: String

            enum CodingKeys: String, CodingKey {
                case label
                case recordedAt = "recorded_at"
                case run, value
            }
        }

        struct Commit: Encodable {
            var commit: String
            var median: Double
            var medianLabel: String
            var runs: [Run]

            enum CodingKeys: String, CodingKey {
                case commit, median
                case medianLabel = "median_label"
                case runs
            }
        }

        var metric: String
        var unit: String
        var commits: [Commit]
    }
}
