import DrainTestSupport
import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `drain gate` end to end: inputs and reports in, verdict files and exit codes out.
@Suite struct GateCommandTests {
    var sample: String { Repository.root.appendingPathComponent("samples/app-session.jsonl").path }
    var sampleBudget: String { Repository.root.appendingPathComponent("samples/drain-budget.yml").path }
    /// Not on GitHub, whatever machine the tests run on.
    let offGitHub: [String: String?] = ["GITHUB_ACTIONS": nil]

    func text(_ directory: URL, _ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    func write(_ text: String, _ name: String, in directory: URL) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }

    /// A trace that contacts `host` every 30 s for 10 minutes: NET-PERIODIC finds it.
    func periodicTrace(host: String, in directory: URL) throws {
        var lines = [#"{"drain_trace":1,"process":"Sync","device":"iphone-lte","start":"2026-11-24T05:00:00Z"}"#]
        let quoted = String(decoding: try JSONEncoder().encode(host), as: UTF8.self)
        for index in 0..<20 {
            let t = Double(index) * 30
            lines.append(#"{"t":\#(t),"type":"net","dir":"tx","bytes":800,"host":\#(quoted),"iface":"cellular","conn":"c1"}"#)
            lines.append(#"{"t":\#(t + 0.2),"type":"net","dir":"rx","bytes":2400,"host":\#(quoted),"iface":"cellular","conn":"c1"}"#)
        }
        try writeTrace(lines, named: "periodic.jsonl", in: directory)
    }

    @Test func theSampleAgainstItsBudgetPassesWithWarnings() throws {
        let result = try DrainCommand.run(["gate", sample, "--budget", sampleBudget, "--scenario", "sample-session"], environment: offGitHub)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("drain gate: sample-session · model iphone-lte · 1 run, no baseline · PASS"))
        #expect(result.standardOutput.contains("energy.by_category.radio ≤ 200 J: found 249 J"))
        #expect(!result.standardOutput.contains("::warning"))
    }

    @Test func aBreachedBudgetFailsWithExit1AndEveryOutput() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try write("budgets:\n  energy.total_j: {max: 100 J}\n", "budget.yml", in: directory)
        let result = try DrainCommand.run(
            ["gate", sample, "--budget", "budget.yml", "--json", "v.json", "--junit", "j.xml", "--markdown", "s.md"], in: directory,
            environment: offGitHub)
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("✗ energy.total_j ≤ 100 J: found 289 J"))
        let verdict = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("v.json"))) as? [String: Any])
        #expect(verdict["outcome"] as? String == "fail" && verdict["exit_code"] as? Int == 1 && verdict["gate_version"] as? Int == 1)
        #expect(try text(directory, "j.xml").contains("<failure"))
        #expect(try text(directory, "s.md").contains("❌"))
    }

    @Test func aSavedBaselineGatesLaterRunsAndTheSameRunsDoNotRegress() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try DrainCommand.run(["analyze", sample, "--json", "run.json", "-q"], in: directory).status == 0)
        let save = try DrainCommand.run(
            ["gate", "run.json", "run.json", "run.json", "run.json", "--save-baseline", "baseline.json", "-q"], in: directory,
            environment: offGitHub)
        #expect(save.status == 0, "\(save.standardError)")
        let baseline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("baseline.json"))) as? [String: Any])
        #expect(baseline["drain_baseline"] as? Int == 1 && baseline["model"] as? String == "iphone-lte")
        #expect((baseline["runs"] as? [Any])?.count == 4)
        #expect((baseline["host"] as? [String: Any])?["cores"] as? Int == ProcessInfo.processInfo.activeProcessorCount)
        let gate = try DrainCommand.run(
            ["gate", "run.json", "run.json", "run.json", "run.json", "--baseline", "baseline.json", "--json", "-"], in: directory,
            environment: offGitHub)
        #expect(gate.status == 0, "\(gate.standardError)")
        let verdict = try #require(try JSONSerialization.jsonObject(with: Data(gate.standardOutput.utf8)) as? [String: Any])
        let checks = try #require(verdict["checks"] as? [[String: Any]])
        #expect(checks.first { $0["id"] as? String == "regression:energy.total_j" }?["status"] as? String == "pass")
        #expect(gate.standardError.contains("PASS"))
    }

    @Test func exitCodesCannotLie() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try write("budgets:\n  energy.totl_j: {max: 12 J}\n", "bad.yml", in: directory)
        try write("model: iphone-wifi\nbudgets:\n  energy.total_j: {max: 1000 J}\n", "wifi.yml", in: directory)
        try write("{\"drain_baseline\": 2}", "future-baseline.json", in: directory)
        let cases: [([String], Int32, String)] = [
            (["gate", sample], 64, "give --budget FILE, --baseline FILE or both"),
            (["gate", "--budget", sampleBudget], 64, "Missing expected argument"),
            (["gate", sample, "--budget", "missing.yml"], 66, "missing.yml: cannot read the budget"),
            (["gate", sample, "--budget", "bad.yml"], 65, "bad.yml:2:3: budgets.energy.totl_j: unknown metric"),
            (["gate", sample, "--budget", "wifi.yml"], 65, "priced with the model iphone-lte, but the gate is pinned to iphone-wifi (the budget's model)"),
            (["gate", sample, "--baseline", "future-baseline.json"], 65, "a baseline of format 2"),
            (["gate", sample, "--baseline", "missing.json"], 66, "missing.json"),
            (["gate", "missing.jsonl", "--budget", sampleBudget], 66, "missing.jsonl"),
            (["gate", sample, "--budget", sampleBudget, "--github", "sometimes"], 64, "sometimes"),
        ]
        for (arguments, status, message) in cases {
            let result = try DrainCommand.run(arguments, in: directory, environment: offGitHub)
            #expect(result.status == status, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
        }
    }

    @Test func hostileHostNamesAreEscapedInJUnitMarkdownAndAnnotations() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let host = "<img src=x onerror=alert(1)>.evil, ::error::x%0A\"'|`"
        try periodicTrace(host: host, in: directory)
        try write("findings:\n  NET-PERIODIC: {max: 0}\n", "budget.yml", in: directory)
        let result = try DrainCommand.run(
            ["gate", "periodic.jsonl", "--budget", "budget.yml", "--junit", "j.xml", "--markdown", "s.md", "-q"], in: directory,
            environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.status == 1)
        let annotations = result.standardOutput.split(separator: "\n")
        #expect(annotations.count == 1)
        #expect(annotations[0].hasPrefix("::error title=findings budget%3A NET-PERIODIC::"))
        // The `%` of the host is escaped, so `%0A` cannot become a line break on GitHub.
        #expect(annotations[0].contains("%250A"))
        let junit = try text(directory, "j.xml")
        #expect(!junit.contains("<img"))
        let parser = XMLParser(data: Data(junit.utf8))
        #expect(parser.parse(), "JUnit is not well-formed: \(String(describing: parser.parserError))")
        let markdown = try text(directory, "s.md")
        #expect(!markdown.contains("<img"))
        #expect(markdown.contains("&lt;img src=x onerror=alert(1)&gt;"))
    }

    @Test func annotationsFollowTheGitHubMode() throws {
        let arguments = ["gate", sample, "--budget", sampleBudget, "-q"]
        let auto = try DrainCommand.run(arguments, environment: ["GITHUB_ACTIONS": "true"])
        #expect(auto.standardOutput.contains("::warning title=budget%3A energy.by_category.radio::"))
        let never = try DrainCommand.run(arguments + ["--github", "never"], environment: ["GITHUB_ACTIONS": "true"])
        #expect(never.standardOutput.isEmpty)
        let always = try DrainCommand.run(arguments + ["--github", "always"], environment: offGitHub)
        #expect(always.standardOutput.contains("::warning"))
    }
}
