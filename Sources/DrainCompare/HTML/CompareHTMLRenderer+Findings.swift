import DrainRender

extension CompareHTMLRenderer {
    /// How a finding's statuses are ordered: new, worse, resolved, better, then the rest.
    static func rank(_ status: FindingRow.Status) -> Int {
        switch status {
        case .new: 0
        case .worse: 1
        case .resolved: 2
        case .better: 3
        case .unchanged: 4
        case .absent, .reference: 5
        }
    }

    /// A finding's rank: its most notable status in any compared run.
    static func rank(_ row: FindingRow, comparison: Comparison) -> Int {
        candidates(comparison).map { rank(row.status[safe: $0] ?? .absent) }.min() ?? 5
    }

    /// The findings that changed, new → worse → resolved → better, and the unchanged ones
    /// collapsed below them.
    static func findingsSection(_ comparison: Comparison) -> String {
        let ranked = comparison.findings.enumerated().map { (rank: rank($0.element, comparison: comparison), offset: $0.offset, row: $0.element) }
            .sorted { $0.rank != $1.rank ? $0.rank < $1.rank : $0.offset < $1.offset }
        let changed = ranked.filter { $0.rank <= rank(.better) }.map(\.row)
        let unchanged = ranked.filter { $0.rank > rank(.better) }.map(\.row)
        var html = "<section id=\"findings\">\n<h2>Findings</h2>\n"
        if changed.isEmpty {
            html += "<p class=\"meta\">No finding is new, worse, resolved or better.</p>\n"
        } else {
            html += "<div class=\"scroll\" data-table=\"findings\">\(findingsTable(changed, comparison: comparison).render())</div>\n"
        }
        if !unchanged.isEmpty {
            html += "<details id=\"findings-unchanged\"><summary>\(unchanged.count) unchanged finding\(unchanged.count == 1 ? "" : "s")</summary>\n"
            html += "<div class=\"scroll\" data-table=\"findings-unchanged\">\(findingsTable(unchanged, comparison: comparison).render())</div>\n"
            html += "</details>\n"
        }
        return html + "</section>\n"
    }

    static func findingsTable(_ rows: [FindingRow], comparison: Comparison) -> HTMLTable {
        var columns = [HTMLTable.Column("Finding")]
        columns += comparison.runs.enumerated().map { index, run in
            HTMLTable.Column(index == comparison.reference ? run.label + " (reference)" : run.label)
        }
        let cells = rows.map { row in
            var cells: [HTMLTable.Cell] = [.markup(findingName(row), sortText: row.key)]
            cells += comparison.runs.indices.map { .markup(findingCell(row, run: $0, isReference: $0 == comparison.reference), sortText: "") }
            return cells
        }
        return HTMLTable(columns: columns, rows: cells, cssClass: "compare findings")
    }

    static func findingName(_ row: FindingRow) -> String {
        "<strong>\(HTML.escape(row.title))</strong><br><code class=\"rule-id\">\(HTML.escape(row.rule))</code> "
            + "<code class=\"finding-key\" title=\"\(HTML.escape(row.key))\">\(HTML.escape(row.key))</code>"
    }

    /// A finding in one run: its status against the reference, its severity and energy.
    static func findingCell(_ row: FindingRow, run: Int, isReference: Bool) -> String {
        var parts: [String] = []
        let status = row.status[safe: run] ?? .absent
        if !isReference, status != .absent { parts.append("<span class=\"badge \(status.rawValue)\" data-status=\"\(status.rawValue)\">\(status.rawValue)</span>") }
        if let severity = row.severity[safe: run] ?? nil { parts.append(HTMLReportRenderer.badge(severity)) }
        if let energy = row.energyJ[safe: run] ?? nil { parts.append("<span class=\"num\">\(DisplayNumber.joules(energy))</span>") }
        return parts.isEmpty ? missing : parts.joined(separator: " ")
    }
}
