import DrainCompare
import DrainRender
import DrainTestSupport
import Foundation
import Testing

/// The comparison page embeds `web/compare.js` and `web/compare.css` as they are in web/.
@Suite struct CompareWebAssetsTests {
    private func webFile(_ name: String) throws -> String {
        try String(contentsOf: Repository.root.appendingPathComponent("web/\(name)"), encoding: .utf8)
    }

    @Test func theComparePageEmbedsBoth() throws {
        let page = try CompareHTMLRenderer.render(ComparisonFixture.twoRuns)
        #expect(page.contains("<script>\n" + (try webFile("compare.js")) + "</script>"), "run scripts/gen-web-assets")
        #expect(page.contains("<style>\n" + (try webFile("compare.css")) + "</style>"), "run scripts/gen-web-assets")
    }
}
