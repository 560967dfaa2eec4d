import DrainGate
import Testing

@Suite struct MetricUnitTests {
    @Test(arguments: [
        (MetricUnit.joules, "12 J", 12.0), (.joules, "500mJ", 0.5), (.joules, "1 Wh", 3_600), (.joules, "2 mWh", 7.2),
        (.milliwatts, "150 mW", 150), (.milliwatts, "1.5 W", 1_500), (.bytes, "180 MB", 180_000_000),
        (.bytes, "1 MiB", 1_048_576), (.bytes, "64 KB", 64_000), (.batteryPercentPerHour, "2.5 %/h", 2.5),
        (.perSecond, "0.5 /s", 0.5), (.perSecond, "30/min", 0.5), (.seconds, "250 ms", 0.25), (.seconds, "2 min", 120),
        (.count, "3", 3), (.ratio, "80%", 0.8), (.ratio, "0.8", 0.8), (.joules, "4", 4), (.joules, "1e3 J", 1_000),
    ])
    func parsesAQuantityIntoTheBaseUnit(unit: MetricUnit, text: String, value: Double) throws {
        let parsed = try #require(unit.parse(text))
        #expect(abs(parsed - value) <= 1e-12 * max(1, abs(value)))
    }

    @Test(arguments: [
        (MetricUnit.bytes, "12 J"), (.joules, "180 MB"), (.milliwatts, "12 J"), (.count, "3 J"), (.joules, "twelve"),
        (.joules, "J"), (.joules, "inf J"), (.joules, ""),
        // Finite as written, infinite once scaled to the base unit.
        (.bytes, "1e308 MB"), (.joules, "1e308 Wh"),
    ])
    func refusesAUnitThatDoesNotFit(unit: MetricUnit, text: String) {
        #expect(unit.parse(text) == nil)
    }

    @Test func formatsForPeople() {
        #expect(MetricUnit.joules.format(13.4) == "13.4 J")
        #expect(MetricUnit.joules.format(0.123456) == "0.123 J")
        #expect(MetricUnit.bytes.format(181_234_567) == "181.2 MB")
        #expect(MetricUnit.milliwatts.format(152) == "152 mW")
        #expect(MetricUnit.count.format(3) == "3")
        #expect(MetricUnit.ratio.format(0.812) == "81.2 %")
        #expect(MetricUnit.joules.format(-1.25) == "-1.25 J")
        // A hostile report's value past what fixed notation holds is written, not trapped on.
        #expect(MetricUnit.joules.format(1e30) == "1e+30 J")
        #expect(MetricUnit.count.format(-2.5e20) == "-2.5e+20")
    }
}
