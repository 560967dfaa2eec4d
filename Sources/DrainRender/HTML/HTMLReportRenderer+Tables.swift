import DrainReport
import DrainTrace

extension HTMLReportRenderer {
    static func rulesSection(_ report: Report) -> String {
        var html = "<section id=\"rules\">\n<h2>Guidance rules</h2>\n"
        guard !report.rules.isEmpty else { return html + "<p class=\"panel\">No rule was run.</p>\n</section>\n" }
        html += "<div class=\"cards areas\">\n"
        for area in report.areaNames {
            let rules = report.rules.filter { $0.area.rawValue == area }
            guard !rules.isEmpty || report.scores.areas[area] != nil else { continue }
            html += "<div class=\"card\"><div class=\"label\">\(HTML.escape(area))</div>"
            if let score = report.scores.areas[area] {
                html += "<div class=\"value\">\(DisplayNumber.score(score))<small>/100</small></div>"
                html += meter(score / 100, cssClass: scoreClass(score))
            } else {
                html += "<div class=\"value muted\">n/a</div>"
            }
            let judged = rules.filter { $0.status != .notApplicable && $0.status != .disabled }
            let passed = judged.filter { $0.status == .pass || $0.status == .info }.count
            let detail = judged.isEmpty ? "no rule had data" : "\(passed) of \(judged.count) judged rule\(judged.count == 1 ? "" : "s") pass"
            html += "<div class=\"sub\">\(detail)</div></div>\n"
        }
        html += "</div>\n"
        var table = HTMLTable(
            columns: [HTMLTable.Column("Rule"), HTMLTable.Column("Area"), HTMLTable.Column("Title"), HTMLTable.Column("Status"), HTMLTable.Column("Note")],
            sortable: true
        )
        for rule in report.rules {
            table.rows.append([
                .code(rule.id), .text(rule.area.rawValue), .text(rule.title),
                .markup(badge(rule.status.rawValue), sortText: rule.status.rawValue), .text(rule.reason ?? ""),
            ])
        }
        return html + table.render() + "</section>\n"
    }

    static func breakdownSection(_ report: Report) -> String {
        let html = "<section id=\"breakdown\">\n<h2>Energy by key</h2>\n"
        guard !report.breakdown.isEmpty else { return html + "<p class=\"panel\">No per-key energy.</p>\n</section>\n" }
        let names = report.categoryEnergy.map(\.name)
        let colors = Dictionary(uniqueKeysWithValues: zip(names, CategoryPalette.colors(for: names)))
        var table = HTMLTable(
            columns: [HTMLTable.Column("Category"), HTMLTable.Column("Key"), HTMLTable.Column("Energy", numeric: true), HTMLTable.Column("Entries", numeric: true)],
            sortable: true
        )
        for entry in report.breakdown {
            let swatchHTML = colors[entry.category].map(swatch) ?? ""
            table.rows.append([
                .markup(swatchHTML + HTML.escape(entry.category), sortText: entry.category), .code(entry.key),
                .number(DisplayNumber.joules(entry.energyJ), sortValue: entry.energyJ),
                .number(String(entry.entries), sortValue: Double(entry.entries)),
            ])
        }
        return html + table.render() + "</section>\n"
    }

