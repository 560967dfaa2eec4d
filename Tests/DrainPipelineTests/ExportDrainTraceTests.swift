import DrainImport
import DrainPipeline
import DrainTestSupport
import DrainTrace
import Foundation
import Testing

/// `drain export --drain-trace`: the merged run written as a Drain trace analyses as the
/// same run.
@Suite struct ExportDrainTraceTests {
    static var sample: String { Repository.root.appendingPathComponent("samples/app-session.jsonl").path }
    static var strace: String { Corpus.root.appendingPathComponent("strace/python_http_roundtrip.strace").path }

    /// Exports `inputs`, analyses the export and the inputs, and compares the reports.
    /// `sameEnd`: whether the run ends at its last event; an strace log's run ends when the
    /// process exits, which the Drain trace format has no field for.
    private func expectSameRun(_ inputs: [String], sameEnd: Bool = true) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let exported = directory.appendingPathComponent("export.jsonl")
        try DrainTraceExport.render(AnalysisOptions(inputs: inputs)).write(to: exported, atomically: true, encoding: .utf8)
        let original = try Analysis.run(AnalysisOptions(inputs: inputs))
        let reread = try Analysis.run(AnalysisOptions(inputs: [exported.path]))
        #expect(reread.model == original.model)
        if sameEnd {
            #expect(reread.durationS == original.durationS)
        } else {
            #expect(reread.durationS <= original.durationS && reread.durationS > 0.99 * original.durationS)
        }
        #expect(!original.energy.byCategory.isEmpty)
        #expect(reread.energy.byCategory.keys.sorted() == original.energy.byCategory.keys.sorted())
        for (category, joules) in original.energy.byCategory {
            #expect(abs((reread.energy.byCategory[category] ?? -1) - joules) <= 1e-9 * max(1, joules), "\(category)")
        }
        #expect(reread.findings.map(\.rule) == original.findings.map(\.rule))
        #expect(reread.findings.map(\.severity) == original.findings.map(\.severity))
        for (read, expected) in zip(reread.findings, original.findings) {
            #expect(abs((read.energyJ ?? 0) - (expected.energyJ ?? 0)) <= 1e-9 * max(1, expected.energyJ ?? 0), "\(expected.rule)")
        }
    }

    @Test func theBundledSampleExportsToTheSameRun() throws {
        try expectSameRun([Self.sample])
    }

    @Test func anStraceLogExportsToTheSameRun() throws {
        try expectSameRun([Self.strace], sameEnd: false)
    }

    /// Every row of the merged timeline is a line, in order, with the header's wall-clock
    /// start and process.
    @Test func everyEventIsALineOfTheReadableTrace() throws {
        let text = try DrainTraceExport.render(AnalysisOptions(inputs: [Self.sample]))
        let original = try DrainTraceImporter.read(path: Self.sample)
        let lines = text.split(separator: "\n")
        #expect(lines.count == original.timeline.count + 1)
        #expect(lines[0].hasPrefix(#"{"drain_trace":1,"process":"SyncNotes""#))
        let reread = try DrainTraceImporter.read(bytes: Array(text.utf8), path: "export.jsonl")
        #expect(reread.info.diagnostics.isEmpty)
        #expect(reread.timeline.wallClockStart == original.timeline.wallClockStart)
        #expect(reread.timeline.time == original.timeline.time)
        #expect(reread.timeline.kind == original.timeline.kind)
        #expect(reread.timeline.amount == original.timeline.amount)
        #expect(reread.timeline.duration == original.timeline.duration)
    }
}
