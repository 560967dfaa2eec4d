import DrainTestSupport
import Foundation
import Testing

@Suite struct CommandLineTests {
    var sample: String { Repository.root.appendingPathComponent("samples/app-session.jsonl").path }

    @Test func analyzeWritesEveryFormatAndPrintsTheSummary() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try DrainCommand.run([
            "analyze", sample, "--json", "r.json", "--html", "r.html", "--markdown", "r.md", "--csv", "tables",
        ], in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Energy"))
        for name in ["r.json", "r.html", "r.md", "tables/summary.csv", "tables/findings.csv", "tables/timeline.csv"] {
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path), "\(name)")
        }
        let json = try Data(contentsOf: directory.appendingPathComponent("r.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(object["schema_version"] as? Int == 1)
        let energy = try #require(object["energy"] as? [String: Any])
        let byCategory = try #require(energy["by_category"] as? [String: Double])
        let total = try #require(energy["total_j"] as? Double)
        #expect(abs(byCategory.values.reduce(0, +) - total) < 1e-6 * total)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    @Test func sameInputGivesByteIdenticalJSONAndCSV() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for run in ["1", "2"] {
            let result = try DrainCommand.run(["analyze", sample, "--quiet", "--json", "\(run).json", "--csv", "csv\(run)"], in: directory)
            #expect(result.status == 0)
        }
        let first = try Data(contentsOf: directory.appendingPathComponent("1.json"))
        #expect(first == (try Data(contentsOf: directory.appendingPathComponent("2.json"))))
        let tables = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("csv1").path).sorted()
        #expect(tables.count >= 6)
        for table in tables {
            let a = try Data(contentsOf: directory.appendingPathComponent("csv1/\(table)"))
            let b = try Data(contentsOf: directory.appendingPathComponent("csv2/\(table)"))
            #expect(a == b, "\(table)")
        }
    }

    @Test func jsonToStandardOutputIsTheOnlyThingThere() throws {
        let result = try DrainCommand.run(["analyze", sample, "--json", "-"])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        #expect(object?["findings"] != nil)
        #expect(result.standardError.contains("Energy"))
    }

    @Test func missingFileExits66NamingIt() throws {
        let result = try DrainCommand.run(["analyze", "/nonexistent/trace.jsonl"])
        #expect(result.status == 66)
        #expect(result.standardError.contains("/nonexistent/trace.jsonl"))
        #expect(result.standardOutput.isEmpty)
    }

    @Test func garbageExits65WithLocationAndWritesNoReport() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try writeTrace(
            [#"{"drain_trace":1}"#, #"{"t":1,"type":"cpu","dur":0.1}"#, #"{"t":2,"type":"cpu","dur":}"#, #"{"t":3,"type":"mark"}"#],
            named: "bad.jsonl", in: directory)
        let result = try DrainCommand.run(["analyze", trace.path, "--json", "out.json", "--html", "out.html"], in: directory)
        #expect(result.status == 65)
        #expect(result.standardError.contains("bad.jsonl"))
        #expect(result.standardError.contains("line 3"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.json").path))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.html").path))
    }

    @Test func truncatedLastLineIsAnalysedUpToTheDamage() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("cut.jsonl")
        try (#"{"drain_trace":1}"# + "\n" + #"{"t":1,"type":"cpu","dur":0.5}"# + "\n" + #"{"t":2,"type":"cp"#)
            .write(to: url, atomically: true, encoding: .utf8)
        let result = try DrainCommand.run(["analyze", url.path, "--json", "-"])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let inputs = try #require(object["inputs"] as? [[String: Any]])
        #expect(inputs.first?["events"] as? Int == 1)
        let diagnostics = try #require(inputs.first?["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.contains { $0["code"] as? String == "truncated" })
    }

    @Test func hostileStringsAreEscapedInHTML() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let evil = #"</script><script>alert(1)</script><img src=x onerror=alert(2)>"#
        let escaped = evil.replacingOccurrences(of: "\"", with: "\\\"")
        let lines = [
            #"{"drain_trace":1,"process":"\#(escaped)"}"#,
            #"{"t":0,"type":"lifecycle","state":"active"}"#,
        ] + (0..<25).map { #"{"t":\#(Double($0) * 0.5),"type":"disk","op":"write","bytes":100,"path":"/tmp/\#(escaped)"}"# }
        let trace = try writeTrace(lines, named: "evil.jsonl", in: directory)
        let result = try DrainCommand.run(["analyze", trace.path, "--quiet", "--html", "r.html", "--json", "r.json"], in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        let html = try String(contentsOf: directory.appendingPathComponent("r.html"), encoding: .utf8)
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("<img src=x"))
        let json = try Data(contentsOf: directory.appendingPathComponent("r.json"))
        let object = try JSONSerialization.jsonObject(with: json) as? [String: Any]
        let inputs = object?["inputs"] as? [[String: Any]]
        #expect(inputs?.first?["process"] as? String == evil)
    }

    @Test func badUsageExits64() throws {
        #expect(try DrainCommand.run(["analyze"]).status == 64)
        #expect(try DrainCommand.run(["analyze", sample, "--bin", "-1"]).status == 64)
        #expect(try DrainCommand.run(["analyze", sample, "--no-such-option"]).status == 64)
        for bad in ["30s", "1x", "2 h"] {
            let gap = try DrainCommand.run(["analyze", sample, "--gap-threshold", bad])
            #expect(gap.status == 64)
            #expect(gap.standardError.contains("--gap-threshold takes a duration of at least 1m"))
        }
        #expect(try DrainCommand.run(["analyze", sample, "--gap-threshold", "90m", "--json", "-"]).status == 0)
        let unknownModel = try DrainCommand.run(["analyze", sample, "--model", "no-such-phone"])
        #expect(unknownModel.status == 64)
        #expect(unknownModel.standardError.contains("no-such-phone"))
    }

    @Test func invalidModelFileExits65NamingTheKey() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = try String(contentsOf: Repository.root.appendingPathComponent("models/iphone-lte.yaml"), encoding: .utf8)
        let broken = directory.appendingPathComponent("broken.yaml")
        try original.replacingOccurrences(of: "promotion_s:", with: "promotoin_s:").write(to: broken, atomically: true, encoding: .utf8)
        let result = try DrainCommand.run(["analyze", sample, "--model", broken.path])
        #expect(result.status == 65)
        #expect(result.standardError.contains("promotoin_s"))
    }

    @Test func configDisablesRulesAndOverridesThresholds() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("rules.yaml")
        try "rules:\n  CPU-POLLING: { enabled: false }\n  MEM-PEAK: { warning_share: 0.01 }\n"
            .write(to: config, atomically: true, encoding: .utf8)
        let result = try DrainCommand.run(["analyze", sample, "--config", config.path, "--json", "-"])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let rules = try #require(object["rules"] as? [[String: Any]])
        #expect(rules.first { $0["id"] as? String == "CPU-POLLING" }?["status"] as? String == "disabled")
        // The sample peaks near 5 % of the limit: above a 1 % warning share.
        #expect(rules.first { $0["id"] as? String == "MEM-PEAK" }?["status"] as? String == "warning")
        let thresholds = try #require(object["thresholds"] as? [[String: Any]])
        let share = thresholds.first { $0["rule"] as? String == "MEM-PEAK" && $0["parameter"] as? String == "warning_share" }
        #expect(share?["value"] as? Double == 0.01)
        #expect(share?["origin"] as? String == "config")
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(!findings.contains { $0["rule"] as? String == "CPU-POLLING" })
    }

    @Test func invalidConfigExits65NamingTheRule() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("rules.yaml")
        try "rules:\n  NET-TELEPATHY: { enabled: false }\n".write(to: config, atomically: true, encoding: .utf8)
        let result = try DrainCommand.run(["analyze", sample, "--config", config.path])
        #expect(result.status == 65)
        #expect(result.standardError.contains("rules.yaml:2"))
        #expect(result.standardError.contains("NET-TELEPATHY"))
        #expect(try DrainCommand.run(["analyze", sample, "--config", "/nonexistent/rules.yaml"]).status == 66)
    }

    @Test func unwritableOutputExits73AndLeavesNothing() throws {
        let result = try DrainCommand.run(["analyze", sample, "--quiet", "--json", "/nonexistent-dir/r.json"])
        #expect(result.status == 73)
        #expect(result.standardError.contains("/nonexistent-dir/r.json"))
    }

    @Test func modelsListAndShow() throws {
        let list = try DrainCommand.run(["models", "list"])
        #expect(list.status == 0)
        for name in ["iphone-lte", "iphone-wifi", "android-pixel-lte", "iphone-5g-nsa"] { #expect(list.standardOutput.contains(name)) }
        let show = try DrainCommand.run(["models", "show", "iphone-lte"])
        #expect(show.status == 0)
        #expect(show.standardOutput.contains("lte.conf"))
        #expect(try DrainCommand.run(["models", "show", "nope"]).status == 64)
    }
}
