@testable import DrainGate
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The elements of an XML document as Foundation's parser reads them.
final class XMLElementCollector: NSObject, XMLParserDelegate {
    struct Element {
        var name: String
        var attributes: [String: String]
        var text = ""
    }

    var elements: [Element] = []
    private var open: [Int] = []

    /// The elements of `xml` in document order, or `nil` when it is not well-formed.
    static func parse(_ xml: String) -> [Element]? {
        let collector = XMLElementCollector()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = collector
        return parser.parse() ? collector.elements : nil
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String]
    ) {
        open.append(elements.count)
        elements.append(Element(name: name, attributes: attributes))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let index = open.last { elements[index].text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
    }
}

@Suite struct GateJUnitRendererTests {
    @Test func rendersTheRealisticVerdict() {
        let note3 = "note: with 3 runs on a side a difference cannot reach significance (p &lt; 0.05 needs 4 runs per side)"
        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="drain gate" tests="11" failures="2" errors="0" time="0">
              <testsuite name="drain gate: cold-start" tests="11" failures="2" errors="0" skipped="1" time="0">
                <properties>
                  <property name="drain.model" value="phone-lte"/>
                  <property name="drain.runs" value="3"/>
                  <property name="drain.baseline_runs" value="5"/>
                  <property name="drain.baseline_commit" value="0123456789abcdef0123456789abcdef01234567"/>
                  <property name="drain.baseline_branch" value="main"/>
                  <property name="drain.outcome" value="fail"/>
                </properties>
                <testcase classname="drain.gate.regression" name="regression:energy.by_category.radio" time="0">
                  <failure message="energy.by_category.radio vs baseline: 8 J → 9.5 J, Δ +1.5 J (+18.8 %), 95 % interval [+1.1 J, +1.9 J], p = 0.036; expected no increase beyond 0.8 J (max of 10 % of the baseline and 0.1 J)" type="regression">status: fail
            expected: no increase beyond 0.8 J (max of 10 % of the baseline and 0.1 J)
            found: 8 J → 9.5 J, Δ +1.5 J (+18.8 %), 95 % interval [+1.1 J, +1.9 J], p = 0.036
            \(note3)</failure>
                </testcase>
                <testcase classname="drain.gate.budget" name="budget:energy.total_j" time="0">
                  <failure message="energy.total_j ≤ 12 J: found 13.4 J (median of runs 13.1 J, 13.4 J, 14 J)" type="budget">status: fail
            expected: ≤ 12 J
            found: 13.4 J (median of runs 13.1 J, 13.4 J, 14 J)</failure>
                </testcase>
                <testcase classname="drain.gate.new_finding" name="new:NET-PERIODIC:api.example.com" time="0">
                  <system-out>status: warn
            expected: not in the baseline
            found: in 3 of 3 runs, 0 of 5 baseline runs</system-out>
                </testcase>
                <testcase classname="drain.gate.budget" name="budget:memory.peak_bytes" time="0">
                  <system-out>status: warn
            expected: ≤ 150 MB
            found: 181.2 MB (max of runs 175 MB, 181.2 MB, 178 MB)</system-out>
                </testcase>
                <testcase classname="drain.gate.regression" name="regression:wakeups.count" time="0">
                  <system-out>status: inconclusive
            expected: no increase beyond 5 (max of 10 % of the baseline and 5)
            found: 40 → 46, Δ +6 (+15 %), 95 % interval [-1, +12], p = 0.071
            \(note3)</system-out>
                </testcase>
                <testcase classname="drain.gate.regression" name="regression:scores.energy" time="0">
                  <system-out>status: improvement
            expected: no decrease beyond 6.2 (max of 10 % of the baseline and 1)
            found: 62 → 71, Δ +9 (+14.5 %), 95 % interval [+7, +11], p = 0.036
            \(note3); improved beyond the tolerance: save a new baseline (--save-baseline) to tighten it</system-out>
                </testcase>
                <testcase classname="drain.gate.resolved_finding" name="resolved:DISK-SYNC:/var/db/app.sqlite" time="0">
                  <system-out>status: improvement
            expected: in the baseline
            found: in 0 of 3 runs, 5 of 5 baseline runs</system-out>
                </testcase>
                <testcase classname="drain.gate.budget" name="budget:energy.average_mw" time="0"/>
                <testcase classname="drain.gate.findings" name="findings:CPU-POLLING" time="0"/>
                <testcase classname="drain.gate.regression" name="regression:energy.total_j" time="0"/>
                <testcase classname="drain.gate.regression" name="regression:memory.p95_bytes" time="0">
                  <skipped message="not measured in the baseline"/>
                </testcase>
                <system-out>warning: the baseline was made on another machine (Apple M2, 8 cores) than these runs (Intel Xeon, 2 cores): energy measured by a recorder or probe depends on the CPU
            warning: 3 runs against 5 baseline runs: significance needs at least 4 runs per side</system-out>
              </testsuite>
            </testsuites>

            """
        let xml = GateJUnitRenderer().render(GateVerdictFixture.realistic)
        #expect(xml == expected)
        #expect(XMLElementCollector.parse(xml) != nil)
    }

    @Test func namesTheSuiteWithoutAScenario() {
        var verdict = GateVerdictFixture.realistic
        verdict.scenario = nil
        #expect(GateJUnitRenderer().render(verdict).contains("\n  <testsuite name=\"drain gate\" tests=\"11\""))
    }

    @Test func hostileStringsStayWellFormedAndRoundTrip() throws {
        let verdict = GateVerdictFixture.hostile
        let xml = GateJUnitRenderer().render(verdict)
        #expect(!xml.contains("<img") && !xml.contains("</script") && !xml.contains("]]>"))
        for raw in ["\u{1B}", "\u{9B}", "\u{07}", "\r"] { #expect(!xml.contains(raw)) }
        let elements = try #require(XMLElementCollector.parse(xml), "the JUnit report is not well-formed XML")
        let n = GateVerdictFixture.neutralized
        func attribute(_ element: String, _ name: String) -> [String] {
            elements.filter { $0.name == element }.map { $0.attributes[name] ?? "(absent)" }
        }
        #expect(attribute("testsuite", "name") == [n("drain gate: " + verdict.scenario!)])
        #expect(attribute("testcase", "name") == verdict.checks.map { n($0.id) })
        let properties = Dictionary(uniqueKeysWithValues: zip(attribute("property", "name"), attribute("property", "value")))
        #expect(properties["drain.model"] == n(verdict.model))
        #expect(properties["drain.baseline_branch"] == n(verdict.baselineGit!.branch!))
        let failed = verdict.checks(.fail)
        #expect(attribute("failure", "message") == failed.map { n($0.statement) })
        #expect(elements.filter { $0.name == "failure" }.map(\.text) == failed.map { n($0.details) })
        #expect(attribute("skipped", "message") == verdict.checks(.skipped).map { n($0.found + "; " + $0.note!) })
        let reported = verdict.checks.filter { [.warn, .inconclusive, .improvement].contains($0.status) }
        let outputs = elements.filter { $0.name == "system-out" }.map(\.text)
        #expect(outputs == reported.map { n($0.details) } + [n(verdict.warnings.map { "warning: " + $0 }.joined(separator: "\n"))])
    }

    @Test func removesCharactersXMLForbids() {
        #expect(XML.escape("a\u{0}b\u{1F}c\u{FFFE}d\u{FFFF}e\tf\ng") == "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e\tf\ng")
        #expect(XML.escape("a\tb\nc\rd", attribute: true) == "a&#9;b&#10;c&#13;d")
        #expect(XML.escape("<&>\"'") == "&lt;&amp;&gt;&quot;&#39;")
    }
}
