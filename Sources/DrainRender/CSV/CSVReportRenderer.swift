import DrainReport
import DrainTrace

/// Renders a report as a set of CSV tables (RFC 4180, CRLF line ends), one per concern, for
/// spreadsheets and scripts. `docs/reports.md` documents every table's columns and units.
public struct CSVReportRenderer: Sendable {
    public init() {}

    /// The tables in a fixed order: `summary`, `findings`, `timeline`, `breakdown`,
    /// `endpoints`, `bursts`, `radio_states`, `rules`, `thresholds`, `inputs`, `diagnostics`,
    /// `metrics`, `limits`. Each starts with a header record. A report of MetricKit inputs adds
    /// `metrickit` at the end, and a run with time gaps or backward jumps `time_gaps` after it.
    /// Deterministic; O(size of the report).
    public static func tables(_ report: Report) -> [(name: String, csv: String)] {
        var tables = [
            summary(report), findings(report), timeline(report), breakdown(report), endpoints(report), bursts(report),
            radioStates(report), rules(report), thresholds(report), inputs(report), diagnostics(report), metrics(report),
            limits(report),
        ]
        if let aggregates = report.metrickit { tables.append(metricKit(aggregates)) }
        if let gaps = report.timeGaps { tables.append(timeGaps(gaps)) }
        return tables.map { ($0.name, $0.csv) }
    }

    /// `time_gaps`: one row per time gap (start, end, length), seconds.
    static func timeGaps(_ summary: TimeGapSummary) -> CSVTable {
        var table = CSVTable(name: "time_gaps", header: ["start_s", "end_s", "length_s"])
        for gap in summary.gaps {
            table.append([
                .number(MachineNumber.seconds(gap.startS)), .number(MachineNumber.seconds(gap.endS)),
                .number(MachineNumber.seconds(gap.lengthS)),
            ])
        }
        return table
    }

    /// `metrickit`: one row per aggregate value present (key, value, unit), machine units.
    static func metricKit(_ aggregates: MetricAggregates) -> CSVTable {
        var table = CSVTable(name: "metrickit", header: ["key", "value", "unit"])
        for row in MetricKitRow.rows(aggregates) {
            let value: CSVField = if case .text = row.value { .text(row.machineValue) } else { .number(row.machineValue) }
            table.append([.text(row.key), value, .text(row.unit)])
        }
        return table
    }

    static func summary(_ report: Report) -> CSVTable {
        var table = CSVTable(name: "summary", header: ["key", "value"])
        func row(_ key: String, _ value: CSVField) { table.append([.text(key), value]) }
        func number(_ value: Double?, _ format: (Double) -> String) -> CSVField {
            value.map { .number(format($0)) } ?? .empty
        }
        row("schema_version", .integer(report.schemaVersion))
        row("generator", .text(report.generator))
        row("model", .text(report.model.name))
        row("model_title", .text(report.model.title))
        row("inputs", .integer(report.inputs.count))
        row("duration_s", number(report.durationS, MachineNumber.seconds))
        if let gaps = report.timeGaps {
            // Only runs with time gaps or backward jumps: other runs' tables stay as they were.
            row("active_duration_s", number(report.activeDurationS, MachineNumber.seconds))
            row("gap_threshold_s", number(gaps.thresholdS, MachineNumber.seconds))
            row("time_gaps", .integer(gaps.gaps.count))
            row("backward_jumps", .integer(gaps.backwardJumps))
            row("largest_backward_jump_s", number(gaps.largestBackwardJumpS, MachineNumber.seconds))
        }
        row("energy_total_j", number(report.energy.totalJ, MachineNumber.joules))
        row("energy_average_mw", number(report.energy.averageMw, MachineNumber.milliwatts))
        row("energy_mwh", number(report.energy.mwh, MachineNumber.milliwattHours))
        row("battery_pct_per_hour", number(report.energy.batteryPctPerHour, MachineNumber.percent))
        for (category, joules) in report.categoryEnergy {
            row("energy_\(category)_j", number(joules, MachineNumber.joules))
        }
        row("assumed_link", .text(report.assumedLink?.link))
        row("assumed_link_bytes", report.assumedLink.map { .integer($0.bytes) } ?? .empty)
        row("memory_peak_bytes", number(report.memory.peakBytes, MachineNumber.bytes))
        row("memory_peak_time_s", number(report.memory.peakTimeS, MachineNumber.seconds))
        row("memory_limit_bytes", number(report.memory.limitBytes, MachineNumber.bytes))
        row("memory_peak_share_of_limit", number(report.memory.peakShareOfLimit, MachineNumber.share))
        row("memory_samples", .integer(report.memory.samples))
        row("memory_warnings", .integer(report.memory.warnings))
        row("score_energy", number(report.scores.energy, MachineNumber.percent))
        row("score_guidance", number(report.scores.guidance, MachineNumber.percent))
        for area in report.areaNames {
            row("score_\(area)", number(report.scores.areas[area], MachineNumber.percent))
        }
        for severity in Severity.allCases.reversed() {
            row("findings_\(severity.rawValue)", .integer(report.findingCount(severity)))
        }
        row("radio_promotions", .integer(report.radio.promotions))
        row("radio_j_per_kb", number(report.radio.joulesPerKB, MachineNumber.joules))
        return table
    }

