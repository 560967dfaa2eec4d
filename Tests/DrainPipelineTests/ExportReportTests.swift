import DrainReport
import DrainTestSupport
import Foundation
import Testing

/// `drain export` with a saved report, and `--drain-trace` from the command line.
@Suite struct ExportReportTests {
    var sample: String { Repository.root.appendingPathComponent("samples/app-session.jsonl").path }

    private func events(_ url: URL) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        return try #require(object["traceEvents"] as? [[String: Any]])
    }

    @Test func aSavedReportExportsItsBinsRadioLifecycleAndFindings() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try DrainCommand.run(["analyze", sample, "--json", "report.json", "-q"], in: directory).status == 0)
        let result = try DrainCommand.run(["export", "--chrome", "trace.json", "report.json"], in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        let report = try Report.load(path: directory.appendingPathComponent("report.json").path)
        let events = try events(directory.appendingPathComponent("trace.json"))

        // The last `energy (J)` sample holds each category's total over every bin. The ledger
        // keeps Float joules; summed per bin rather than at once they agree to Float precision.
        let energy = try #require(events.last { $0["name"] as? String == "energy (J)" }?["args"] as? [String: Double])
        for (category, joules) in report.energy.byCategory where joules > 0 {
            let exported = try #require(energy[category], "\(category)")
            #expect(abs(exported - joules) <= 1e-5 * max(1, joules), "\(category): \(exported) vs \(joules)")
        }
        let radioSlices = events.filter { $0["ph"] as? String == "X" && $0["cat"] as? String == "drain.priced" }
        #expect(radioSlices.count == report.radio.lane.filter { $0.endS > $0.startS }.count)
        let lifecycle = events.filter { $0["cat"] as? String == "drain.lifecycle" }
        #expect(lifecycle.map { $0["name"] as? String } == report.timeline.lifecycle.map { "lifecycle: \($0.state)" })
        let findings = events.filter { $0["cat"] as? String == "drain.finding" }
        #expect(findings.count == report.findings.reduce(0) { $0 + max(1, $1.timeRanges.count) })
        let keys = Set(findings.compactMap { ($0["args"] as? [String: Any])?["key"] as? String })
        #expect(keys == Set(report.findings.map(\.key)))
        let memory = events.filter { $0["name"] as? String == "memory" }
        #expect(memory.count == report.timeline.memoryPeakBytes.compactMap { $0 }.count)
    }

    @Test func aSavedReportCannotBeWrittenAsADrainTrace() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try DrainCommand.run(["analyze", sample, "--json", "report.json", "-q"], in: directory).status == 0)
        let result = try DrainCommand.run(["export", "--drain-trace", "out.jsonl", "report.json"], in: directory)
        #expect(result.status == 64)
        #expect(result.standardError.contains("holds no events"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.jsonl").path))
    }

    @Test func exportWithoutAnOutputIsAUsageError() throws {
        let result = try DrainCommand.run(["export", sample])
        #expect(result.status == 64)
        #expect(result.standardError.contains("--chrome FILE, --drain-trace FILE or both"))
    }

    @Test func theDrainTraceExportAnalysesToTheSameRun() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let export = try DrainCommand.run(["export", "--drain-trace", "merged.jsonl", "--chrome", "run.json", sample], in: directory)
        #expect(export.status == 0, "\(export.standardError)")
        #expect(try DrainCommand.run(["analyze", sample, "--json", "a.json", "-q"], in: directory).status == 0)
        #expect(try DrainCommand.run(["analyze", "merged.jsonl", "--json", "b.json", "-q"], in: directory).status == 0)
        let original = try Report.load(path: directory.appendingPathComponent("a.json").path)
        let exported = try Report.load(path: directory.appendingPathComponent("b.json").path)
        for (category, joules) in original.energy.byCategory {
            #expect(abs((exported.energy.byCategory[category] ?? -1) - joules) <= 1e-9 * max(1, joules), "\(category)")
        }
        #expect(exported.findings.map(\.key) == original.findings.map(\.key))
        #expect(!(try events(directory.appendingPathComponent("run.json"))).isEmpty)
    }
}