    static func endpointsSection(_ report: Report) -> String {
        var html = "<section id=\"endpoints\">\n<h2>Network endpoints</h2>\n"
        guard !report.endpoints.isEmpty else { return html + "<p class=\"panel\">No network traffic.</p>\n</section>\n" }
        let limit = report.limits.endpoints
        if limit.isTruncated {
            html += "<p>The \(report.endpoints.count) costliest of \(limit.total) endpoints.</p>\n"
        }
        var table = HTMLTable(
            columns: [
                HTMLTable.Column("Endpoint"), HTMLTable.Column("Sent", numeric: true), HTMLTable.Column("Received", numeric: true),
                HTMLTable.Column("Bursts", numeric: true), HTMLTable.Column("Connections", numeric: true),
                HTMLTable.Column("Radio energy", numeric: true), HTMLTable.Column("Link"),
            ],
            sortable: true
        )
        for endpoint in report.endpoints {
            table.rows.append([
                .code(endpoint.endpoint),
                .number(DisplayNumber.bytes(Double(endpoint.bytesUp)), sortValue: Double(endpoint.bytesUp)),
                .number(DisplayNumber.bytes(Double(endpoint.bytesDown)), sortValue: Double(endpoint.bytesDown)),
                .number(String(endpoint.bursts), sortValue: Double(endpoint.bursts)),
                .number(String(endpoint.connections), sortValue: Double(endpoint.connections)),
                .number(DisplayNumber.joules(endpoint.energyJ), sortValue: endpoint.energyJ),
                .text(endpoint.local ? "local" : ""),
            ])
        }
        return html + table.render() + "</section>\n"
    }

    /// The bursts table, inside the radio section: when, on which radio, to whom, how much, and
    /// the radio energy each cost.
    static func burstsTable(_ report: Report) -> String {
        let radio = report.radio
        guard !radio.bursts.isEmpty else { return "" }
        var html = "<h3>Bursts</h3>\n<p class=\"meta\">\(radio.burstCount) burst\(radio.burstCount == 1 ? "" : "s")"
        if radio.burstCount > radio.bursts.count { html += ", the first \(radio.bursts.count) listed" }
        html += ".</p>\n"
        var table = HTMLTable(
            columns: [
                HTMLTable.Column("Start", numeric: true), HTMLTable.Column("Length", numeric: true), HTMLTable.Column("Link"),
                HTMLTable.Column("Endpoint"), HTMLTable.Column("Sent", numeric: true), HTMLTable.Column("Received", numeric: true),
                HTMLTable.Column("Events", numeric: true), HTMLTable.Column("Radio energy", numeric: true),
            ],
            sortable: true
        )
        for burst in radio.bursts {
            let length = burst.endS - burst.startS
            table.rows.append([
                .number(DisplayNumber.time(burst.startS), sortValue: burst.startS),
                .number(DisplayNumber.duration(length), sortValue: length),
                .text(burst.link),
                .code(burst.endpoints > 1 ? "\(burst.endpoint) (+\(burst.endpoints - 1))" : burst.endpoint),
                .number(DisplayNumber.bytes(Double(burst.bytesUp)), sortValue: Double(burst.bytesUp)),
                .number(DisplayNumber.bytes(Double(burst.bytesDown)), sortValue: Double(burst.bytesDown)),
                .number(String(burst.events), sortValue: Double(burst.events)),
                .number(DisplayNumber.joules(burst.energyJ), sortValue: burst.energyJ),
            ])
        }
        return html + table.render()
    }

    static func radioSection(_ report: Report) -> String {
        let radio = report.radio
        var html = "<section id=\"radio\">\n<h2>Radio</h2>\n<p class=\"meta\">\(radio.promotions) promotion\(radio.promotions == 1 ? "" : "s")"
        if let perKB = radio.joulesPerKB { html += " · \(HTML.escape(DisplayNumber.joules(perKB))) per KB transferred" }
        html += " · idle power is shown but not counted as the app's.</p>\n"
        guard !radio.states.isEmpty else { return html + "<p class=\"panel\">No radio activity.</p>\n</section>\n" }
        var table = HTMLTable(
            columns: [
                HTMLTable.Column("Link"), HTMLTable.Column("State"), HTMLTable.Column("Time", numeric: true),
                HTMLTable.Column("Energy", numeric: true), HTMLTable.Column("Counted"),
            ],
            sortable: true
        )
        for state in radio.states {
            table.rows.append([
                .text(state.link), .text(state.state), .number(DisplayNumber.duration(state.timeS), sortValue: state.timeS),
                .number(DisplayNumber.joules(state.energyJ), sortValue: state.energyJ), .text(state.attributed ? "yes" : "no"),
            ])
        }
        return html + table.render() + burstsTable(report) + "</section>\n"
    }

