import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct CPUFragmentedRuleTests {
    let id = "CPU-FRAGMENTED"

    /// `durations.count` slices, `spacing` seconds apart from `start`.
    func slices(_ durations: [Double], spacing: Double = 0.5, from start: Double = 0, into run: inout TimelineBuilder) {
        for (index, duration) in durations.enumerated() { run.cpu(start + Double(index) * spacing, duration: duration, name: "chunk") }
    }

    func findings(_ durations: [Double], spacing: Double = 0.5) -> [Finding] {
        var run = TimelineBuilder()
        slices(durations, spacing: spacing, into: &run)
        return evaluate(run.build(end: 120)).findings(of: id)
    }

    @Test func aHundredTinyEpisodesInAMinuteAreFlagged() throws {
        #expect(findings(Array(repeating: 0.0005, count: 99)).isEmpty)
        let finding = try #require(findings(Array(repeating: 0.0005, count: 100)).first)
        #expect(finding.severity == .info)
        #expect(finding.number("episodes in window") == 100)
        #expect(abs((finding.number("median duration") ?? 0) - 0.5) < 1e-9)
        #expect(finding.number("short episodes") == 100)
        #expect(abs((finding.number("CPU time in window") ?? 0) - 0.05) < 1e-12)  // 100 × 0.5 ms
        // 100 × 0.5 ms at the model's 1.2 W active power = 0.06 J.
        #expect(abs((finding.energyJ ?? 0) - 100 * 0.0005 * 1.2) < 1e-12)
        // First start at 0 s, the last (99 × 0.5 s = 49.5 s) ends 0.5 ms later.
        #expect(finding.timeRanges == [TimeRange(startS: 0, endS: 49.5005)])
    }

    @Test func theMedianMustBeUnderTwoMilliseconds() throws {
        // 50 of 1 ms and 50 of 3 ms: the median (upper middle of 100) is 3 ms.
        #expect(findings(Array(repeating: 0.001, count: 50) + Array(repeating: 0.003, count: 50)).isEmpty)
        // 51 of 1 ms and 49 of 3 ms: the median is 1 ms.
        let finding = try #require(findings(Array(repeating: 0.001, count: 51) + Array(repeating: 0.003, count: 49)).first)
        #expect(abs((finding.number("median duration") ?? 0) - 1) < 1e-9)
        #expect(finding.number("short episodes") == 51)
        // Exactly 2 ms is not shorter than 2 ms.
        #expect(findings(Array(repeating: 0.002, count: 100)).isEmpty)
    }

    @Test func aHundredEpisodesSpanningExactlyAMinuteFitNoHalfOpenMinute() {
        #expect(findings(Array(repeating: 0.0005, count: 100), spacing: 60.0 / 99).isEmpty)
    }

    @Test func theFragmentedWindowIsReportedNotTheBusiestOne() throws {
        var run = TimelineBuilder()
        slices(Array(repeating: 0.005, count: 150), spacing: 0.3, into: &run)
        slices(Array(repeating: 0.0005, count: 120), spacing: 0.25, from: 100, into: &run)
        let finding = try #require(evaluate(run.build(end: 200)).findings(of: id).first)
        #expect(finding.number("episodes in window") == 120)
        #expect(finding.number("episodes in run") == 270)
        // 150 × 5 ms + 120 × 0.5 ms = 0.81 s.
        #expect(abs((finding.number("CPU time in run") ?? 0) - 0.81) < 1e-9)
        #expect(finding.timeRanges.first?.startS == 100)
    }

    @Test func noCPUSlicesIsNotApplicable() {
        var run = TimelineBuilder()
        run.wakeup(1)
        #expect(evaluate(run.build(end: 5)).status(of: id) == .notApplicable)
    }
}
