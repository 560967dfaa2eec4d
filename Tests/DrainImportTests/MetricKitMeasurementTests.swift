import Testing

@testable import DrainImport

/// Every tolerant spelling of a MetricKit value and time stamp.
@Suite struct MetricKitMeasurementTests {
    static func value(_ text: String, _ dimension: MeasurementParser.Dimension) -> Double? {
        try? MeasurementParser.value(text, as: dimension).get()
    }

    @Test(arguments: [
        ("20 secs.", 20.0), ("20 sec", 20), ("20 s", 20), ("1 second", 1), ("2 seconds", 2), ("20sec", 20),
        ("30,000 ms", 30), ("250 msec", 0.25), ("1 millisecond", 0.001), ("1,5 sec", 1.5), ("1.5 secs.", 1.5),
        ("2 min", 120), ("2 mins.", 120), ("1 minute", 60), ("1 hr", 3600), ("2 hrs", 7200), ("1 h", 3600),
        ("3 hours", 10_800), ("500 µs", 0.0005), ("20 SEC", 20), ("\u{00A0}20\u{00A0}sec.\u{00A0}", 20),
    ])
    func durations(_ text: String, _ seconds: Double) {
        #expect(Self.value(text, .duration) == seconds, "\(text)")
    }

    @Test(arguments: [
        ("2,000 byte", 2000.0), ("2000 byte", 2000), ("1 B", 1), ("3 bytes", 3), ("200,000 kB", 200_000_000),
        ("200000 kB", 200_000_000), ("80,000 KB", 80_000_000), ("1 KiB", 1024), ("2 MB", 2_000_000),
        ("1 MiB", 1_048_576), ("1 GB", 1e9), ("1 GiB", 1_073_741_824), ("1.300.000 kB", 1.3e9),
        ("1.300,5 kB", 1_300_500), ("1,300.5 kB", 1_300_500), ("80'000 kB", 80_000_000), ("80’000 kB", 80_000_000),
        ("80\u{00A0}000 kB", 80_000_000), ("80\u{202F}000 kB", 80_000_000), ("80 000 kB", 80_000_000),
        ("2 kilobytes", 2000), ("\u{0668}\u{0660} kB", 80_000), ("1.300 kB", 1300),
    ])
    func bytes(_ text: String, _ bytes: Double) {
        #expect(Self.value(text, .bytes) == bytes, "\(text)")
    }

    @Test func instructions() {
        #expect(Self.value("1,000 kiloinstructions", .instructions) == 1_000_000)
        #expect(Self.value("5 instructions", .instructions) == 5)
    }

    @Test func unreadableValuesSayWhy() {
        #expect(MeasurementParser.value("sec", as: .duration) == .failure(.noNumber))
        #expect(MeasurementParser.value("20", as: .duration) == .failure(.noUnit))
        #expect(MeasurementParser.value("20 kB", as: .duration) == .failure(.unknownUnit("kb")))
        #expect(MeasurementParser.value("-5 sec", as: .duration) == .failure(.noNumber))
        // Groups after a thousands separator hold three digits.
        #expect(MeasurementParser.value("1,00,000 kB", as: .bytes) == .failure(.noNumber))
        #expect(MeasurementParser.value("1,000.000,5 kB", as: .bytes) == .failure(.noNumber))
    }

    @Test func timeStampsWithAndWithoutAZone() throws {
        // 2020-10-10 is day 18,545 since 1970-01-01: 50 years of 365 days plus 12 leap days
        // (1972…2016) is 18,262, then January to September 2020 (a leap year) is 274 days,
        // and the 10th is 9 days on.
        let day: Int64 = 18_262 + 274 + 9
        let expected = (day * 86_400 + 19 * 3600 + 35 * 60 + 24) * 1_000_000_000
        #expect(MetricKitTimestamp("2020-10-10 19:35:24 +0000") == MetricKitTimestamp(nanoseconds: expected, hasZone: true))
        #expect(MetricKitTimestamp("2020-10-10T19:35:24Z") == MetricKitTimestamp(nanoseconds: expected, hasZone: true))
        #expect(MetricKitTimestamp("2020-10-10 21:35:24 +02:00")?.nanoseconds == expected)
        #expect(MetricKitTimestamp("2020-10-10 12:35:24 -0700")?.nanoseconds == expected)
        #expect(MetricKitTimestamp("2020-10-10 19:35:24 GMT")?.nanoseconds == expected)
        #expect(MetricKitTimestamp("2020-10-10 19:35:24.5 UTC")?.nanoseconds == expected + 500_000_000)
        #expect(MetricKitTimestamp("2020-10-10 19:35:24") == MetricKitTimestamp(nanoseconds: expected, hasZone: false))
        #expect(MetricKitTimestamp("1970-01-01 00:00:00 +0000")?.nanoseconds == 0)
        // The last two are beyond the years 64-bit nanoseconds hold (they used to overflow).
        for bad in [
            "2020-13-10 19:35:24", "2021-02-29 00:00:00", "2020-10-10", "yesterday", "2020-10-10 19:35:24 +25",
            "9999-12-31 23:59:59 +0000", "0001-01-01 00:00:00 +0000",
        ] {
            #expect(MetricKitTimestamp(bad) == nil, "\(bad)")
        }
    }
}
