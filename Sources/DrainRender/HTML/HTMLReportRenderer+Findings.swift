import DrainReport
import DrainTrace

extension HTMLReportRenderer {
    /// At most this many time-range buttons per finding; the rest are counted.
    static let shownTimeRanges = 12

    static func findingsSection(_ report: Report) -> String {
        var html = "<section id=\"findings\">\n<h2>Findings <span class=\"count\">\(report.findings.count)</span></h2>\n"
        if report.findings.isEmpty {
            html += "<p class=\"panel\">No findings: the run follows every rule that had data to judge.</p>\n"
        }
        for (index, finding) in report.findingsBySeverity.enumerated() {
            html += article(finding, number: index + 1)
        }
        return html + "</section>\n"
    }

    private static func article(_ finding: Finding, number: Int) -> String {
        let severity = finding.severity.rawValue
        var html = "<article class=\"finding \(severity)\" id=\"finding-\(number)\">\n<div class=\"finding-head\">"
        html += badge(severity)
        html += " <code class=\"rule-id\">\(HTML.escape(finding.rule))</code>"
        html += " <span class=\"meta\">\(HTML.escape(finding.area.rawValue))</span>"
        if let energy = finding.energyJ {
            html += " <span class=\"energy\">\(HTML.escape(DisplayNumber.joules(energy)))</span>"
        }
        html += "</div>\n<h3>\(HTML.escape(finding.title))</h3>\n<p>\(HTML.escape(finding.message))</p>\n"
        if !finding.timeRanges.isEmpty {
            html += "<div class=\"ranges\"><span class=\"meta\">When:</span> "
            for range in finding.timeRanges.prefix(shownTimeRanges) {
                html += "<button type=\"button\" class=\"range\" data-start=\"\(MachineNumber.seconds(range.startS))\" "
                html += "data-end=\"\(MachineNumber.seconds(range.endS))\" title=\"Show on the timeline\">"
                html += "\(HTML.escape(DisplayNumber.range(range)))</button> "
            }
            let hidden = finding.timeRanges.count - shownTimeRanges
            if hidden > 0 { html += "<span class=\"meta\">and \(hidden) more</span>" }
            html += "</div>\n"
        }
        if !finding.evidence.isEmpty {
            var table = HTMLTable(columns: [HTMLTable.Column("Evidence"), HTMLTable.Column("Value")], cssClass: "evidence")
            for item in finding.evidence {
                table.rows.append([.text(item.name), item.value == nil ? .code(item.text ?? "") : .text(DisplayNumber.evidence(item))])
            }
            html += table.render()
        }
        html += "<p class=\"fix\"><strong>Fix:</strong> \(HTML.escape(finding.fix))</p>\n"
        html += "<p class=\"guidance\">\(HTML.escape(finding.guidance)) <cite>\(HTML.escape(finding.source))</cite></p>\n"
        return html + "</article>\n"
    }
}
