import DrainTestSupport
import Foundation
import Testing

/// `drain compare` end to end.
@Suite struct CompareCommandTests {
    var before: String { Repository.root.appendingPathComponent("samples/app-session.jsonl").path }
    var after: String { Repository.root.appendingPathComponent("samples/app-session-fixed.jsonl").path }

    @Test func theSampleAndItsFixedVariantCompareInEveryFormat() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let table = try DrainCommand.run(["compare", before, after, "--label", "before", "--label", "after"], in: directory)
        #expect(table.status == 0, "\(table.standardError)")
        #expect(table.standardOutput.contains("reference: before"))
        #expect(table.standardOutput.contains("energy.by_category.radio"))
        let files = try DrainCommand.run(
            ["compare", before, after, "--json", "c.json", "--markdown", "c.md", "--csv", "csv", "-q"], in: directory)
        #expect(files.status == 0, "\(files.standardError)")
        #expect(files.standardOutput.isEmpty)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("c.json"))) as? [String: Any])
        #expect(json["comparison_version"] as? Int == 1)
        let findings = try #require(json["findings"] as? [[String: Any]])
        // The fixed variant syncs on push and batches its draft writes: those findings are resolved.
        let resolved = findings.filter { ($0["status"] as? [String])?.last == "resolved" }.compactMap { $0["key"] as? String }
        #expect(resolved.contains("NET-PERIODIC:api.syncnotes.example"))
        #expect(resolved.contains { $0.hasPrefix("DISK-FREQUENT:") })
        let summary = try #require(json["summary"] as? [[String: Any]])
        let total = try #require(summary.first { $0["name"] as? String == "energy.total_j" })
        let values = try #require(total["values"] as? [Double])
        #expect(values[1] < values[0])
        #expect(try String(contentsOf: directory.appendingPathComponent("c.md"), encoding: .utf8).hasPrefix("## Drain comparison"))
        let tables = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("csv").path).sorted()
        #expect(tables == ["endpoints.csv", "files.csv", "findings.csv", "runs.csv", "summary.csv", "threads.csv", "timeline.csv"])
    }

    @Test func savedReportsAndInputsCompareAlike() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try DrainCommand.run(["analyze", before, "--json", "before.json", "-q"], in: directory).status == 0)
        let fromInputs = try DrainCommand.run(["compare", before, after, "--json", "-", "-q"], in: directory)
        let fromReport = try DrainCommand.run(["compare", "before.json", after, "--label", "app-session.jsonl", "--json", "-", "-q"], in: directory)
        #expect(fromInputs.status == 0 && fromReport.status == 0)
        let left = try #require(try JSONSerialization.jsonObject(with: Data(fromInputs.standardOutput.utf8)) as? [String: Any])
        let right = try #require(try JSONSerialization.jsonObject(with: Data(fromReport.standardOutput.utf8)) as? [String: Any])
        #expect((left["summary"] as? NSArray) == (right["summary"] as? NSArray))
        #expect((left["findings"] as? NSArray) == (right["findings"] as? NSArray))
    }

    @Test func runsAlignAtAMark() throws {
        let result = try DrainCommand.run(["compare", before, before, "--align", "mark:end of session", "--json", "-", "-q"])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let runs = try #require(json["runs"] as? [[String: Any]])
        #expect(runs.map { $0["anchor_s"] as? Double } == [480, 480])
        let timeline = try #require(json["timeline"] as? [String: Any])
        let difference = try #require(timeline["difference"] as? [[Double]])
        // The same run against itself: no difference anywhere.
        #expect(difference[1].allSatisfy { $0 == 0 })
    }

    @Test func misuseAndBadInputsHaveTheirExitCodes() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("{\n  \"schema_version\" : 3\n}\n".utf8).write(to: directory.appendingPathComponent("future.json"))
        let cases: [([String], Int32, String)] = [
            (["compare", before], 64, "give at least two runs to compare"),
            (["compare", before, after, "--align", "middle"], 64, "--align takes start, mark:NAME or state:STATE"),
            (["compare", before, after, "--bin", "1.5"], 64, "--bin 1.5 s is not a whole multiple of every run's bin width (1 s, 1 s)"),
            (["compare", before, after, "--label", "a", "--label", "b", "--label", "c"], 64, "3 labels for 2 runs"),
            (["compare", before, "missing.jsonl"], 66, "missing.jsonl"),
            (["compare", before, "future.json"], 65, "schema_version 3"),
        ]
        for (arguments, status, message) in cases {
            let result = try DrainCommand.run(arguments, in: directory)
            #expect(result.status == status, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
        }
    }
}
