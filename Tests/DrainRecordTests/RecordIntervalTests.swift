#if os(Linux)
import Testing

@testable import DrainRecord

@Suite struct RecordIntervalTests {
    @Test func durationsInEachUnitAreExact() throws {
        #expect(try RecordInterval.parse("20ms") == 20_000_000)
        #expect(try RecordInterval.parse("0.5s") == 500_000_000)
        #expect(try RecordInterval.parse("1s") == 1_000_000_000)
        #expect(try RecordInterval.parse("2") == 2_000_000_000)
        #expect(try RecordInterval.parse("1500us") == 1_500_000)
        #expect(try RecordInterval.parse("2.5ms") == 2_500_000)
        #expect(try RecordInterval.parse("10s") == 10_000_000_000)
        #expect(try RecordInterval.parse("1ms") == 1_000_000)
    }

    @Test(arguments: ["999us", "0.5ms", "10.001s", "0s", "11s"])
    func durationsOutsideOneMillisecondToTenSecondsAreRefused(_ text: String) {
        #expect(throws: RecordError.usage("--interval \(text) is out of range: between 1ms and 10s")) {
            try RecordInterval.parse(text)
        }
    }

    @Test(arguments: ["", "ms", "fast", "20 ms", "-5ms", "1e3ms", "1.ms", "20min", "1.2.3s"])
    func textThatIsNotADurationIsAUsageError(_ text: String) {
        #expect {
            try RecordInterval.parse(text)
        } throws: { error in
            guard let error = error as? RecordError, case .usage(let message) = error else { return false }
            return message.contains("is not a duration") && error.exitCode == 64
        }
    }
}
#endif