    static func findings(_ report: Report) -> CSVTable {
        var table = CSVTable(
            name: "findings",
            header: ["rule", "area", "severity", "title", "message", "energy_j", "time_ranges", "evidence", "fix", "guidance", "source"]
        )
        for finding in report.findings {
            let ranges = finding.timeRanges.map { MachineNumber.seconds($0.startS) + ".." + MachineNumber.seconds($0.endS) }
            table.append([
                .text(finding.rule), .text(finding.area.rawValue), .text(finding.severity.rawValue), .text(finding.title),
                .text(finding.message), finding.energyJ.map { .number(MachineNumber.joules($0)) } ?? .empty,
                .text(ranges.joined(separator: "; ")), .text(flattened(finding.evidence)), .text(finding.fix),
                .text(finding.guidance), .text(finding.source),
            ])
        }
        return table
    }

    /// `name=value unit; name=text`: the evidence in one cell for reading; the JSON report
    /// keeps it structured.
    static func flattened(_ evidence: [Evidence]) -> String {
        evidence.map { item in
            guard let value = item.value else { return item.name + "=" + (item.text ?? "") }
            let unit = item.unit.map { $0.isEmpty ? "" : " " + $0 } ?? ""
            return item.name + "=" + MachineNumber.compact(value) + unit
        }.joined(separator: "; ")
    }

    static func timeline(_ report: Report) -> CSVTable {
        let bins = report.timeline
        var table = CSVTable(
            name: "timeline",
            header: ["bin", "start_s", "end_s"] + bins.categories.map { $0 + "_j" } + ["total_j", "memory_peak_bytes"]
        )
        let totals = report.timelineTotals
        for (index, row) in bins.energyJ.enumerated() {
            var fields: [CSVField] = [
                .integer(index), .number(MachineNumber.seconds(bins.startS(ofBin: index))),
                .number(MachineNumber.seconds(bins.startS(ofBin: index) + bins.binS)),
            ]
            for column in bins.categories.indices {
                fields.append(column < row.count ? .number(MachineNumber.joules(row[column])) : .empty)
            }
            fields.append(.number(MachineNumber.joules(totals[index])))
            let peak = index < bins.memoryPeakBytes.count ? bins.memoryPeakBytes[index] : nil
            fields.append(peak.map { .number(MachineNumber.bytes($0)) } ?? .empty)
            table.append(fields)
        }
        return table
    }

    static func breakdown(_ report: Report) -> CSVTable {
        var table = CSVTable(name: "breakdown", header: ["category", "key", "energy_j", "entries"])
        for entry in report.breakdown {
            table.append([.text(entry.category), .text(entry.key), .number(MachineNumber.joules(entry.energyJ)), .integer(entry.entries)])
        }
        return table
    }

    static func endpoints(_ report: Report) -> CSVTable {
        var table = CSVTable(name: "endpoints", header: ["endpoint", "bytes_up", "bytes_down", "bursts", "connections", "energy_j", "local"])
        for endpoint in report.endpoints {
            table.append([
                .text(endpoint.endpoint), .integer(endpoint.bytesUp), .integer(endpoint.bytesDown), .integer(endpoint.bursts),
                .integer(endpoint.connections), .number(MachineNumber.joules(endpoint.energyJ)), .text(endpoint.local ? "yes" : "no"),
            ])
        }
        return table
    }

