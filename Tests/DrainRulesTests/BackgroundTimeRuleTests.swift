import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct BackgroundTimeRuleTests {
    let id = "LIFE-BACKGROUND-TIME"

    func workAfterBackground(at delay: Double, duration: Double = 0) -> RuleEvaluation {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.lifecycle(10, .background)
        run.cpu(10 + delay, duration: duration, name: "flush")
        return evaluate(run.build(end: 30))
    }

    @Test func workExactlyAtTheGraceLimitIsAllowed() {
        #expect(workAfterBackground(at: 5).status(of: id) == .pass)
    }

    @Test func workJustAfterTheGraceIsAnError() throws {
        let finding = try #require(workAfterBackground(at: 5.001).findings(of: id).first)
        #expect(finding.severity == .error)
        #expect(finding.number("entered background") == 10)
        #expect(abs((finding.number("work until") ?? 0) - 5.001) < 1e-9)
        #expect(finding.number("events") == 1)
        #expect(finding.texts("event kinds") == ["cpu 1"])
    }

    @Test func aSliceRunningPastTheGraceCounts() throws {
        let finding = try #require(workAfterBackground(at: 4, duration: 2).findings(of: id).first)
        #expect(finding.number("work until") == 6)
        // A 2 s slice at the model's 1.2 W active power: 2.4 J.
        #expect(abs((finding.energyJ ?? 0) - 2.4) < 1e-9)
    }

    @Test func workInsideATaskIsCoveredAndWorkAfterItsEndIsNot() throws {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.lifecycle(10, .background)
        run.backgroundTask(10, .start, id: "save")
        run.disk(17, .write, bytes: 1000, path: "/d/state")
        run.backgroundTask(20, .stop, id: "save")
        run.net(21, .tx, bytes: 500, host: "example.org")
        run.disk(22, .write, bytes: 1000, path: "/d/state")
        let findings = evaluate(run.build(end: 30)).findings(of: id)
        try #require(findings.count == 1)
        #expect(findings[0].number("events") == 2)
        #expect(findings[0].texts("event kinds") == ["net 1, disk 1"])
        #expect(findings[0].timeRanges == [TimeRange(startS: 21, endS: 22)])
    }

    @Test func eachBackgroundStretchIsAnOccurrenceOfOneFinding() throws {
        var run = TimelineBuilder()
        run.lifecycle(0, .background)
        run.cpu(6, duration: 0.1)
        run.lifecycle(10, .active)
        run.cpu(12, duration: 0.1)
        run.lifecycle(20, .background)
        run.cpu(24, duration: 0.1)
        run.cpu(26, duration: 0.1)
        let timeline = run.build(end: 30)
        // The rule merges its findings as it makes them; the engine leaves them as they are.
        let found = ruleFindings(BackgroundTimeRule.self, timeline)
        #expect(evaluate(timeline).findings(of: id) == found)
        try #require(found.count == 1)
        let merged = found[0]
        // The first stretch's figures; the work at 24.0–24.1 s is within the second stretch's grace.
        #expect(merged.number("occurrences") == 2)
        #expect(merged.number("entered background") == 0 && merged.number("work until") == 6.1)
        #expect(merged.timeRanges == [TimeRange(startS: 6, endS: 6.1), TimeRange(startS: 26, endS: 26.1)])
        // Each 0.1 s CPU slice at the model's active power.
        let cpuJ = TestModel.phone.cpu.activeW.value * 0.1
        #expect(nearly(merged.energyJ, 2 * cpuJ))
    }

    func task(open: Double, close: Double, backgroundAt: Double = 0) -> RuleEvaluation {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.lifecycle(backgroundAt, .background)
        run.backgroundTask(open, .start, id: "upload")
        run.backgroundTask(close, .stop, id: "upload")
        return evaluate(run.build(end: 100))
    }

    @Test func aTaskOfExactlyThirtySecondsIsAllowed() {
        #expect(task(open: 10, close: 40).status(of: id) == .pass)
    }

    @Test func aLongerTaskIsAnErrorWithItsDurations() throws {
        let finding = try #require(task(open: 10, close: 40.5).findings(of: id).first)
        #expect(finding.title == "Background task too long")
        #expect(finding.texts("task") == ["upload"])
        #expect(finding.number("began") == 10)
        #expect(finding.number("ended") == 40.5)
        #expect(finding.number("duration") == 30.5)
        #expect(finding.number("background time") == 30.5)
        #expect(finding.timeRanges == [TimeRange(startS: 10, endS: 40.5)])
    }

    @Test func onlyTheTasksBackgroundTimeCounts() throws {
        // Open 20 s in the foreground, then 25 s in the background: 25 s ≤ 30 s.
        #expect(task(open: 10, close: 55, backgroundAt: 30).status(of: id) == .pass)
        let finding = try #require(task(open: 10, close: 65, backgroundAt: 30).findings(of: id).first)
        #expect(finding.number("duration") == 55)
        #expect(finding.number("background time") == 35)
    }

    @Test func aTaskStillOpenAtTheEndIsMeasuredToTheEnd() throws {
        var run = TimelineBuilder()
        run.lifecycle(0, .background)
        run.backgroundTask(1, .start, id: "sync")
        let finding = try #require(evaluate(run.build(end: 40)).findings(of: id).first)
        #expect(finding.number("run ended") == 40)
        #expect(finding.number("background time") == 39)
        #expect(finding.message.contains("still open"))
    }

    @Test func anExpiredTaskIsOneErrorEvenWhenItWasAlsoLong() throws {
        var run = TimelineBuilder()
        run.lifecycle(0, .background)
        run.backgroundTask(1, .start, id: "upload")
        run.backgroundTask(41, .expire, id: "upload")
        let findings = evaluate(run.build(end: 50)).findings(of: id)
        try #require(findings.count == 1)
        #expect(findings[0].title == "Background task expired")
        #expect(findings[0].number("expired") == 41)
        #expect(findings[0].number("duration") == 40)
    }

    @Test func anExpiryWithoutABeginIsStillReported() throws {
        var run = TimelineBuilder()
        run.lifecycle(0, .background)
        run.backgroundTask(3, .expire, id: "orphan")
        let finding = try #require(evaluate(run.build(end: 10)).findings(of: id).first)
        #expect(finding.number("began") == nil)
        #expect(finding.timeRanges == [TimeRange(startS: 3, endS: 3)])
    }

    @Test func tasksWithoutLifecycleEventsAreMeasuredBeginToEnd() throws {
        var run = TimelineBuilder()
        run.backgroundTask(0, .start, id: "job")
        run.backgroundTask(31, .stop, id: "job")
        let finding = try #require(evaluate(run.build(end: 40)).findings(of: id).first)
        #expect(finding.number("background time") == 31)
    }
}
