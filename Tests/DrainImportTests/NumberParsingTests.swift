import DrainTrace
import Testing

@testable import DrainImport

/// Seconds are converted to nanoseconds from their decimal digits, exactly.
@Suite("Drain trace numbers")
struct NumberParsingTests {
    /// The `t` of a one-event trace, in nanoseconds.
    func time(_ text: String) throws -> Nanoseconds {
        try importTrace([header, #"{"t":"# + text + #","type":"memory_warning"}"#]).timeline[0].time
    }

    @Test(
        "seconds to nanoseconds",
        arguments: [
            ("0", 0),
            ("1", 1_000_000_000),
            ("1.000000001", 1_000_000_001),
            ("0.1", 100_000_000),
            // 0.3 has no exact binary form; 0.3 * 1e9 in Double is 299999999.99999994.
            ("0.3", 300_000_000),
            ("12345.678901234", 12_345_678_901_234),
            ("0.000000001", 1),
            ("2.5e-3", 2_500_000),
            ("1E2", 100_000_000_000),
            ("15e-1", 1_500_000_000),
            ("0.0000000005", 1),  // half a nanosecond rounds up
            ("0.0000000004999", 0),
            ("1.9999999999", 2_000_000_000),
            ("9223372036.854775807", 9_223_372_036_854_775_807),  // Int64.max nanoseconds
            ("0.5e0", 500_000_000),
            ("0.12345678901234567890123", 123_456_789),
            ("-0", 0),
        ] as [(String, Int64)])
    func seconds(_ text: String, _ nanoseconds: Int64) throws {
        #expect(try time(text) == nanoseconds)
    }

    @Test("a number past Int64 nanoseconds is too large, with its column")
    func tooLarge() throws {
        let failure = try badData([header, #"{"t":9223372037,"type":"memory_warning"}"#])
        #expect(failure?.location == "line 2, column 6")
        #expect(failure?.reason.contains("\"t\" is too large") == true)
    }

    @Test("a span that ends past Int64 nanoseconds is too large, at its dur")
    func spanEndTooLarge() throws {
        // Found by the drain-trace fuzz harness: each number fits, their sum overflowed.
        let failure = try badData([header, #"{"t":9000000000,"type":"cpu","name":"x","dur":9000000000}"#])
        #expect(failure?.location == "line 2, column 47")
        #expect(failure?.reason == "\"t\" plus \"dur\" is too large (the event must end by about 9.2e9 seconds)")
        let mark = try badData([header, #"{"t":1,"type":"mark","name":"x","dur":9223372036}"#])
        #expect(mark?.reason.contains("\"t\" plus \"dur\" is too large") == true)
        // The last nanosecond the clock holds is a valid end.
        let last = try importTrace([header, #"{"t":1,"type":"cpu","name":"x","dur":9223372035.854775807}"#])
        #expect(last.timeline.end == .max)
    }

    @Test("byte counts are whole numbers, exponents allowed")
    func counts() throws {
        let input = try importTrace([
            header,
            #"{"t":0,"type":"net","dir":"tx","bytes":1e6}"#,
            #"{"t":0,"type":"net","dir":"tx","bytes":9223372036854775807}"#,
            #"{"t":0,"type":"net","dir":"tx","bytes":2.0}"#,
        ])
        #expect(input.timeline.amount == [1_000_000, Int64.max, 2])
        let failure = try badData([header, #"{"t":0,"type":"net","dir":"tx","bytes":1.5}"#])
        #expect(failure?.location == "line 2, column 40")
        #expect(failure?.reason == "\"bytes\" must be a whole number")
        let overflow = try badData([header, #"{"t":0,"type":"memory","footprint":9223372036854775808}"#])
        #expect(overflow?.reason.contains("\"footprint\" is too large") == true)
    }

    @Test("real-valued fields read as the nearest Double")
    func reals() throws {
        let input = try importTrace([
            header,
            #"{"t":0,"type":"sensor","kind":"gyro","action":"start","rate_hz":59.94}"#,
            #"{"t":0,"type":"timer","interval":1,"tolerance":1e-1}"#,
            #"{"t":0,"type":"location","action":"start","accuracy_m":-2,"distance_filter_m":12345678901234567890.5}"#,
        ])
        #expect(input.timeline[0].value == 59.94)
        #expect(input.timeline[1].value == 0.1)
        #expect(input.timeline[2].value == -2)
        #expect(input.timeline[2].value2 == 12_345_678_901_234_567_890.5)
        let huge = try badData([header, #"{"t":0,"type":"sensor","kind":"gyro","action":"start","rate_hz":1e400}"#])
        #expect(huge?.reason == "\"rate_hz\" is too large")
    }
}
