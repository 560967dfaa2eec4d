import DrainTestSupport
import DrainTrace
import Foundation
import Testing

@testable import DrainImport

/// The inputs the fuzz harnesses (Fuzz/, docs/fuzzing.md) crashed on, minimised, each fed
/// through the API its harness calls. Fixtures/fuzz/HARNESS/ holds them; under
/// `scripts/sanitize address` these tests also catch a return of a memory error.
@Suite struct FuzzRegressionTests {
    static let fixtures = Repository.root.appendingPathComponent("Tests/DrainImportTests/Fixtures/fuzz")

    static func fixture(_ harness: String, _ name: String) throws -> [UInt8] {
        try Array(Data(contentsOf: fixtures.appendingPathComponent(harness).appendingPathComponent(name)))
    }

    @Test("an unclosed slice's name is quoted while its bytes are alive")
    func unclosedSliceName() throws {
        // The warning quoted the name through a pointer that outlived its array: a
        // heap-use-after-free (AddressSanitizer), and garbage in the message without it.
        let bytes = try Self.fixture("chrome", "unclosed-slice-name-use-after-free.json")
        let input = try ChromeTraceImporter.read(bytes: bytes, path: "fuzz.json")
        let unclosed = try #require(input.info.diagnostics.entry("unclosed-slices"))
        #expect(unclosed.message.contains("(the first: \"p:\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}un\" at ts 1.0 µs)"))
    }

    @Test("Chrome times far apart are refused, not subtracted into an overflow")
    func chromeTimesFarApart() throws {
        // Each ts was accepted, one (fast path) up to Int64.max ns: the latest minus the
        // earliest overflowed. Both paths now stop at about 4.6e15 µs.
        let failure = try chromeBadData(
            #"[{"ph":"i","name":"a","ts":-4611686018427387},{"ph":"i","name":"b","ts":9223372036854775}]"#)
        #expect(failure?.location == "line 1, column 73")
        #expect(failure?.reason == "\"ts\" is too large (at most about 4.6e15 µs)")
    }

    @Test("MetricKit windows longer than a timeline are warned about, not subtracted into an overflow")
    func metricKitWindowTooLong() throws {
        let json = #"{"timeStampBegin": "1700-01-01 00:00:00 +0000", "timeStampEnd": "2250-01-01 00:00:00 +0000", "cpuMetrics": {"cumulativeCPUTime": "1 sec"}}"#
        let input = try MetricKitImporter.read(bytes: Array(json.utf8), path: "payload.json")
        #expect(input.info.diagnostics.entry("window-too-long")?.severity == .warning)
        #expect(input.timeline.end == 0)
    }
}
