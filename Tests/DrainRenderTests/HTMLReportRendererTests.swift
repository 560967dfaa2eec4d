import DrainReport
import DrainTestSupport
import DrainRender
import Foundation
import Testing

@Suite struct HTMLReportRendererTests {
    /// What the page's data block holds.
    struct ScriptData: Decodable {
        var colors: [String]
        var radio_colors: [String: String]
        var report: Report
    }

    static let dataOpening = "<script type=\"application/json\" id=\"drain-data\">"

    /// The data block's text, between its opening tag and the next `</script>`.
    func dataBlock(_ html: String) throws -> Substring {
        let start = try #require(html.range(of: Self.dataOpening)).upperBound
        let end = try #require(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
        return html[start..<end]
    }

    /// `text` escaped by an independent spelling of the rule: `&` first, then the rest, and
    /// the controls in the hostile payload (ESC, BEL, CSI, RLO) shown as U+FFFD.
    func escaped(_ text: String) -> String {
        var result = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
        for control in ["\u{1B}", "\u{07}", "\u{9B}", "\u{202E}"] { result = result.replacingOccurrences(of: control, with: "\u{FFFD}") }
        return result
    }

    @Test func aCutEndpointListSaysHowManyThereWere() throws {
        var report = ReportFixture.realistic
        let listed = report.endpoints.count
        #expect(listed > 0)
        report.limits.endpoints = ListLimit(limit: listed, total: listed)
        #expect(!(try HTMLReportRenderer.render(report)).contains("costliest of"))
        report.limits.endpoints = ListLimit(limit: listed, total: listed + 7)
        #expect(try HTMLReportRenderer.render(report).contains("<p>The \(listed) costliest of \(listed + 7) endpoints.</p>"))
    }

    @Test func isDeterministic() throws {
        #expect(try HTMLReportRenderer.render(ReportFixture.realistic) == HTMLReportRenderer.render(ReportFixture.realistic))
    }

    @Test(arguments: ReportFixture.names)
    func holdsOnlyTheRenderersOwnMarkup(_ name: String) throws {
        let report = ReportFixture.named(name)
        let html = try HTMLReportRenderer.render(report)
        #expect(html.components(separatedBy: "<script").count - 1 == 2)
        #expect(html.lowercased().components(separatedBy: "<script").count - 1 == 2)
        #expect(!html.lowercased().contains("<img"))
        let (tags, scripts) = HTMLTagScanner.scan(html)
        let allowed: Set = [
            "html", "head", "meta", "title", "style", "body", "header", "div", "h1", "h2", "h3", "p", "code", "ul", "li", "nav", "a",
            "main", "section", "small", "span", "button", "noscript", "article", "strong", "cite", "table", "thead", "tbody", "tr",
            "th", "td", "dl", "dt", "dd", "footer", "script",
        ]
        #expect(Set(tags.map(\.name)).subtracting(allowed).isEmpty)
        for tag in tags {
            for attribute in tag.attributes {
                #expect(!attribute.name.hasPrefix("on"), "event handler attribute \(attribute.name) on <\(tag.name)>")
                if ["href", "src", "action", "formaction", "xlink:href"].contains(attribute.name) {
                    #expect(!attribute.value.lowercased().contains("javascript:"))
                }
            }
            if tag.name == "a" { #expect(tag.attributes.allSatisfy { $0.name != "href" || $0.value.hasPrefix("#") }) }
        }
        let scriptTags = tags.filter { $0.name == "script" && !$0.isEnd }
        #expect(scriptTags.count == 2)
        #expect(scriptTags.first?.attributes.map(\.name) == ["type", "id"])
        #expect(scripts.count == 2)
        #expect(!scripts[1].contains("innerHTML") && !scripts[1].contains("outerHTML") && !scripts[1].contains("insertAdjacentHTML"))
        #expect(!scripts[1].contains("document.write") && !scripts[1].contains("eval("))
    }

    @Test(arguments: ReportFixture.names)
    func embedsTheReportAsJSONThatCannotCloseItsScript(_ name: String) throws {
        let report = ReportFixture.named(name)
        let html = try HTMLReportRenderer.render(report)
        let block = try dataBlock(html)
        #expect(!block.contains("<") && !block.contains(">") && !block.contains("&"))
        #expect(!block.contains("\u{2028}") && !block.contains("\u{2029}"))
        let data = try JSONDecoder().decode(ScriptData.self, from: Data(block.utf8))
        #expect(data.report == report)
        #expect(data.colors.count == report.timeline.categories.count)
        #expect(Set(data.radio_colors.keys) == Set(report.radio.lane.map(\.state)))
    }

    @Test func forbidsEveryExternalLoad() throws {
        let html = try HTMLReportRenderer.render(ReportFixture.realistic)
        #expect(html.contains(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">"
        ))
        // The only URL is the SVG namespace the script creates elements in.
        #expect(html.components(separatedBy: "http://").count - 1 == 1)
        #expect(!html.contains("https:"))
        #expect(html.contains("\"http://www.w3.org/2000/svg\""))
        #expect(!html.contains("src=") && !html.contains("@import") && !html.contains("url("))
    }

    @Test func escapesReportStringsInTextAndAttributes() throws {
        let report = ReportFixture.hostileReport
        let html = try HTMLReportRenderer.render(report)
        let path = report.inputs[0].path
        #expect(html.contains("<code title=\"\(escaped(path))\">\(escaped(path))</code>"))
        #expect(html.contains("<h3>\(escaped(report.findings[0].title))</h3>"))
        #expect(html.contains("<title>Drain report — \(escaped(report.model.title))</title>"))
        #expect(!html.contains(ReportFixture.payload))
        #expect(!html.contains("\"><img"))
        for control in ["\u{1B}", "\u{07}", "\u{9B}", "\u{202E}"] { #expect(!html.contains(control)) }
    }

    @Test func showsTheSummaryFiguresAndEverySection() throws {
        let html = try HTMLReportRenderer.render(ReportFixture.realistic)
        // 49.87 J total; 415.583 mW average; 3.27 %/h; peak 296 MB of 3 GB (9.9 %).
        #expect(html.contains("<div class=\"value\">49.87 J</div>"))
        #expect(html.contains("<div class=\"value\">415.6 mW</div>"))
        #expect(html.contains("<div class=\"value\">3.27 %/h</div>"))
        #expect(html.contains("<div class=\"value\">296.0 MB</div>"))
        #expect(html.contains("9.9 % of the 3.00 GB limit"))
        #expect(html.contains("<div class=\"value\">85<small>/100</small></div>"))
        for section in ["summary", "categories", "timeline", "findings", "rules", "breakdown", "endpoints", "radio", "inputs", "model"] {
            #expect(html.contains("<section id=\"\(section)\">"))
        }
        // Findings are listed errors first.
        let polling = try #require(html.range(of: "CPU-POLLING</code>")).lowerBound
        let periodic = try #require(html.range(of: "NET-PERIODIC</code>")).lowerBound
        #expect(polling < periodic)
        #expect(html.contains("data-start=\"30.000\" data-end=\"41.620\""))
    }
}