    /// The MetricKit aggregates, when the report has any; every cell escaped by `HTMLTable`.
    static func metricKitSection(_ report: Report) -> String {
        guard let aggregates = report.metrickit else { return "" }
        var table = HTMLTable(columns: [HTMLTable.Column("Metric"), HTMLTable.Column("Value", numeric: true)])
        for row in MetricKitRow.rows(aggregates) {
            table.rows.append([.text(row.label), .text(row.displayValue)])
        }
        return "<section id=\"metrickit\">\n<h2>MetricKit aggregates</h2>\n<p class=\"meta\">Totals over the payload windows, not a timeline; rules that need events are not applicable to them.</p>\n"
            + table.render() + "</section>\n"
    }

    static func inputsSection(_ report: Report) -> String {
        var html = "<section id=\"inputs\">\n<h2>Inputs</h2>\n"
        for input in report.inputs {
            html += "<div class=\"panel input\">\n<h3><code title=\"\(HTML.escape(input.path))\">\(HTML.escape(input.path))</code></h3>\n"
            html += "<p class=\"meta\">\(HTML.escape(input.format)) · \(HTML.escape(readCount(input)))"
            if let process = input.process { html += " · process <code>\(HTML.escape(process))</code>" }
            html += " · starts at \(HTML.escape(DisplayNumber.time(input.offsetS))) on the report clock</p>\n"
            if input.diagnostics.isEmpty {
                html += "<p class=\"meta\">No import diagnostics.</p>\n"
            } else {
                var table = HTMLTable(columns: [
                    HTMLTable.Column("Severity"), HTMLTable.Column("Code"), HTMLTable.Column("Message"),
                    HTMLTable.Column("First at"), HTMLTable.Column("Count", numeric: true),
                ])
                for diagnostic in input.diagnostics {
                    table.rows.append([
                        .markup(badge(diagnostic.severity.rawValue), sortText: diagnostic.severity.rawValue), .code(diagnostic.code),
                        .text(diagnostic.message), .text(diagnostic.location ?? ""),
                        .number(String(diagnostic.count), sortValue: Double(diagnostic.count)),
                    ])
                }
                html += table.render()
            }
            html += "</div>\n"
        }
        return html + "</section>\n"
    }

    static func modelSection(_ report: Report) -> String {
        let model = report.model
        var html = "<section id=\"model\">\n<h2>Model and thresholds</h2>\n<div class=\"panel\">\n<dl class=\"model\">\n"
        let facts: [(String, String)] = [
            ("Model", model.name), ("Title", model.title), ("Default link", model.defaultLink), ("Cellular radio", model.cellular),
            ("Burst gap", DisplayNumber.duration(model.burstGapS)), ("Memory limit", DisplayNumber.bytes(model.memoryLimitBytes)),
            ("Battery", Formatting.fixed(model.batteryWh, digits: 2) + " Wh"),
            ("Energy score 90 at", DisplayNumber.milliwatts(model.score90Mw)), ("Energy score 50 at", DisplayNumber.milliwatts(model.score50Mw)),
        ]
        for (name, value) in facts {
            html += "<dt>\(HTML.escape(name))</dt><dd>\(HTML.escape(value))</dd>\n"
        }
        html += "</dl>\n</div>\n"
        guard !report.thresholds.isEmpty else { return html + "</section>\n" }
        var table = HTMLTable(
            columns: [
                HTMLTable.Column("Rule"), HTMLTable.Column("Parameter"), HTMLTable.Column("Value", numeric: true),
                HTMLTable.Column("Unit"), HTMLTable.Column("From"),
            ],
            sortable: true
        )
        for threshold in report.thresholds {
            table.rows.append([
                .code(threshold.rule), .code(threshold.parameter),
                .number(MachineNumber.compact(threshold.value), sortValue: threshold.value), .text(threshold.unit), .text(threshold.origin),
            ])
        }
        return html + table.render() + "</section>\n"
    }
}
