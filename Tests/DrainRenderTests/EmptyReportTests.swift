import DrainReport
import DrainTestSupport
import DrainRender
import Foundation
import Testing

/// A run with nothing in it, and one whose timeline rows are shorter than its category list:
/// every renderer must still produce a well-formed document.
@Suite struct EmptyReportTests {
    static var empty: Report {
        Report(
            generator: "drain 0.1.0",
            model: ModelInfo(
                name: "wifi-laptop", title: "Laptop on Wi-Fi", defaultLink: "wifi", cellular: "lte", burstGapS: 1, memoryLimitBytes: 8e9,
                batteryWh: 50, score90Mw: 500, score50Mw: 4000
            ),
            thresholds: [], inputs: [], durationS: 0,
            energy: EnergySummary(totalJ: 0, averageMw: 0, mwh: 0, batteryPctPerHour: 0, byCategory: [:]),
            memory: MemorySummary(peakBytes: nil, peakTimeS: nil, limitBytes: 8e9, peakShareOfLimit: nil, samples: 0, warnings: 0),
            scores: Scores(energy: 100, guidance: nil, areas: [:]), findings: [], rules: [], endpoints: [], breakdown: [],
            radio: RadioSummary(states: [], promotions: 0, joulesPerKB: nil, lane: []),
            timeline: TimelineBins(binS: 1, categories: [], energyJ: [], memoryPeakBytes: [], lifecycle: [])
        )
    }

    static var ragged: Report {
        var report = ReportFixture.realistic
        report.timeline.energyJ[2] = [0.5]
        report.timeline.memoryPeakBytes.removeLast(10)
        return report
    }

    @Test func everyRendererHandlesAnEmptyRun() throws {
        let report = Self.empty
        let json = try JSONReportRenderer.render(report)
        #expect(try JSONDecoder().decode(Report.self, from: Data(json.utf8)) == report)
        for (name, csv) in CSVReportRenderer.tables(report) {
            let records = try RFC4180Reader.records(csv)
            #expect(records.allSatisfy { $0.count == records[0].count }, "\(name)")
        }
        let html = try HTMLReportRenderer.render(report)
        #expect(html.contains("No findings: the run follows every rule that had data to judge."))
        #expect(html.contains("<div class=\"value\">n/a</div>"))
        let markdown = MarkdownReportRenderer.render(report)
        #expect(markdown.contains("| Peak memory | n/a (no samples) |"))
        let terminal = TerminalReportRenderer.render(report, color: false, width: 40)
        #expect(terminal.contains("Guidance  n/a (no rule had data)"))
        #expect(terminal.split(separator: "\n").allSatisfy { $0.count <= 40 })
    }

    /// A run with no events to price (MetricKit aggregates only) has no energy score: every
    /// format says so instead of showing the 100 of zero energy.
    @Test func aRunWithoutAnEnergyScoreSaysNotApplicable() throws {
        var report = Self.empty
        report.scores.energy = nil
        let json = try JSONReportRenderer.render(report)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let scores = try #require(object["scores"] as? [String: Any])
        #expect(scores["energy"] == nil)
        #expect(try JSONDecoder().decode(Report.self, from: Data(json.utf8)) == report)
        let summary = try #require(CSVReportRenderer.tables(report).first { $0.name == "summary" }?.csv)
        let row = try #require(try RFC4180Reader.records(summary).first { $0.first == "score_energy" })
        #expect(row.dropFirst().allSatisfy { $0.isEmpty })
        let html = try HTMLReportRenderer.render(report)
        #expect(html.contains("no events to price: MetricKit aggregates only"))
        #expect(MarkdownReportRenderer.render(report).contains("| Energy score | n/a (not priced) |"))
        #expect(TerminalReportRenderer.render(report, color: false, width: 120).contains("score n/a (not priced)"))
    }

    @Test func aRaggedTimelineGivesEmptyCellsNotACrash() throws {
        let csv = try #require(CSVReportRenderer.tables(Self.ragged).first { $0.name == "timeline" }?.csv)
        let records = try RFC4180Reader.records(csv)
        #expect(records.allSatisfy { $0.count == records[0].count })
        // Bin 2 holds only cpu's 0.5 J: the other categories are empty, the total is 0.5 J.
        #expect(records[3][3] == "0.500000" && records[3][4] == "" && records[3][10] == "0.500000")
        #expect(records[60][11] == "")
    }
}
