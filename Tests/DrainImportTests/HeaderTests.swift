import DrainTrace
import Testing

@testable import DrainImport

/// The header line: version, process, device hint and wall-clock start.
@Suite("Drain trace header")
struct HeaderTests {
    @Test("header fields reach the input info and the timeline")
    func fields() throws {
        let input = try importTrace([
            #"{"drain_trace":1,"process":"Weather","pid":4242,"device":"iphone-lte","start":"2026-11-22T10:00:00.000Z"}"#,
            #"{"t":1,"type":"memory_warning"}"#,
        ])
        #expect(input.info.format == "drain-trace")
        #expect(input.info.process == "Weather")
        #expect(input.info.deviceHint == "iphone-lte")
        // 2026-11-22 is day 20 779 since 1970-01-01: 56 years of 365 days, 14 leap days
        // (1972 … 2024), then 325 days for January to 21 November 2026.
        let days: Int64 = 56 * 365 + 14 + (31 + 28 + 31 + 30 + 31 + 30 + 31 + 31 + 30 + 31) + 21
        #expect(days == 20_779)
        let expected = (days * 86_400 + 10 * 3600) * 1_000_000_000
        #expect(input.info.wallClockStart == expected)
        #expect(input.timeline.wallClockStart == expected)
    }

    @Test(
        "RFC 3339 start times",
        arguments: [
            ("1970-01-01T00:00:00Z", 0),
            ("1970-01-01t00:00:01z", 1_000_000_000),
            ("1970-01-01 00:00:00.123456789Z", 123_456_789),
            ("1970-01-01T00:00:00.1234567891Z", 123_456_789),
            ("1970-01-01T01:00:00+01:00", 0),
            ("1969-12-31T23:00:00-01:00", 0),
            ("2000-02-29T00:00:00Z", 951_782_400_000_000_000),
            ("1969-12-31T23:59:59.5Z", -500_000_000),
        ] as [(String, Int64)])
    func startTimes(_ text: String, _ nanoseconds: Int64) throws {
        let input = try importTrace([#"{"drain_trace":1,"start":""# + text + #""}"#])
        #expect(input.info.wallClockStart == nanoseconds)
    }

    @Test("without start there is no wall clock; header-only traces are empty")
    func minimal() throws {
        let input = try importTrace([#"{"drain_trace":1}"#])
        #expect(input.timeline.isEmpty && input.info.events == 0)
        #expect(input.info.wallClockStart == nil && input.timeline.wallClockStart == nil)
        #expect(input.info.process == nil && input.info.deviceHint == nil)
    }

    @Test("a byte order mark and blank lines before the header are skipped")
    func byteOrderMark() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("\n  \n{\"drain_trace\":1}\n\n{\"t\":0,\"type\":\"frame\",\"changed\":false}\n".utf8)
        let input = try importTrace(bytes: bytes)
        #expect(input.timeline.count == 1)
    }

    @Test("a newer major version is refused, naming both versions")
    func newerVersion() throws {
        let failure = try badData([#"{"drain_trace":2,"process":"Next"}"#, #"{"t":0,"type":"cpu","dur":1}"#])
        #expect(failure?.location == "line 1, column 16")
        #expect(failure?.reason == "this trace is drain_trace version 2, newer than this reader, which reads version 1 and older; use a newer drain")
    }

    @Test(
        "bad versions",
        arguments: [#"{"drain_trace":0}"#, #"{"drain_trace":1.5}"#, #"{"drain_trace":-1}"#])
    func badVersion(_ line: String) throws {
        let failure = try badData([line])
        #expect(failure?.location == "line 1, column 16")
        #expect(failure?.reason == "\"drain_trace\" must be a whole number ≥ 1 (the format's major version)")
    }

    @Test("a version that is not a number")
    func versionType() throws {
        let failure = try badData([#"{"drain_trace":"1"}"#])
        #expect(failure?.location == "line 1, column 16")
        #expect(failure?.reason == "\"drain_trace\" must be a number, found a string")
    }

    @Test("a trace that starts with an event has no header")
    func eventFirst() throws {
        let failure = try badData([#"{"t":0,"type":"cpu","dur":1}"#])
        #expect(failure?.location == "line 1, column 1")
        #expect(failure?.reason.hasPrefix("missing header: this line is an event") == true)
    }

    @Test("a first line that is some other JSON object is not a header")
    func otherObject() throws {
        let failure = try badData(["", #"   {"traceEvents":[]}"#])
        #expect(failure?.location == "line 2, column 4")
        #expect(failure?.reason.hasPrefix("missing header: a Drain trace starts with a header line") == true)
    }

    @Test("a malformed start names the column inside the string")
    func badStart() throws {
        let failure = try badData([#"{"drain_trace":1,"start":"2026-13-01T00:00:00Z"}"#])
        // The month begins 5 bytes into the string, whose text starts at column 27.
        #expect(failure?.location == "line 1, column 32")
        #expect(failure?.reason.contains("month 13 is not 1 to 12") == true)
        let noZone = try badData([#"{"drain_trace":1,"start":"2026-11-22T10:00:00"}"#])
        #expect(noZone?.location == "line 1, column 46")
        #expect(noZone?.reason.contains("expected a time zone") == true)
        let february = try badData([#"{"drain_trace":1,"start":"2025-02-29T10:00:00Z"}"#])
        #expect(february?.reason.contains("day 29 does not exist in month 2 of 2025") == true)
    }

    @Test(
        "a start outside the years 64-bit nanoseconds hold is an error, not an overflow",
        arguments: ["9999-12-31T23:59:59Z", "2262-04-11T23:47:17Z", "0001-01-01T00:00:00Z", "1677-09-21T00:12:43Z"])
    func startOutOfRange(_ text: String) throws {
        let failure = try badData([#"{"drain_trace":1,"start":""# + text + #""}"#])
        #expect(failure?.location == "line 1, column 27")
        #expect(failure?.reason.contains("is outside 1677 to 2262, the years a time in nanoseconds holds") == true)
    }

    @Test("start times at the ends of what 64-bit nanoseconds hold are read")
    func startAtTheLimits() throws {
        let last = try importTrace([#"{"drain_trace":1,"start":"2262-04-11T23:47:16.854775807Z"}"#])
        #expect(last.info.wallClockStart == .max)
        let first = try importTrace([#"{"drain_trace":1,"start":"1677-09-21T00:12:44Z"}"#])
        #expect(first.info.wallClockStart == -9_223_372_036_000_000_000)
    }

    @Test("unknown header fields are ignored with a diagnostic")
    func unknownHeaderField() throws {
        let input = try importTrace([#"{"drain_trace":1,"recorder":{"name":"drain record","version":[1,2]}}"#])
        let diagnostic = try #require(input.info.diagnostics.entry("unknown-field"))
        #expect(diagnostic.severity == .info && diagnostic.count == 1)
        #expect(diagnostic.location == "line 1, column 18")
        #expect(diagnostic.message.contains("\"recorder\" is not part of the header"))
    }
}
