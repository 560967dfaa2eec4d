import DrainReport
import DrainTrace

extension HTMLReportRenderer {
    static func summarySection(_ report: Report) -> String {
        let energy = report.energy
        var html = "<section id=\"summary\">\n<h2>Summary</h2>\n<div class=\"cards\">\n"
        html += card(
            "Total energy", DisplayNumber.joules(energy.totalJ),
            "\(Formatting.fixed(energy.mwh, digits: 3)) mWh over \(HTML.escape(report.spanText))"
        )
        let gapped = report.timeGaps.map { !$0.gaps.isEmpty } ?? false
        html += card(
            "Average power", DisplayNumber.milliwatts(energy.averageMw),
            gapped ? "over the \(DisplayNumber.duration(report.activeDurationS)) active, time gaps left out" : "over the whole run")
        html += card(
            "Battery drain", DisplayNumber.percent(energy.batteryPctPerHour, digits: 2) + "/h",
            "of a \(Formatting.fixed(report.model.batteryWh, digits: 2)) Wh battery"
        )
        if let energyScore = report.scores.energy {
            html += card(
                "Energy score", DisplayNumber.score(energyScore) + "<small>/100</small>",
                "90 at \(DisplayNumber.milliwatts(report.model.score90Mw)), 50 at \(DisplayNumber.milliwatts(report.model.score50Mw))",
                meter: meter(energyScore / 100, cssClass: scoreClass(energyScore)), valueIsMarkup: true
            )
        } else {
            html += card("Energy score", "n/a", "no events to price: MetricKit aggregates only")
        }
        let applicable = report.rules.filter { $0.status != .notApplicable && $0.status != .disabled }.count
        if let guidance = report.scores.guidance {
            html += card(
                "Guidance score", DisplayNumber.score(guidance) + "<small>/100</small>", "\(applicable) of \(report.rules.count) rules had data",
                meter: meter(guidance / 100, cssClass: scoreClass(guidance)), valueIsMarkup: true
            )
        } else {
            html += card("Guidance score", "n/a", "no rule had data to judge")
        }
        html += memoryCard(report.memory)
        let counts = Severity.allCases.reversed().map { severity in
            "<span class=\"badge \(severity.rawValue)\">\(report.findingCountLabel(severity))</span>"
        }
        html += card("Findings", "\(report.findings.count)", counts.joined(separator: " "), subIsMarkup: true)
        if let assumed = report.assumedLink {
            html += card("Network link", assumed.link == "wifi" ? "Wi-Fi (assumed)" : "cellular (assumed)",
                "\(DisplayNumber.bytes(Double(assumed.bytes))) " + assumed.statement)
        }
        html += "</div>\n"
        let gaps = report.timeGapSentences()
        if !gaps.isEmpty {
            html += "<ul class=\"panel time-gaps\">\n" + gaps.map { "<li>\(HTML.escape($0))</li>\n" }.joined() + "</ul>\n"
        }
        return html + "</section>\n"
    }

    private static func memoryCard(_ memory: MemorySummary) -> String {
        guard let peak = memory.peakBytes else {
            return card("Peak memory", "n/a", "no memory samples; limit \(DisplayNumber.bytes(memory.limitBytes))")
        }
        let share = memory.peakShareOfLimit ?? (memory.limitBytes > 0 ? peak / memory.limitBytes : 0)
        let level = share >= 1 ? "poor" : (share >= 0.8 ? "fair" : "good")
        var detail = "\(DisplayNumber.share(share)) of the \(DisplayNumber.bytes(memory.limitBytes)) limit"
        if let time = memory.peakTimeS { detail += " at \(DisplayNumber.time(time))" }
        return card("Peak memory", DisplayNumber.bytes(peak), detail, meter: meter(share, cssClass: level))
    }

    /// One summary card. `value` and `detail` are escaped unless flagged as markup the
    /// renderer built.
    private static func card(
        _ label: String, _ value: String, _ detail: String, meter: String = "", valueIsMarkup: Bool = false,
        subIsMarkup: Bool = false
    ) -> String {
        let valueHTML = valueIsMarkup ? value : HTML.escape(value)
        let detailHTML = subIsMarkup ? detail : HTML.escape(detail)
        return "<div class=\"card\"><div class=\"label\">\(HTML.escape(label))</div><div class=\"value\">\(valueHTML)</div>"
            + "\(meter)<div class=\"sub\">\(detailHTML)</div></div>\n"
    }

    static func categorySection(_ report: Report) -> String {
        let categories = report.categoryEnergy
        let colors = CategoryPalette.colors(for: categories.map(\.name))
        let largest = categories.map(\.joules).max() ?? 0
        let total = report.energy.totalJ
        var html = "<section id=\"categories\">\n<h2>Energy by category</h2>\n<div class=\"panel bars\">\n"
        for (index, category) in categories.enumerated() {
            let width = largest > 0 ? min(max(category.joules / largest * 100, 0), 100) : 0
            let share = total > 0 ? category.joules / total : 0
            html += "<div class=\"bar-row\"><div class=\"bar-name\">\(swatch(colors[index]))\(HTML.escape(category.name))</div>"
            html += "<div class=\"bar-track\"><div class=\"bar-fill\" style=\"width:\(Formatting.fixed(width, digits: 1))%;background:\(colors[index])\"></div></div>"
            html += "<div class=\"bar-value\">\(HTML.escape(DisplayNumber.joules(category.joules)))"
            html += " <span class=\"meta\">\(HTML.escape(DisplayNumber.share(share)))</span></div></div>\n"
        }
        return html + "</div>\n</section>\n"
    }

    static func timelineSection(_ report: Report) -> String {
        let timeline = report.timeline
        let colors = CategoryPalette.colors(for: timeline.categories)
        var html = "<section id=\"timeline\">\n<h2>Timeline</h2>\n<div class=\"panel\">\n"
        html += "<p class=\"meta\">Energy per \(HTML.escape(DisplayNumber.duration(timeline.binS))) bin, stacked by category; "
        html += "memory peak per bin on the right axis; lifecycle changes as dashed lines; radio states in the lane below. "
        html += "Click a category to hide or show it.</p>\n"
        html += "<div class=\"legend\" id=\"timeline-legend\">"
        for (index, category) in timeline.categories.enumerated() {
            html += "<button type=\"button\" data-series=\"\(index)\" aria-pressed=\"true\">"
            html += "\(swatch(colors[index]))\(HTML.escape(category))</button>"
        }
        html += "<button type=\"button\" data-series=\"memory\" aria-pressed=\"true\"><span class=\"line-swatch\"></span>memory peak</button>"
        html += "</div>\n"
        html += "<div class=\"chart\" id=\"timeline-chart\"><noscript><p class=\"meta\">The interactive timeline needs "
        html += "JavaScript; the CSV and JSON reports hold the same bins.</p></noscript></div>\n"
        html += "<div class=\"tooltip\" id=\"timeline-tooltip\" role=\"status\"></div>\n"
        return html + "</div>\n</section>\n"
    }
}
