@testable import DrainRender
import DrainTestSupport
import Foundation
import Testing

/// The page script and style sheet are kept in web/ and compiled in by
/// scripts/gen-web-assets; these tests fail while the two differ.
@Suite struct WebAssetsTests {
    private func webFile(_ name: String) throws -> String {
        try String(contentsOf: Repository.root.appendingPathComponent("web/\(name)"), encoding: .utf8)
    }

    @Test func theReportScriptIsWebReportJS() throws {
        #expect(WebAssets.reportScript == (try webFile("report.js")), "run scripts/gen-web-assets")
    }

    @Test func theReportStyleIsWebReportCSS() throws {
        #expect(WebAssets.reportStyle == (try webFile("report.css")), "run scripts/gen-web-assets")
    }

    @Test func theCompareScriptIsWebCompareJS() throws {
        #expect(WebAssets.compareScript == (try webFile("compare.js")), "run scripts/gen-web-assets")
    }

    @Test func theCompareStyleIsWebCompareCSS() throws {
        #expect(WebAssets.compareStyle == (try webFile("compare.css")), "run scripts/gen-web-assets")
    }

    @Test func theReportPageEmbedsBoth() throws {
        let page = try HTMLReportRenderer.render(ReportFixture.realistic)
        #expect(page.contains("<script>\n" + (try webFile("report.js")) + "</script>"))
        #expect(page.contains("<style>\n" + (try webFile("report.css")) + "</style>"))
    }
}
