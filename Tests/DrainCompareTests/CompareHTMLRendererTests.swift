@testable import DrainCompare
import DrainRender
import DrainTestSupport
import Foundation
import Testing

@Suite struct CompareHTMLRendererTests {
    private struct Payload: Decodable {
        var comparison: Comparison
        var colors: [String]
        var runColors: [String]

        enum CodingKeys: String, CodingKey {
            case comparison, colors
            case runColors = "run_colors"
        }
    }

    /// The text between the `drain-data` script's tags, decoded.
    private func payload(_ page: String) throws -> Payload {
        let open = try #require(page.range(of: "<script type=\"application/json\" id=\"drain-data\">"))
        let close = try #require(page.range(of: "</script>", range: open.upperBound..<page.endIndex))
        return try JSONDecoder().decode(Payload.self, from: Data(page[open.upperBound..<close.lowerBound].utf8))
    }

    private func occurrences(of needle: String, in page: String) -> Int {
        page.components(separatedBy: needle).count - 1
    }

    @Test(arguments: [2, 3]) func isDeterministicAndCarriesTheComparison(runCount: Int) throws {
        let comparison = ComparisonFixture.comparison(runCount: runCount)
        let page = try CompareHTMLRenderer.render(comparison)
        #expect(page == (try CompareHTMLRenderer.render(comparison)))
        #expect(page.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"\(HTMLPage.contentSecurityPolicy)\">"))
        let decoded = try payload(page)
        #expect(decoded.comparison == comparison)
        #expect(decoded.colors.count == comparison.timeline.categories.count)
        #expect(decoded.runColors.count == runCount)
    }

    @Test func showsEveryRunAndMarksTheReference() throws {
        let page = try CompareHTMLRenderer.render(ComparisonFixture.threeRuns)
        for label in ["main", "feature/prefetch", "feature/batching"] { #expect(page.contains("<strong class=\"run-label\">\(label)</strong>")) }
        #expect(occurrences(of: "<span class=\"badge reference\">reference</span>", in: page) == 1)
        #expect(page.contains("<li class=\"run reference\" data-run=\"0\">"))
    }

    @Test func threeRunsHaveAColumnPairPerRun() throws {
        let page = try CompareHTMLRenderer.render(ComparisonFixture.threeRuns)
        #expect(page.contains(">Diff feature/prefetch</th>"))
        #expect(page.contains(">Diff feature/batching</th>"))
        let twoRunPage = try CompareHTMLRenderer.render(ComparisonFixture.twoRuns)
        #expect(twoRunPage.contains(">Diff</th>"))
    }

    @Test func showsAddedRemovedAndNotListedKeys() throws {
        let page = try CompareHTMLRenderer.render(ComparisonFixture.threeRuns)
        #expect(page.contains("<span class=\"badge added\" data-always=\"true\">added</span>"))
        #expect(page.contains("<span class=\"badge removed\" data-always=\"true\">removed</span>"))
        #expect(page.contains("<span class=\"presence not-listed\">not listed</span>"))
        #expect(page.contains("<span class=\"badge unknown\">not comparable</span>"))
    }

    @Test func ordersKeysByTheSizeOfTheirChange() throws {
        let page = try CompareHTMLRenderer.render(ComparisonFixture.twoRuns)
        // api: +11.6 J, metrics: added 4.4 J, ads: removed 3.6 J, cdn: unchanged.
        let order = ["api.example.com", "metrics.example.com", "ads.example.net", "cdn.example.com"].map { page.range(of: $0)!.lowerBound }
        #expect(order == order.sorted())
    }

    @Test func ordersFindingsNewWorseResolvedBetterAndFoldsTheUnchanged() throws {
        let page = try CompareHTMLRenderer.render(ComparisonFixture.threeRuns)
        let titles = ["Polling timer on the main thread", "Periodic requests to api.example.com", "feed.db rewritten whole"]
        let order = titles.map { page.range(of: $0)!.lowerBound }
        #expect(order == order.sorted())
        let details = try #require(page.range(of: "<details id=\"findings-unchanged\">"))
        #expect(page.range(of: "Memory grows steadily")!.lowerBound > details.lowerBound)
    }

    @Test func chipsCarryTheirShareForTheThreshold() throws {
        let page = try CompareHTMLRenderer.render(ComparisonFixture.twoRuns)
        #expect(page.contains("<option value=\"5\" selected>5 %</option>"))
        #expect(page.contains("class=\"delta worse\" data-pct=\""))
        #expect(page.contains("class=\"delta worse per-hour\""), "the runs differ in length, so the cards show per-hour changes")
        var other = ComparisonFixture.twoRuns
        other.thresholdPct = 7.5
        #expect(try CompareHTMLRenderer.render(other).contains("<option value=\"7.5\" selected>7.5 %</option>"))
    }

    @Test func escapesEveryHostileString() throws {
        let comparison = ComparisonFixture.hostileComparison
        let page = try CompareHTMLRenderer.render(comparison)
        #expect(!page.contains("<img"))
        #expect(occurrences(of: "</script>", in: page) == 2, "only the page's own two scripts close")
        #expect(occurrences(of: "<script", in: page) == 2)
        #expect(!page.contains("\u{202E}") && !page.contains("\u{1B}"), "no bidirectional or terminal controls")
        let data = try #require(page.range(of: "id=\"drain-data\">")).upperBound
        #expect(!page[data...].contains("\u{2028}"), "the JSON carries line separators escaped, for old script parsers")
        #expect(page.contains("&lt;img src=x onerror=window.__pwned=1&gt;"))
        #expect(try payload(page).comparison == comparison)
    }

    @Test func refusesNonFiniteNumbers() {
        var comparison = ComparisonFixture.twoRuns
        comparison.summary[0].values[1] = .nan
        #expect(throws: ReportRenderError.self) { try CompareHTMLRenderer.render(comparison) }
    }

    /// Writes the fixture pages for the browser tests (`Tests/browser`) into the directory
    /// that `DRAIN_COMPARE_PAGES_OUT` names; skipped without it.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["DRAIN_COMPARE_PAGES_OUT"] != nil))
    func writesTheFixturePages() throws {
        let directory = URL(fileURLWithPath: try #require(ProcessInfo.processInfo.environment["DRAIN_COMPARE_PAGES_OUT"]))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pages = [
            "two-runs.html": ComparisonFixture.twoRuns, "three-runs.html": ComparisonFixture.threeRuns,
            "hostile.html": ComparisonFixture.hostileComparison,
        ]
        for (name, comparison) in pages {
            try CompareHTMLRenderer.render(comparison).write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
    }
}
