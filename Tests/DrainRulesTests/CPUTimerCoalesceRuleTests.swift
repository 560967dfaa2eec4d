import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct CPUTimerCoalesceRuleTests {
    let id = "CPU-TIMER-COALESCE"

    /// Two 1 s timers with tolerance: `clock` fires at 0, 1, …, `count - 1`; `status` fires
    /// `offset` later, `statusCount` times.
    func twoTimers(count: Int = 10, statusCount: Int = 10, offset: Double = 0.5) -> [Finding] {
        var run = TimelineBuilder()
        for second in 0..<count { run.timer(Double(second), name: "clock", interval: 1, tolerance: 0.1) }
        for second in 0..<statusCount { run.timer(Double(second) + offset, name: "status", interval: 1, tolerance: 0.1) }
        return evaluate(run.build(end: Double(count))).findings(of: id)
    }

    @Test func timersHalfAPeriodApartCouldShareEveryOtherWakeup() throws {
        let findings = twoTimers()
        try #require(findings.count == 1)
        let finding = findings[0]
        // 20 fires at 20 distinct instants. Aligned, a fire may move up to half its 1 s
        // period later: the clock fire at k moves to k + 0.5 and shares the status fire's
        // wakeup, so 10 wakeups serve all 20 fires.
        #expect(finding.severity == .warning)
        #expect(finding.number("timers") == 2)
        #expect(finding.number("fires") == 20)
        #expect(finding.number("wakeups now") == 20)
        #expect(finding.number("wakeups aligned") == 10)
        #expect(finding.number("wakeups removed") == 10)
        #expect(finding.number("removed share") == 50)
        // Saving: 10 wakeups × the model's 3.95 mJ; energy: all 20 fires at 3.95 mJ each.
        #expect(abs((finding.number("saving") ?? 0) - 10 * TestModel.wakeupJ) < 1e-12)
        #expect(abs((finding.energyJ ?? 0) - 20 * TestModel.wakeupJ) < 1e-12)
        #expect(finding.texts("timer") == [
            "clock: every 1.000 s, tolerance 0.100 s, 10 fires", "status: every 1.000 s, tolerance 0.100 s, 10 fires",
        ])
        #expect(finding.timeRanges == [TimeRange(startS: 0, endS: 9.5)])
    }

    @Test func aWarningNeedsMoreThanThirtyPercentRemoved() throws {
        // clock at 0…6 (7 fires), status at 0.5, 1.5, 2.5: 10 wakeups now; each status fire
        // shares the clock's wakeup at k + 0.5, so 7 aligned: 3 of 10 removed, exactly 30 %.
        let atThreshold = try #require(twoTimers(count: 7, statusCount: 3).first)
        #expect(atThreshold.number("wakeups now") == 10)
        #expect(atThreshold.number("wakeups aligned") == 7)
        #expect(atThreshold.severity == .info)
        // A fourth status fire: 11 now, 7 aligned, 4 / 11 = 36.4 % removed.
        let above = try #require(twoTimers(count: 7, statusCount: 4).first)
        #expect(above.number("wakeups removed") == 4)
        #expect(abs((above.number("removed share") ?? 0) - 400.0 / 11) < 1e-9)
        #expect(above.severity == .warning)
    }

    @Test func firesWithinOneMillisecondAlreadyShareAWakeup() {
        #expect(twoTimers(offset: 0.0005).isEmpty)
        #expect(twoTimers(offset: 0.001).isEmpty)
        #expect(twoTimers(offset: 0.002).first?.number("wakeups now") == 20)
    }

    @Test func aSlowTimerOffTheBeatOfAFastOneIsInfo() throws {
        var run = TimelineBuilder()
        for second in 0..<60 { run.timer(Double(second), name: "clock", interval: 1, tolerance: 0.1) }
        for tick in 0..<6 { run.timer(Double(tick) * 10 + 0.3, name: "refresh", interval: 10, tolerance: 1) }
        let finding = try #require(evaluate(run.build(end: 60)).findings(of: id).first)
        // 66 wakeups now; each refresh fire may move up to 5 s and meets the clock's next
        // fire 0.7 s later: 60 aligned, 6 removed, 6 / 66 = 9.1 %.
        #expect(finding.number("wakeups now") == 66)
        #expect(finding.number("wakeups aligned") == 60)
        #expect(abs((finding.number("removed share") ?? 0) - 600.0 / 66) < 1e-9)
        #expect(finding.severity == .info)
        #expect(finding.texts("timer").first == "clock: every 1.000 s, tolerance 0.100 s, 60 fires")
    }

    @Test func zeroToleranceIsReportedEvenForOneTimer() throws {
        var run = TimelineBuilder()
        for tick in 0..<5 { run.timer(Double(tick) * 2, name: "poll", interval: 2) }
        for tick in 0..<5 { run.timer(Double(tick) * 2, name: "save", interval: 2, tolerance: 0.2) }
        let findings = evaluate(run.build(end: 10)).findings(of: id)
        try #require(findings.count == 1)
        #expect(findings[0].title == "Repeating timers without tolerance")
        #expect(findings[0].severity == .info)
        #expect(findings[0].number("timers without tolerance") == 1)
        #expect(findings[0].texts("timer") == ["poll: every 2.000 s, tolerance 0.000 s, 5 fires"])
        #expect(findings[0].timeRanges == [TimeRange(startS: 0, endS: 8)])
    }

    @Test func onlyRepeatingTimersUpToSixtySecondsAreJudged() {
        func single(interval: Double, repeats: Bool) -> RuleResult.Status? {
            var run = TimelineBuilder()
            for tick in 0..<3 { run.timer(Double(tick) * interval, name: "t", interval: interval, repeats: repeats) }
            return evaluate(run.build(end: 3 * interval)).status(of: id)
        }
        #expect(single(interval: 60, repeats: true) == .info)
        #expect(single(interval: 60.001, repeats: true) == .pass)
        #expect(single(interval: 1, repeats: false) == .pass)
    }

    @Test func noTimersIsNotApplicable() {
        var run = TimelineBuilder()
        run.wakeup(1, reason: "io")
        #expect(evaluate(run.build(end: 5)).status(of: id) == .notApplicable)
    }
}
