import DrainRender
import DrainReport
import DrainTestSupport
import Foundation
import Testing

@Suite struct ReportLoadingTests {
    private func write(_ text: String, name: String = "report.json") throws -> (directory: URL, path: String) {
        let directory = try makeTemporaryDirectory()
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return (directory, url.path)
    }

    private func loadError(_ text: String) throws -> ReportLoadError {
        let file = try write(text)
        defer { try? FileManager.default.removeItem(at: file.directory) }
        do {
            _ = try Report.load(path: file.path)
        } catch {
            return error
        }
        Issue.record("loaded \(text.prefix(60))")
        return ReportLoadError(path: "", problem: .notAReport("loaded"))
    }

    @Test(arguments: ReportFixture.names)
    func everyFixtureReportRoundTripsThroughItsJSON(name: String) throws {
        let report = ReportFixture.named(name)
        let file = try write(try JSONReportRenderer.render(report))
        defer { try? FileManager.default.removeItem(at: file.directory) }
        let loaded = try Report.load(path: file.path)
        #expect(loaded == report)
        #expect(try JSONReportRenderer.render(loaded) == JSONReportRenderer.render(report))
    }

    @Test func aMissingFileIsUnreadable() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("nope.json").path
        #expect(throws: ReportLoadError(path: path, problem: .unreadable("No such file or directory"))) {
            try Report.load(path: path)
        }
        #expect(ReportLoadError(path: path, problem: .unreadable("x")).exitCode == 66)
    }

    @Test func malformedJSONNamesLineAndColumn() throws {
        // The second comma of line 3 is its 11th character.
        let error = try loadError("{\n  \"schema_version\": 1,\n  \"x\": [1,,2]\n}\n")
        guard case let .malformedJSON(line, column, _) = error.problem else {
            Issue.record("\(error)")
            return
        }
        #expect(line == 3)
        #expect(column == 11)
        #expect(error.exitCode == 65)
        #expect(error.description.contains("report.json:3:11: not valid JSON"))
    }

    @Test func anotherSchemaVersionIsRefusedBeforeDecoding() throws {
        let error = try loadError("{\"schema_version\": 2, \"something\": \"new\"}")
        #expect(error.problem == .unsupportedSchema(2))
        #expect(error.exitCode == 65)
        #expect(error.description.contains("schema_version 2"))
        #expect(error.description.contains("reads schema_version 1"))
    }

    @Test(arguments: [
        ("[1, 2, 3]", "the top level is not a JSON object"),
        ("{\"traceEvents\": []}", "it has no \"schema_version\""),
        ("{\"schema_version\": \"1\"}", "\"schema_version\" is not a whole number"),
        ("{\"schema_version\": 1.5}", "\"schema_version\" is not a whole number"),
    ])
    func jsonThatIsNotADrainReportIsSaidSo(text: String, reason: String) throws {
        let error = try loadError(text)
        #expect(error.problem == .notAReport(reason))
        #expect(error.exitCode == 65)
    }

    @Test func aMissingOrMistypedValueIsNamedByItsKeyPath() throws {
        let json = try JSONReportRenderer.render(ReportFixture.realistic)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        object.removeValue(forKey: "metrics")
        let missing = try loadError(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        #expect(missing.problem == .invalid(path: "metrics", reason: "missing"))

        object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        var energy = try #require(object["energy"] as? [String: Any])
        energy["total_j"] = "twelve"
        object["energy"] = energy
        let mistyped = try loadError(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        #expect(mistyped.problem == .invalid(path: "energy.total_j", reason: "expected a number"))
        #expect(mistyped.description.hasSuffix("invalid Drain report at energy.total_j: expected a number"))
    }
}
