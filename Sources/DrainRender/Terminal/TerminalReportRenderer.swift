import DrainReport
import DrainTrace

/// Renders a compact report summary for a terminal: energy and score, a bar per category,
/// memory, guidance, and one line per finding with its fix.
public struct TerminalReportRenderer: Sendable {
    /// Whether ANSI colours are used.
    public var color: Bool
    /// The widest line, in columns.
    public var width: Int

    public init(color: Bool, width: Int = 100) {
        self.color = color
        self.width = width
    }

    /// Plain text, 100 columns.
    public init() {
        self.init(color: false)
    }

    /// The summary, at most `width` columns wide (at least 40 are used). ANSI colours appear
    /// only when `color` is true; report strings are always sanitised (`TerminalText.sanitize`),
    /// so they can never carry their own escape sequences. Deterministic; O(size of the report).
    public static func render(_ report: Report, color: Bool, width: Int = 100) -> String {
        let width = max(width, 40)
        var lines: [String] = []
        func line(_ plain: String, style: String? = nil) {
            let cut = TerminalText.truncate(plain, to: width)
            lines.append(style.map { TerminalText.style(cut, $0, enabled: color) } ?? cut)
        }
        let model = TerminalText.sanitize(report.model.title) + " (" + TerminalText.sanitize(report.model.name) + ")"
        line("Drain report: " + model, style: "1")
        let diagnostics = report.inputs.reduce(0) { $0 + $1.diagnostics.count }
        let occurrences = report.inputs.reduce(0) { $0 + $1.diagnosticOccurrences }
        line(
            "\(report.spanText) · \(report.inputs.count) input\(report.inputs.count == 1 ? "" : "s") · "
                + "\(diagnostics) import diagnostic\(diagnostics == 1 ? "" : "s") (\(occurrences) occurrence\(occurrences == 1 ? "" : "s"))",
            style: "2"
        )
        for sentence in report.timeGapSentences(limit: 3) { line("Gap       " + sentence) }
        lines.append("")
        let energy = report.energy
        line(
            "Energy    \(DisplayNumber.joules(energy.totalJ)) · \(DisplayNumber.milliwatts(energy.averageMw)) average · "
                + "\(DisplayNumber.percent(energy.batteryPctPerHour, digits: 2))/h battery · score \(report.scores.energy.map { DisplayNumber.score($0) + "/100" } ?? "n/a (not priced)")"
        )
        lines += categoryBars(report, color: color, width: width)
        line("Memory    " + memoryLine(report.memory))
        if let assumed = report.assumedLink {
            line("Network   \(DisplayNumber.bytes(Double(assumed.bytes))) " + assumed.statement)
        }
        line("Guidance  " + guidanceLine(report))
        if let aggregates = report.metrickit {
            line("MetricKit " + metricKitLine(aggregates))
        }
        lines.append("")
        lines += findingLines(report, color: color, width: width)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Eighths of a block, for bars with sub-character resolution.
    private static let partialBlocks = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    static func categoryBars(_ report: Report, color: Bool, width: Int) -> [String] {
        let categories = report.categoryEnergy
        let total = report.energy.totalJ
        let largest = categories.map(\.joules).max() ?? 0
        let longestName = categories.map { TerminalText.sanitize($0.name).count }.max() ?? 0
        let nameWidth = min(max(longestName, 8), max(width / 5, 8))
        // "  name bar 12.34 J     100.0 %": the value is 11 + 1 + up to 7 characters.
        let valueWidth = 19
        let barWidth = max(width - 2 - nameWidth - 2 - valueWidth, 4)
        return categories.map { category in
            let eighths = largest > 0 ? Int((max(category.joules, 0) / largest * Double(barWidth * 8)).rounded()) : 0
            let bar = String(repeating: "█", count: eighths / 8) + partialBlocks[eighths % 8]
            let name = TerminalText.pad(TerminalText.truncate(TerminalText.sanitize(category.name), to: nameWidth), to: nameWidth)
            let share = total > 0 ? category.joules / total : 0
            let value = TerminalText.pad(DisplayNumber.joules(category.joules), to: 11) + " " + DisplayNumber.share(share)
            let coloured = TerminalText.style(bar, CategoryPalette.ansi(for: category.name), enabled: color)
            return "  " + name + " " + coloured + String(repeating: " ", count: barWidth - bar.count) + " " + value
        }
    }

    /// The headline MetricKit aggregates on one line; untrusted strings are not shown.
    static func metricKitLine(_ aggregates: MetricAggregates) -> String {
        let headline: Set<String> = [
            "metric_s", "cpu_time_s", "logical_write_bytes", "peak_memory_bytes", "hangs", "crashes", "disk_write_exceptions",
            "cpu_exceptions",
        ]
        let parts = MetricKitRow.rows(aggregates).filter { headline.contains($0.key) }.map { $0.label.lowercased() + " " + $0.displayValue }
        let payloads = "\(aggregates.metricPayloads) metric + \(aggregates.diagnosticPayloads) diagnostic payload(s)"
        return ([payloads] + parts).joined(separator: " · ")
    }

    static func memoryLine(_ memory: MemorySummary) -> String {
        guard let peak = memory.peakBytes else { return "no samples · limit \(DisplayNumber.bytes(memory.limitBytes))" }
        var text = "peak \(DisplayNumber.bytes(peak)) of \(DisplayNumber.bytes(memory.limitBytes)) limit"
        if let share = memory.peakShareOfLimit { text += " (\(DisplayNumber.share(share)))" }
        if memory.warnings > 0 { text += " · \(memory.warnings) memory warning\(memory.warnings == 1 ? "" : "s")" }
        return text
    }

    static func guidanceLine(_ report: Report) -> String {
        guard let guidance = report.scores.guidance else { return "n/a (no rule had data)" }
        let areas = report.areaNames.compactMap { area in
            report.scores.areas[area].map { TerminalText.sanitize(area) + " " + DisplayNumber.score($0) }
        }
        return "\(DisplayNumber.score(guidance))/100 (" + areas.joined(separator: " · ") + ")"
    }

    static func findingLines(_ report: Report, color: Bool, width: Int) -> [String] {
        let counts = Severity.allCases.reversed().map(report.findingCountLabel)
        var lines = [TerminalText.style("Findings", "1", enabled: color) + "  " + counts.joined(separator: " · ")]
        let indent = String(repeating: " ", count: 13)
        for finding in report.findingsBySeverity {
            let (mark, code) = switch finding.severity {
            case .error: ("✖ error  ", "31;1")
            case .warning: ("▲ warning", "33")
            case .info: ("● info   ", "36")
            }
            var text = TerminalText.sanitize(finding.rule) + "  " + TerminalText.sanitize(finding.title)
            if let energy = finding.energyJ { text += " · " + DisplayNumber.joules(energy) }
            lines.append("  " + TerminalText.style(mark, code, enabled: color) + "  " + TerminalText.truncate(text, to: width - 13))
            let fix = TerminalText.truncate("fix: " + TerminalText.sanitize(finding.fix), to: width - 13)
            lines.append(indent + TerminalText.style(fix, "2", enabled: color))
        }
        return lines
    }
}
