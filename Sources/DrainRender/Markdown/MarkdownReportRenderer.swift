import DrainReport
import DrainTrace

/// Renders a report as GitHub-flavoured Markdown, for pull-request comments and CI step
/// summaries: summary, energy by category, findings with evidence and fix, and the rules.
public struct MarkdownReportRenderer: Sendable {
    public init() {}

    /// The report as Markdown. Every report string is escaped (`Markdown.escape`), so a
    /// hostile host or path cannot break a table, start a link or inject HTML.
    /// Deterministic; O(size of the report).
    public static func render(_ report: Report) -> String {
        var text = "# Drain report: \(Markdown.escape(report.model.title))\n\n"
        text += "Model \(Markdown.escape(report.model.name)) · \(report.spanText) · "
        text += "\(Markdown.escape(report.generator))\n\n"
        text += inputs(report)
        text += summary(report)
        text += timeGaps(report)
        text += categories(report)
        text += metricKit(report)
        text += findings(report)
        text += rules(report)
        return text
    }

    static func table(_ header: [String], alignRight: Set<Int> = [], _ rows: [[String]]) -> String {
        var text = "| " + header.joined(separator: " | ") + " |\n|"
        for index in header.indices { text += alignRight.contains(index) ? "---:|" : "---|" }
        text += "\n"
        for row in rows { text += "| " + row.joined(separator: " | ") + " |\n" }
        return text + "\n"
    }

    /// The MetricKit aggregates, when the report has any.
    static func metricKit(_ report: Report) -> String {
        guard let aggregates = report.metrickit else { return "" }
        let rows = MetricKitRow.rows(aggregates).map { [Markdown.escape($0.label), Markdown.escape($0.displayValue)] }
        return "## MetricKit aggregates\n\n" + table(["Metric", "Value"], alignRight: [1], rows)
    }

    /// The run's time gaps and backward jumps, when it has any.
    static func timeGaps(_ report: Report) -> String {
        let sentences = report.timeGapSentences()
        guard !sentences.isEmpty else { return "" }
        return "## Time gaps\n\n" + sentences.map { "- " + Markdown.escape($0) + "\n" }.joined() + "\n"
    }

    static func inputs(_ report: Report) -> String {
        let rows = report.inputs.map { input in
            [
                Markdown.escape(input.path), Markdown.escape(input.format), HTMLReportRenderer.readCount(input),
                String(input.diagnostics.count),
            ]
        }
        return table(["Input", "Format", "Read", "Diagnostics"], alignRight: [3], rows)
    }

    static func summary(_ report: Report) -> String {
        let energy = report.energy
        var rows: [[String]] = [
            ["Total energy", "\(DisplayNumber.joules(energy.totalJ)) (\(Formatting.fixed(energy.mwh, digits: 3)) mWh)"],
            ["Average power", DisplayNumber.milliwatts(energy.averageMw)],
            ["Battery drain", DisplayNumber.percent(energy.batteryPctPerHour, digits: 2) + "/h"],
            ["Energy score", report.scores.energy.map { DisplayNumber.score($0) + "/100" } ?? "n/a (not priced)"],
            ["Guidance score", report.scores.guidance.map { DisplayNumber.score($0) + "/100" } ?? "n/a"],
        ]
        let memory = report.memory
        if let peak = memory.peakBytes {
            var value = "\(DisplayNumber.bytes(peak)) of \(DisplayNumber.bytes(memory.limitBytes))"
            if let share = memory.peakShareOfLimit { value += " (\(DisplayNumber.share(share)))" }
            rows.append(["Peak memory", value])
        } else {
            rows.append(["Peak memory", "n/a (no samples)"])
        }
        if let assumed = report.assumedLink {
            rows.append(["Network link", "\(DisplayNumber.bytes(Double(assumed.bytes))) " + assumed.statement])
        }
        let counts = Severity.allCases.reversed().map(report.findingCountLabel)
        rows.append(["Findings", counts.joined(separator: ", ")])
        for area in report.areaNames {
            guard let score = report.scores.areas[area] else { continue }
            rows.append(["Guidance: \(Markdown.escape(area))", DisplayNumber.score(score) + "/100"])
        }
        return "## Summary\n\n" + table(["Metric", "Value"], alignRight: [1], rows)
    }

    static func categories(_ report: Report) -> String {
        let total = report.energy.totalJ
        let rows = report.categoryEnergy.map { category in
            [Markdown.escape(category.name), DisplayNumber.joules(category.joules), DisplayNumber.share(total > 0 ? category.joules / total : 0)]
        }
        return "## Energy by category\n\n" + table(["Category", "Energy", "Share"], alignRight: [1, 2], rows)
    }

    static func findings(_ report: Report) -> String {
        var text = "## Findings\n\n"
        guard !report.findings.isEmpty else { return text + "No findings: the run follows every rule that had data to judge.\n\n" }
        for (index, finding) in report.findingsBySeverity.enumerated() {
            text += "### \(index + 1). \(finding.severity.rawValue.uppercased()) · \(Markdown.escape(finding.rule)): "
            text += "\(Markdown.escape(finding.title))\n\n"
            text += "- **What:** \(Markdown.escape(finding.message))\n"
            if let energy = finding.energyJ { text += "- **Energy:** \(DisplayNumber.joules(energy))\n" }
            if !finding.timeRanges.isEmpty {
                text += "- **When:** " + finding.timeRanges.map(DisplayNumber.range).joined(separator: ", ") + "\n"
            }
            text += "- **Fix:** \(Markdown.escape(finding.fix))\n"
            text += "- **Guidance:** \(Markdown.escape(finding.guidance)) (\(Markdown.escape(finding.source)))\n\n"
            if !finding.evidence.isEmpty {
                let rows = finding.evidence.map { [Markdown.escape($0.name), Markdown.escape(DisplayNumber.evidence($0))] }
                text += table(["Evidence", "Value"], rows)
            }
        }
        return text
    }

    static func rules(_ report: Report) -> String {
        let rows = report.rules.map { rule in
            [
                Markdown.escape(rule.id), rule.area.rawValue, Markdown.escape(rule.title), rule.status.rawValue.replacingUnderscores(),
                Markdown.escape(rule.reason ?? ""),
            ]
        }
        return "## Rules\n\n" + table(["Rule", "Area", "Title", "Status", "Note"], rows)
    }
}
