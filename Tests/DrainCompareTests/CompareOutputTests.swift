import DrainCompare
import DrainRender
import DrainReport
import DrainTestSupport
import Testing

/// The Markdown, CSV and terminal outputs of a comparison: deterministic, and untrusted
/// strings (labels, endpoints, files, threads, finding keys) escaped for each.
@Suite struct CompareOutputTests {
    static let payload = "<img src=x onerror=alert(1)>|`x`\n# H\u{1B}[31m=cmd()"

    func comparison(hostile: Bool) throws -> Comparison {
        var reference = ReportFixture.realistic
        var candidate = ReportFixture.realistic
        let name = hostile ? Self.payload : "api.example.com"
        reference.endpoints = [EndpointSummary(endpoint: name, bytesUp: 1, bytesDown: 1, bursts: 1, connections: 1, energyJ: 10)]
        candidate.endpoints = [EndpointSummary(endpoint: name, bytesUp: 1, bytesDown: 1, bursts: 1, connections: 1, energyJ: 14)]
        candidate.findings = [
            Finding(
                rule: "NET-PERIODIC", area: .network, severity: .warning, title: "Periodic", message: "m", evidence: [], energyJ: 3,
                timeRanges: [], fix: "f", guidance: "g", source: "s", subject: name)
        ]
        reference.findings = []
        candidate.metrics["energy.total_j"]?.value += 2
        let labels = hostile ? [Self.payload, "after" + Self.payload] : ["before", "after"]
        return try Comparison([reference, candidate], options: ComparisonOptions(labels: labels, generator: "drain test"))
    }

    @Test func markdownListsFiguresChangesAndNewFindings() throws {
        let text = CompareMarkdownRenderer().render(try comparison(hostile: false))
        #expect(text.hasPrefix("## Drain comparison\n\n- **before** (reference): model `iphone-lte`"))
        #expect(text.contains("| endpoint | api.example.com | changed: +4.00 J (+40 %) |"))
        #expect(text.contains("| NET-PERIODIC:api.example.com — Periodic | new |"))
        #expect(text == CompareMarkdownRenderer().render(try comparison(hostile: false)))
    }

    @Test func markdownEscapesHostileNames() throws {
        let text = CompareMarkdownRenderer().render(try comparison(hostile: true))
        #expect(!text.contains("<img"))
        #expect(!text.contains("\u{1B}"))
        #expect(!text.contains("\n# H"))
        // Every table row keeps its cells: the payload's pipe is escaped.
        for line in text.split(separator: "\n") where line.hasPrefix("| endpoint") {
            #expect(line.split(separator: "|", omittingEmptySubsequences: false).count - line.components(separatedBy: "\\|").count + 1 == 5)
        }
    }

    @Test func csvTablesParseAndGuardAgainstFormulas() throws {
        let tables = CompareCSVRenderer().tables(try comparison(hostile: true))
        #expect(tables.map(\.name) == ["runs", "summary", "endpoints", "files", "threads", "findings", "timeline"])
        let endpoints = try #require(tables.first { $0.name == "endpoints" })
        #expect(endpoints.text.hasPrefix("key,run,energy_j,presence,status,delta_j,delta_pct\r\n"))
        // The payload has a line break, so it is quoted; `=cmd()` cannot start a cell.
        #expect(endpoints.text.contains("\"<img src=x onerror=alert(1)>|`x`\n# H\u{1B}[31m=cmd()\",1,14,listed,changed,4,40\r\n"))
        let timeline = try #require(tables.first { $0.name == "timeline" })
        // 60 bins of 2 s per run (both at the fixture's width), plus the header.
        #expect(timeline.text.components(separatedBy: "\r\n").count - 1 == 1 + 2 * 60)
    }

    @Test func theTerminalTableHasNoEscapesOfItsOwnWithoutColour() throws {
        let text = CompareTerminalRenderer(color: false).render(try comparison(hostile: true))
        #expect(!text.contains("\u{1B}"))
        #expect(text.contains("energy.total_j"))
        let coloured = CompareTerminalRenderer(color: true).render(try comparison(hostile: false))
        let total = try #require(coloured.split(separator: "\n").first { $0.hasPrefix("energy.total_j") })
        // 2 J more than the reference's 49.87 J: worse, so red.
        #expect(total.contains("\u{1B}[31m") && total.contains("+2.00 J (+4 %)"))
    }
}
