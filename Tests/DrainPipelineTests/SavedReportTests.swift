import DrainRender
import DrainReport
import DrainTestSupport
import Foundation
import Testing

/// A report JSON saved by `drain analyze --json` is a source like the inputs it came from.
@Suite struct SavedReportTests {
    var sample: String { Repository.root.appendingPathComponent("samples/app-session.jsonl").path }

    private func savedSampleReport(in directory: URL) throws -> String {
        let result = try DrainCommand.run(["analyze", sample, "--json", "saved.json", "-q"], in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        return directory.appendingPathComponent("saved.json").path
    }

    private func text(_ directory: URL, _ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func aSavedReportRendersToTheSameOutputsAsItsInputs() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = try savedSampleReport(in: directory)
        let fromInputs = try DrainCommand.run(
            ["analyze", sample, "--csv", "csv-inputs", "--markdown", "inputs.md", "--html", "inputs.html", "-q"], in: directory)
        #expect(fromInputs.status == 0)
        let fromReport = try DrainCommand.run(
            ["analyze", saved, "--json", "again.json", "--csv", "csv-report", "--markdown", "report.md", "--html", "report.html"],
            in: directory)
        #expect(fromReport.status == 0, "\(fromReport.standardError)")
        #expect(fromReport.standardOutput.contains("Energy"))
        #expect(try text(directory, "again.json") == text(directory, "saved.json"))
        #expect(try text(directory, "report.md") == text(directory, "inputs.md"))
        #expect(try text(directory, "report.html") == text(directory, "inputs.html"))
        let tables = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("csv-inputs").path).sorted()
        #expect(tables.contains("metrics.csv"))
        for table in tables {
            #expect(try text(directory, "csv-report/\(table)") == text(directory, "csv-inputs/\(table)"), "\(table)")
        }
    }

    @Test func aSavedReportPrintsItsJSONToStandardOutput() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = try savedSampleReport(in: directory)
        let result = try DrainCommand.run(["analyze", saved, "--json", "-"], in: directory)
        #expect(result.status == 0)
        #expect(result.standardOutput == (try text(directory, "saved.json")))
        #expect(result.standardError.contains("Energy"))
    }

    @Test(arguments: [
        (["--model", "iphone-wifi"], "was priced with the model iphone-lte"),
        (["--config", "rules.yml"], "--config applies to an analysis"),
        (["--bin", "5"], "--bin applies to an analysis"),
        (["--link", "wifi"], "--link applies to an analysis"),
        (["--device-ip", "10.0.0.2"], "--device-ip applies to an analysis"),
    ])
    func analysisOptionsWithASavedReportAreAUsageError(options: [String], message: String) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = try savedSampleReport(in: directory)
        let result = try DrainCommand.run(["analyze", saved] + options, in: directory)
        #expect(result.status == 64)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    @Test func theReportsOwnModelIsAccepted() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = try savedSampleReport(in: directory)
        let result = try DrainCommand.run(["analyze", saved, "--model", "iphone-lte", "-q"], in: directory)
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test func aSavedReportCannotBeMixedWithInputs() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = try savedSampleReport(in: directory)
        let result = try DrainCommand.run(["analyze", sample, saved], in: directory)
        #expect(result.status == 64)
        #expect(result.standardError.contains("is a saved report; it cannot be analysed together with other inputs"))
    }

    @Test(arguments: [
        ("{\n  \"schema_version\" : 7,\n  \"generator\" : \"drain 9.0.0\"\n}\n", "a Drain report of schema_version 7"),
        ("{\n  \"schema_version\" : 1,\n  \"energy\" : {,}\n}\n", "bad.json:3:15: not valid JSON"),
        ("{\n  \"schema_version\" : 1\n}\n", "invalid Drain report at active_duration_s: missing"),
    ])
    func aBrokenReportIsExit65NamingTheFile(content: String, message: String) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(content.utf8).write(to: directory.appendingPathComponent("bad.json"))
        let result = try DrainCommand.run(["analyze", "bad.json", "--json", "out.json"], in: directory)
        #expect(result.status == 65)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.json").path))
    }

    @Test func everyFileRendererHasAnOptionDescribedByItsHelp() throws {
        let help = try DrainCommand.run(["analyze", "--help"])
        let flattened = help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for renderer in ReportRenderers.fileRenderers {
            #expect(flattened.contains("--\(renderer.identifier) <\(ReportRenderers.valueName(renderer))>"), "\(renderer.identifier)")
            #expect(flattened.contains(renderer.description), "\(renderer.identifier)")
        }
    }

    @Test func everyFileRendererWritesThroughItsOption() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var arguments = ["analyze", sample, "-q"]
        for renderer in ReportRenderers.fileRenderers { arguments += ["--\(renderer.identifier)", "out-\(renderer.identifier)"] }
        let result = try DrainCommand.run(arguments, in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        for renderer in ReportRenderers.fileRenderers {
            var isDirectory: ObjCBool = false
            let path = directory.appendingPathComponent("out-\(renderer.identifier)").path
            #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), "\(renderer.identifier)")
            #expect(isDirectory.boolValue == (renderer.destination == .directory))
        }
    }
}
