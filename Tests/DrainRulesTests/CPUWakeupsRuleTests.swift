import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct CPUWakeupsRuleTests {
    let id = "CPU-WAKEUPS"

    /// `count` wakeups spread evenly over `[start, start + span)`.
    func wakeups(_ run: inout TimelineBuilder, count: Int, from start: Double, over span: Double, source: String) {
        for index in 0..<count { run.wakeup(start + Double(index) * span / Double(count), reason: "timer", source: source) }
    }

    @Test func foregroundRateExactlyAtTheThresholdPasses() {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        wakeups(&run, count: 50, from: 0, over: 10, source: "tick")  // 50 / 10 s = 5.0 per second
        let evaluation = evaluate(run.build(end: 10))
        #expect(evaluation.findings(of: id).isEmpty)
        #expect(evaluation.status(of: id) == .pass)
    }

    @Test func foregroundRateJustAboveTheThresholdWarnsWithHandComputedEvidence() throws {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        wakeups(&run, count: 51, from: 0, over: 10, source: "tick")  // 51 / 10 s = 5.1 per second
        let finding = try #require(evaluate(run.build(end: 10)).findings(of: id).first)
        #expect(finding.severity == .warning)
        #expect(finding.texts("state") == ["foreground"])
        #expect(finding.number("wakeups") == 51)
        #expect(finding.number("time in state") == 10)
        #expect(abs((finding.number("foreground rate") ?? 0) - 5.1) < 1e-12)
        #expect(finding.number("threshold") == 5)
        // Each wakeup is priced at the model's wakeup energy: 51 × 3.95 mJ = 0.20145 J.
        #expect(abs((finding.energyJ ?? 0) - 51 * TestModel.wakeupJ) < 1e-12)
        #expect(finding.timeRanges == [TimeRange(startS: 0, endS: 10)])
    }

    @Test func ratesPerStateUseTheTimeSpentInEachState() throws {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        wakeups(&run, count: 30, from: 0, over: 10, source: "ui")  // foreground 10 s: 3 per second
        run.lifecycle(10, .background)
        wakeups(&run, count: 24, from: 10, over: 20, source: "sync")  // background 20 s: 1.2 per second
        for index in 0..<6 { run.timer(10.5 + Double(index) * 3, name: "heartbeat", interval: 3) }  // +6 → 30 / 20 s = 1.5
        let evaluation = evaluate(run.build(end: 30))
        let findings = evaluation.findings(of: id)
        try #require(findings.count == 1)
        let finding = findings[0]
        #expect(finding.texts("state") == ["background"])
        #expect(finding.number("wakeups") == 30)
        #expect(finding.number("time in state") == 20)
        #expect(abs((finding.number("foreground rate") ?? 0) - 3.0) < 1e-12)
        #expect(abs((finding.number("background rate") ?? 0) - 1.5) < 1e-12)
        #expect(finding.texts("top source") == ["sync: 24 wakeups", "heartbeat: 6 wakeups"])
        #expect(finding.timeRanges == [TimeRange(startS: 10, endS: 30)])
    }

    @Test func backgroundRateExactlyAtTheThresholdPasses() {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.lifecycle(5, .background)
        wakeups(&run, count: 20, from: 5, over: 20, source: "sync")  // 20 / 20 s = 1.0 per second
        #expect(evaluate(run.build(end: 25)).status(of: id) == .pass)
    }

    @Test func suspendedTimeCountsAsBackground() throws {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.lifecycle(5, .background)
        run.lifecycle(10, .suspended)
        wakeups(&run, count: 30, from: 5, over: 20, source: "sync")  // 30 / 20 s of background and suspended
        let finding = try #require(evaluate(run.build(end: 25)).findings(of: id).first)
        #expect(finding.number("time in state") == 20)
        #expect(finding.number("background rate") == 1.5)
    }

    @Test func aStateShorterThanTheMinimumIsNotRated() {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        wakeups(&run, count: 10, from: 0, over: 10, source: "ui")
        run.lifecycle(10, .background)
        wakeups(&run, count: 3, from: 10, over: 0.5, source: "sync")  // 3 in 0.5 s would be 6 per second
        let evaluation = evaluate(run.build(end: 10.5))
        #expect(evaluation.findings(of: id).isEmpty)
        #expect(evaluation.status(of: id) == .pass)
    }

    @Test func aRunTooShortToRateIsNotApplicable() throws {
        var run = TimelineBuilder()
        wakeups(&run, count: 5, from: 0, over: 0.5, source: "ui")
        let result = try #require(evaluate(run.build(end: 0.5)).result(of: id))
        #expect(result.status == .notApplicable)
        #expect(result.reason?.contains("too short") == true)
    }

    @Test func aRunWithoutLifecycleEventsCountsAsForeground() throws {
        var run = TimelineBuilder()
        for index in 0..<40 { run.poll(Double(index) * 0.25, source: "fd 5", interval: 0.25) }  // 40 / 10 s = 4 per second
        let evaluation = evaluate(run.build(end: 10))
        #expect(evaluation.findings(of: id).isEmpty)
    }

    @Test func theSystemLimitIsCheckedOverTheBusiestWindow() throws {
        // limit 10 per second over 10 s → more than 100 wakeups within any 10 s window is an error.
        let config = try configuration("rules: { CPU-WAKEUPS: { limit_per_s: 10, limit_window_s: 10 } }")
        func run(_ count: Int) -> RuleEvaluation {
            var run = TimelineBuilder()
            run.lifecycle(0, .active)
            wakeups(&run, count: count, from: 50, over: 9.9, source: "spin")
            return evaluate(run.build(end: 100), configuration: config)
        }
        #expect(run(100).findings(of: id).allSatisfy { $0.severity != .error })
        let over = run(101).findings(of: id)
        let error = try #require(over.first { $0.severity == .error })
        #expect(error.number("wakeups in window") == 101)
        #expect(error.number("window rate") == 10.1)
        #expect(error.texts("top source") == ["spin: 101 wakeups"])
        #expect(error.timeRanges.first?.startS == 50)
    }

    @Test func noWakeupsIsNotApplicable() {
        var run = TimelineBuilder()
        run.cpu(0, duration: 2)
        #expect(evaluate(run.build(end: 10)).status(of: id) == .notApplicable)
    }
}
