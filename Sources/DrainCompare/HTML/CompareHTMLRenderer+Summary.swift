import DrainRender

extension CompareHTMLRenderer {
    /// A card per run-level figure: the reference's value, then each run's with its Δ chip,
    /// and per active hour too when the runs differ in length.
    static func summarySection(_ comparison: Comparison) -> String {
        let perHour = lengthsDiffer(comparison)
        var html = "<section id=\"summary\">\n<h2>Summary</h2>\n"
        if perHour { html += "<p class=\"meta\">The runs differ in length: additive figures are also shown per active hour.</p>\n" }
        html += "<div class=\"cards\">\n"
        for (index, row) in comparison.summary.enumerated() {
            html += card(row, index: index, comparison: comparison, perHour: perHour)
        }
        return html + "</div>\n</section>\n"
    }

    static func card(_ row: MetricRow, index: Int, comparison: Comparison, perHour: Bool) -> String {
        let reference = comparison.reference
        var html = "<div class=\"card\" data-metric=\"\(index)\">"
        html += "<div class=\"label\">\(HTML.escape(row.name))</div>"
        html += "<div class=\"value\">\(cardValue(row, run: reference, perHour: perHour))</div>"
        html += "<div class=\"sub\">\(HTML.escape(comparison.runs[reference].label)) (reference)</div>"
        html += "<ul class=\"card-runs\">"
        for run in candidates(comparison) {
            html += "<li data-run=\"\(run)\">\(HTMLReportRenderer.swatch(runColor(run)))"
            html += "<span class=\"run-name\">\(HTML.escape(comparison.runs[run].label))</span> "
            html += "<span class=\"run-value\">\(cardValue(row, run: run, perHour: perHour))</span> "
            if let change = row.changes[safe: run] ?? nil {
                html += chip(change, unit: row.unit)
                if perHour, let delta = change.deltaPerHour {
                    let base = row.perHour[safe: reference] ?? nil
                    let pct = base.flatMap { $0 != 0 ? delta / $0 * 100 : nil }
                    html += " " + chip(delta, pct: pct, unit: row.unit, perHour: true)
                }
            }
            html += "</li>"
        }
        return html + "</ul></div>\n"
    }

    /// A run's value, and its per-hour value beside it when shown; `—` where it has none.
    static func cardValue(_ row: MetricRow, run: Int, perHour: Bool) -> String {
        guard let value = row.values[safe: run] ?? nil else { return "—" }
        var html = HTML.escape(display(value, unit: row.unit))
        if perHour, let perHourValue = row.perHour[safe: run] ?? nil { html += " <small>\(HTML.escape(hourly(perHourValue, unit: row.unit)))</small>" }
        return html
    }
}

extension Array {
    /// The element at `index`, or `nil` past the end (a row shorter than the run list).
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
