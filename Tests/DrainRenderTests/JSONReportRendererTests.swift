import DrainReport
import DrainTestSupport
import DrainRender
import Foundation
import Testing

@Suite struct JSONReportRendererTests {
    @Test(arguments: ReportFixture.names)
    func roundTripsToAnEqualReport(_ name: String) throws {
        let report = ReportFixture.named(name)
        let json = try JSONReportRenderer.render(report)
        let decoded = try JSONDecoder().decode(Report.self, from: Data(json.utf8))
        #expect(decoded == report, "\(name) report changed through JSON")
    }

    @Test func isDeterministicWithSortedKeysAndAFinalNewline() throws {
        let first = try JSONReportRenderer.render(ReportFixture.realistic)
        let second = try JSONReportRenderer.render(ReportFixture.realistic)
        #expect(first == second)
        #expect(first.hasSuffix("}\n"))
        let topLevel = first.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { $0.dropFirst(3).prefix { $0 != "\"" } }
        #expect(topLevel.map(String.init) == [
            "active_duration_s", "breakdown", "duration_s", "endpoints", "energy", "findings", "generator", "inputs", "limits", "memory",
            "metrickit", "metrics", "model", "radio", "rules", "schema_version", "scores", "start", "threads", "thresholds", "timeline",
        ])
    }

    @Test func writesTheContractKeysAndUnescapedSlashes() throws {
        let json = try JSONReportRenderer.render(ReportFixture.realistic)
        #expect(json.contains("\"schema_version\" : 1"))
        #expect(json.contains("\"path\" : \"captures/run-1.pcapng\""))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let energy = try #require(object["energy"] as? [String: Any])
        let byCategory = try #require(energy["by_category"] as? [String: Double])
        #expect(Set(byCategory.keys) == ["cpu", "radio", "disk", "polling", "display", "location", "sensors"])
        // The fixture's radio: 4 bursts × (2.5 J + 4 bins × 2.12 J) = 43.92 J.
        #expect(abs(byCategory["radio"]! - 43.92) < 1e-9)
    }

    @Test func refusesNonFiniteNumbersNamingWhereTheyAre() {
        var report = ReportFixture.realistic
        report.timeline.energyJ[3][1] = .nan
        #expect(throws: ReportRenderError.nonFiniteNumber(path: "timeline.energy_j[3][1]")) {
            try JSONReportRenderer.render(report)
        }
        report = ReportFixture.realistic
        report.energy.averageMw = .infinity
        #expect(throws: ReportRenderError.nonFiniteNumber(path: "energy.average_mw")) {
            try HTMLReportRenderer.render(report)
        }
    }
}
