import DrainRender

extension CompareHTMLRenderer {
    /// The columns of a compared table: the name, the reference's value, then a value and a
    /// Diff column per compared run (one pair per run, so 3+ runs read across).
    static func columns(_ name: String, comparison: Comparison) -> [HTMLTable.Column] {
        let others = candidates(comparison)
        var columns = [HTMLTable.Column(name), HTMLTable.Column(comparison.runs[comparison.reference].label + " (reference)", numeric: true)]
        for run in others {
            columns.append(HTMLTable.Column(comparison.runs[run].label, numeric: true))
            columns.append(HTMLTable.Column(others.count == 1 ? "Diff" : "Diff " + comparison.runs[run].label, numeric: true))
        }
        return columns
    }

    /// A section holding a sortable table, rows already ordered by their largest |Δ|.
    static func tableSection(id: String, title: String, table: HTMLTable?, empty: String) -> String {
        var html = "<section id=\"\(id)\">\n<h2>\(HTML.escape(title))</h2>\n"
        if let table {
            html += "<div class=\"scroll\" data-table=\"\(id)\">\(table.render())</div>\n"
        } else {
            html += "<p class=\"meta\">\(HTML.escape(empty))</p>\n"
        }
        return html + "</section>\n"
    }

    /// `rows` by their largest |Δ|, largest first; ties keep their order.
    static func byLargestChange<Row>(_ rows: [Row], changes: (Row) -> [Change?]) -> [Row] {
        rows.enumerated().sorted { left, right in
            let (a, b) = (largestChange(changes(left.element)), largestChange(changes(right.element)))
            return a != b ? a > b : left.offset < right.offset
        }.map(\.element)
    }

    static func metricTableSection(id: String, title: String, rows: [MetricRow], comparison: Comparison) -> String {
        let ordered = byLargestChange(rows, changes: \.changes)
        let table = ordered.isEmpty ? nil : HTMLTable(
            columns: columns("Category", comparison: comparison),
            rows: ordered.map { metricCells($0, comparison: comparison) }, sortable: true, cssClass: "compare")
        return tableSection(id: id, title: title, table: table, empty: "No energy in any run.")
    }

    static func metricCells(_ row: MetricRow, comparison: Comparison) -> [HTMLTable.Cell] {
        var cells: [HTMLTable.Cell] = [.text(row.name), valueCell(row.values[safe: comparison.reference] ?? nil, unit: row.unit)]
        for run in candidates(comparison) {
            cells.append(valueCell(row.values[safe: run] ?? nil, unit: row.unit))
            if let change = row.changes[safe: run] ?? nil {
                cells.append(.markup(chip(change, unit: row.unit), sortText: MachineNumber.compact(change.delta)))
            } else {
                cells.append(.markup(missing, sortText: "0"))
            }
        }
        return cells
    }

    static func keyTableSection(id: String, title: String, rows: [KeyRow], comparison: Comparison) -> String {
        let ordered = byLargestChange(rows, changes: \.changes)
        let name = id == "endpoints" ? "Endpoint" : (id == "files" ? "File" : "Thread")
        let table = ordered.isEmpty ? nil : HTMLTable(
            columns: columns(name, comparison: comparison),
            rows: ordered.map { keyCells($0, comparison: comparison) }, sortable: true, cssClass: "compare")
        return tableSection(id: id, title: title, table: table, empty: "None in any run.")
    }

    static func keyCells(_ row: KeyRow, comparison: Comparison) -> [HTMLTable.Cell] {
        var cells: [HTMLTable.Cell] = [.code(row.key), presenceCell(row, run: comparison.reference)]
        for run in candidates(comparison) {
            cells.append(presenceCell(row, run: run))
            cells.append(statusCell(row, run: run))
        }
        return cells
    }

    /// `—` for a run without a value.
    static let missing = "<span class=\"muted\">—</span>"

    static func valueCell(_ value: Double?, unit: String) -> HTMLTable.Cell {
        guard let value else { return .markup(missing, sortText: "0") }
        return .number(display(value, unit: unit), sortValue: value)
    }

    /// A key's energy in one run, or why it has none: absent (the run's list is complete) or
    /// not listed (the list was cut, so the key may be below its last row).
    static func presenceCell(_ row: KeyRow, run: Int) -> HTMLTable.Cell {
        switch row.presence[safe: run] ?? .absent {
        case .listed: valueCell(row.values[safe: run] ?? nil, unit: "J")
        case .absent: .markup("<span class=\"presence absent\">absent</span>", sortText: "0")
        case .notListed: .markup("<span class=\"presence not-listed\">not listed</span>", sortText: "0")
        }
    }

    /// The change of a key in one run: added and removed are marked (and exceed every
    /// threshold), an unknown change says so.
    static func statusCell(_ row: KeyRow, run: Int) -> HTMLTable.Cell {
        let status = row.status[safe: run] ?? .unknown
        let change = row.changes[safe: run] ?? nil
        let sortText = MachineNumber.compact(change?.delta ?? 0)
        let changeChip = change.map { chip($0, unit: "J") } ?? ""
        switch status {
        case .added, .removed:
            let badge = "<span class=\"badge \(status.rawValue)\" data-always=\"true\">\(status.rawValue)</span>"
            return .markup(badge + (changeChip.isEmpty ? "" : " " + changeChip), sortText: sortText)
        case .changed:
            return .markup(changeChip, sortText: sortText)
        case .unchanged, .reference:
            return .markup(HTMLReportRenderer.badge("unchanged"), sortText: sortText)
        case .unknown:
            return .markup("<span class=\"badge unknown\">not comparable</span>", sortText: sortText)
        }
    }
}
