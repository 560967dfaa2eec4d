import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct CPULaunchRuleTests {
    let id = "CPU-LAUNCH"

    func launch(activeAt: Double) -> [Finding] {
        var run = TimelineBuilder()
        run.lifecycle(0, .inactive)
        run.lifecycle(activeAt, .active)
        return evaluate(run.build(end: 10)).findings(of: id)
    }

    @Test func severitiesAtTheirThresholds() {
        #expect(launch(activeAt: 2).isEmpty)
        #expect(launch(activeAt: 2.001).map(\.severity) == [.warning])
        #expect(launch(activeAt: 5).map(\.severity) == [.warning])
        #expect(launch(activeAt: 5.001).map(\.severity) == [.error])
    }

    @Test func evidenceNamesTheMainThreadWorkDuringLaunch() throws {
        var run = TimelineBuilder()
        run.cpu(1, duration: 1.5, name: "open-database", thread: "main")
        run.cpu(2.6, duration: 0.2, name: "layout", thread: "main")
        run.disk(2.8, .read, bytes: 100_000, path: "/d/config.plist", thread: "main")
        run.cpu(1, duration: 1, name: "prefetch", thread: "worker")
        run.lifecycle(3.5, .active)
        run.cpu(4, duration: 1, name: "after", thread: "main")
        let finding = try #require(evaluate(run.build(end: 10)).findings(of: id).first)
        // The launch starts at the first event (1 s), not at time zero.
        #expect(finding.number("launch start") == 1)
        #expect(finding.number("launch duration") == 2.5)
        #expect(finding.texts("started by") == ["first event of the run"])
        #expect(abs((finding.number("main-thread CPU time") ?? 0) - 1.7) < 1e-12)
        #expect(finding.number("main-thread slices") == 2)
        #expect(finding.number("main-thread I/O") == 1)
        #expect(finding.texts("slice") == ["open-database: 1500.0 ms", "layout: 200.0 ms"])
        // Everything done during launch: 2.7 s of CPU at 1.2 W, plus one read of 0.1 MB
        // (0.2 mJ + 0.1 × 10 mJ).
        #expect(abs((finding.energyJ ?? 0) - (2.7 * 1.2 + TestModel.diskPerOpJ + 0.1 * TestModel.diskPerMbJ)) < 1e-9)
        #expect(finding.timeRanges == [TimeRange(startS: 1, endS: 3.5)])
    }

    @Test func aRelaunchStartsAtNotRunning() throws {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.lifecycle(10, .background)
        run.lifecycle(20, .notRunning)
        run.lifecycle(23, .inactive)
        run.lifecycle(24, .active)
        let finding = try #require(evaluate(run.build(end: 30)).findings(of: id).first)
        #expect(finding.texts("started by") == ["not_running"])
        #expect(finding.number("launch duration") == 4)
        #expect(finding.timeRanges == [TimeRange(startS: 20, endS: 24)])
    }

    @Test func aLaunchIntoTheBackgroundIsNotJudged() {
        var run = TimelineBuilder()
        run.lifecycle(0, .notRunning)
        run.lifecycle(1, .background)
        run.lifecycle(30, .active)
        #expect(evaluate(run.build(end: 40)).status(of: id) == .notApplicable)
    }

    @Test func withoutAnActiveStateTheRuleIsNotApplicable() {
        var run = TimelineBuilder()
        run.lifecycle(0, .inactive)
        run.cpu(1, duration: 5, thread: "main")
        #expect(evaluate(run.build(end: 10)).status(of: id) == .notApplicable)
    }
}