    static func bursts(_ report: Report) -> CSVTable {
        var table = CSVTable(
            name: "bursts",
            header: ["link", "start_s", "end_s", "endpoint", "endpoints", "bytes_up", "bytes_down", "events", "energy_j"])
        for burst in report.radio.bursts {
            table.append([
                .text(burst.link), .number(MachineNumber.seconds(burst.startS)), .number(MachineNumber.seconds(burst.endS)),
                .text(burst.endpoint), .integer(burst.endpoints), .integer(burst.bytesUp), .integer(burst.bytesDown),
                .integer(burst.events), .number(MachineNumber.joules(burst.energyJ)),
            ])
        }
        return table
    }

    static func radioStates(_ report: Report) -> CSVTable {
        var table = CSVTable(name: "radio_states", header: ["link", "state", "time_s", "energy_j", "attributed"])
        for state in report.radio.states {
            table.append([
                .text(state.link), .text(state.state), .number(MachineNumber.seconds(state.timeS)),
                .number(MachineNumber.joules(state.energyJ)), .number(state.attributed ? "true" : "false"),
            ])
        }
        return table
    }

    static func rules(_ report: Report) -> CSVTable {
        var table = CSVTable(name: "rules", header: ["id", "area", "title", "status", "reason"])
        for rule in report.rules {
            table.append([.text(rule.id), .text(rule.area.rawValue), .text(rule.title), .text(rule.status.rawValue), .text(rule.reason)])
        }
        return table
    }

    static func thresholds(_ report: Report) -> CSVTable {
        var table = CSVTable(name: "thresholds", header: ["rule", "parameter", "value", "unit", "origin"])
        for threshold in report.thresholds {
            table.append([
                .text(threshold.rule), .text(threshold.parameter), .number(MachineNumber.compact(threshold.value)),
                .text(threshold.unit), .text(threshold.origin),
            ])
        }
        return table
    }

    static func inputs(_ report: Report) -> CSVTable {
        var table = CSVTable(
            name: "inputs",
            header: ["path", "format", "events", "packets", "process", "offset_s", "diagnostics", "diagnostic_occurrences"]
        )
        for input in report.inputs {
            table.append([
                .text(input.path), .text(input.format), .integer(input.events), .integer(input.packets), .text(input.process),
                .number(MachineNumber.seconds(input.offsetS)), .integer(input.diagnostics.count),
                .integer(input.diagnosticOccurrences),
            ])
        }
        return table
    }

    /// `metrics`: one row per metric, by name (the `metrics` block of the JSON report).
    static func metrics(_ report: Report) -> CSVTable {
        var table = CSVTable(name: "metrics", header: ["metric", "value", "unit", "per_hour"])
        for name in report.metrics.keys.sorted() {
            let metric = report.metrics[name]!
            table.append([
                .text(name), .number(MachineNumber.compact(metric.value, digits: 9)), .text(metric.unit),
                metric.perHour.map { .number(MachineNumber.compact($0, digits: 9)) } ?? .empty,
            ])
        }
        return table
    }

    /// `limits`: how each list that can be cut was cut (`list`, `limit`, `total`, `cut`), so a
    /// script reading `endpoints.csv` or `bursts.csv` can tell a short list from a cut one.
    /// The lists in the JSON's `limits` order, then `breakdown.<category>` by category name.
    static func limits(_ report: Report) -> CSVTable {
        var table = CSVTable(name: "limits", header: ["list", "limit", "total", "cut"])
        let limits = report.limits
        let lists = [
            ("endpoints", limits.endpoints), ("bursts", limits.bursts), ("radio_lane", limits.radioLane),
            ("lifecycle", limits.lifecycle), ("marks", limits.marks), ("threads", limits.threads),
        ]
        let breakdown = limits.breakdown.keys.sorted().map { ("breakdown." + $0, limits.breakdown[$0]!) }
        for (name, limit) in lists + breakdown {
            table.append([
                .text(name), .integer(limit.limit), .integer(limit.total), .text(limit.isTruncated ? "yes" : "no"),
            ])
        }
        return table
    }

    static func diagnostics(_ report: Report) -> CSVTable {
        var table = CSVTable(name: "diagnostics", header: ["input", "severity", "code", "message", "location", "count"])
        for input in report.inputs {
            for diagnostic in input.diagnostics {
                table.append([
                    .text(input.path), .text(diagnostic.severity.rawValue), .text(diagnostic.code), .text(diagnostic.message),
                    .text(diagnostic.location), .integer(diagnostic.count),
                ])
            }
        }
        return table
    }
}
