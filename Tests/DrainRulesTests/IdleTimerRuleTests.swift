import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct IdleTimerRuleTests {
    let id = "IDLE-TIMER"

    func disabled(for duration: Double) -> [Finding] {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.idleTimer(5, disabled: true)
        run.idleTimer(5 + duration, disabled: false)
        return evaluate(run.build(end: 2000)).findings(of: id)
    }

    @Test func disabledForMoreThanTenMinutesIsInfo() throws {
        #expect(disabled(for: 600).isEmpty)
        let finding = try #require(disabled(for: 600.5).first)
        #expect(finding.severity == .info)
        #expect(finding.number("duration") == 600.5)
        #expect(finding.number("disabled") == 5)
        #expect(finding.number("enabled") == 605.5)
        #expect(finding.number("threshold") == 600)
        #expect(finding.energyJ == nil)
        #expect(finding.timeRanges == [TimeRange(startS: 5, endS: 605.5)])
    }

    @Test func onlyForegroundTimeCounts() throws {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.idleTimer(0, disabled: true)
        run.lifecycle(300, .background)
        run.lifecycle(400, .active)
        run.idleTimer(700, disabled: false)
        #expect(evaluate(run.build(end: 800)).status(of: id) == .pass)  // 700 s, 600 in the foreground
        run.idleTimer(800, disabled: true)
        let finding = try #require(evaluate(run.build(end: 1500)).findings(of: id).first)
        #expect(finding.texts("enabled") == ["still disabled when the run ended"])
        #expect(finding.number("duration") == 700)
    }

    @Test func repeatedSettingsDoNotRestartTheSpan() throws {
        var run = TimelineBuilder()
        run.idleTimer(0, disabled: false)
        run.idleTimer(10, disabled: true)
        run.idleTimer(400, disabled: true)
        run.idleTimer(700, disabled: false)
        run.idleTimer(710, disabled: false)
        let findings = evaluate(run.build(end: 800)).findings(of: id)
        try #require(findings.count == 1)
        #expect(findings[0].number("duration") == 690)
    }

    @Test func noIdleTimerEventsIsNotApplicable() {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        #expect(evaluate(run.build(end: 5)).status(of: id) == .notApplicable)
    }
}
