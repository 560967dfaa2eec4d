import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct ResignQuietRuleTests {
    let id = "LIFE-RESIGN-QUIET"

    @Test func timersNewCPUWorkAndGPUWorkWhileInactiveAreCounted() throws {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.cpu(9.5, duration: 1, name: "running-before")  // started before the resign: not new
        run.lifecycle(10, .inactive)
        run.timer(11, name: "refresh", interval: 1, tolerance: 0.1)
        run.timer(12, name: "refresh", interval: 1, tolerance: 0.1)
        run.cpu(12, duration: 0.1, name: "parse")
        run.gpu(12.5, duration: 0.01, name: "frame")
        run.wakeup(13, reason: "io")  // not one of the counted kinds
        run.net(13, .rx, bytes: 100, host: "example.org")
        run.lifecycle(14, .active)
        run.timer(15, name: "refresh", interval: 1, tolerance: 0.1)  // active again
        let findings = evaluate(run.build(end: 20)).findings(of: id)
        try #require(findings.count == 1)
        let finding = findings[0]
        #expect(finding.severity == .warning)
        #expect(finding.number("resigned active") == 10)
        #expect(finding.number("inactive for") == 4)
        #expect(finding.number("events") == 4)
        #expect(finding.texts("event kinds") == ["cpu 1, timer 2, gpu 1"])
        #expect(finding.number("timer fires") == 2)
        #expect(abs((finding.number("CPU time") ?? 0) - 0.1) < 1e-12)
        #expect(abs((finding.number("GPU time") ?? 0) - 0.01) < 1e-12)
        #expect(finding.texts("work") == ["refresh: 2", "frame: 1", "parse: 1"])
        // Two fires at 3.95 mJ, 0.1 s of CPU at 1.2 W and 0.01 s of GPU at the model's 0.5 W.
        #expect(abs((finding.energyJ ?? 0) - (2 * TestModel.wakeupJ + 0.1 * 1.2 + 0.01 * 0.5)) < 1e-12)
        #expect(finding.timeRanges == [TimeRange(startS: 11, endS: 12.51)])
    }

    @Test func workAfterMovingToTheBackgroundIsNotCounted() {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.lifecycle(10, .inactive)
        run.lifecycle(10.5, .background)
        run.cpu(11, duration: 0.1, name: "save")
        #expect(evaluate(run.build(end: 20)).status(of: id) == .pass)
    }

    @Test func eachResignIsAnOccurrenceAndTheLastLastsToTheEnd() throws {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.lifecycle(5, .inactive)
        run.cpu(6, duration: 0.1)
        run.lifecycle(7, .active)
        run.lifecycle(10, .inactive)
        run.gpu(15, duration: 0.1)
        let timeline = run.build(end: 20)
        // The rule merges its findings as it makes them; the engine leaves them as they are.
        let found = ruleFindings(ResignQuietRule.self, timeline)
        #expect(evaluate(timeline).findings(of: id) == found)
        try #require(found.count == 1)
        #expect(found[0].number("occurrences") == 2)
        #expect(found[0].number("resigned active") == 5 && found[0].number("inactive for") == 2)
        #expect(found[0].timeRanges == [TimeRange(startS: 6, endS: 6.1), TimeRange(startS: 15, endS: 15.1)])
        // The second resign alone: open until the run ends at 20 s.
        var last = TimelineBuilder()
        last.lifecycle(0, .active)
        last.lifecycle(10, .inactive)
        last.gpu(15, duration: 0.1)
        let alone = ruleFindings(ResignQuietRule.self, last.build(end: 20))
        #expect(alone.map { $0.number("resigned active") } == [10])
        #expect(alone.map { $0.number("inactive for") } == [10])
    }

    @Test func inactiveBeforeTheFirstActiveIsLaunchNotAResign() {
        var run = TimelineBuilder()
        run.lifecycle(0, .inactive)
        run.cpu(0.5, duration: 0.4)
        run.lifecycle(1, .active)
        #expect(evaluate(run.build(end: 5)).status(of: id) == .notApplicable)
    }

    @Test func minEventsIsConfigurable() throws {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.lifecycle(1, .inactive)
        run.timer(2, name: "t", interval: 1, tolerance: 0.1)
        run.timer(3, name: "t", interval: 1, tolerance: 0.1)
        let timeline = run.build(end: 5)
        #expect(evaluate(timeline).status(of: id) == .warning)
        #expect(evaluate(timeline, configuration: try configuration("rules: { LIFE-RESIGN-QUIET: { min_events: 3 } }")).status(of: id) == .pass)
    }
}
