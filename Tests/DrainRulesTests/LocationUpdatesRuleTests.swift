import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct LocationUpdatesRuleTests {
    let id = "LOC-UPDATES"

    func updates(accuracy: Double, filter: Double, for duration: Double = 60) -> [Finding] {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.location(10, .start, accuracyMeters: accuracy, distanceFilterMeters: filter)
        run.location(10 + duration, .stop)
        return evaluate(run.build(end: 2000)).findings(of: id)
    }

    @Test func runningMoreThanTenMinutesWarns() throws {
        #expect(updates(accuracy: 100, filter: 50, for: 600).isEmpty)
        let finding = try #require(updates(accuracy: 100, filter: 50, for: 600.5).first)
        #expect(finding.number("duration") == 600.5)
        #expect(finding.number("accuracy") == 100)
        #expect(finding.number("distance filter") == 50)
        #expect(finding.texts("reasons") == ["ran 600.5 s, longer than 600 s"])
        // 600.5 s at the model's 0.1 W for hundred-metre accuracy.
        #expect(abs((finding.energyJ ?? 0) - 600.5 * 0.1) < 1e-9)
    }

    @Test func bestAccuracyWithoutADistanceFilterWarns() {
        #expect(updates(accuracy: 5, filter: 0).count == 1)
        #expect(updates(accuracy: 0, filter: 0).count == 1)
        #expect(updates(accuracy: -2, filter: -1).count == 1)  // Core Location's best-for-navigation, no filter
        #expect(updates(accuracy: 5.1, filter: 0).isEmpty)
        #expect(updates(accuracy: 0, filter: 0.5).isEmpty)
    }

    @Test func aReconfiguredSessionIsOneSession() throws {
        var run = TimelineBuilder()
        run.location(0, .start, accuracyMeters: 100, distanceFilterMeters: 50)
        run.location(100, .start, accuracyMeters: -1, distanceFilterMeters: -1)
        run.location(200, .stop)
        let findings = evaluate(run.build(end: 300)).findings(of: id)
        try #require(findings.count == 1)
        #expect(findings[0].number("configurations") == 2)
        #expect(findings[0].number("accuracy") == -1)
        #expect(findings[0].number("duration") == 200)
        // 100 s at 0.1 W (hundred metres), then 100 s at 0.28 W (best): 10 J + 28 J.
        #expect(abs((findings[0].energyJ ?? 0) - 38) < 1e-9)
    }

    @Test func updatesPastFiveSecondsIntoTheBackgroundWarn() throws {
        func session(stop: Double) -> [Finding] {
            var run = TimelineBuilder()
            run.lifecycle(0, .active)
            run.location(1, .start, accuracyMeters: 1000, distanceFilterMeters: 500)
            run.lifecycle(30, .background)
            run.location(stop, .stop)
            return evaluate(run.build(end: 100)).findings(of: id)
        }
        #expect(session(stop: 35).isEmpty)
        let finding = try #require(session(stop: 40).first)
        #expect(finding.number("time in background") == 10)
        #expect(finding.texts("reasons") == ["ran 10.0 s in the background"])
    }

    @Test func noLocationEventsIsNotApplicable() {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        #expect(evaluate(run.build(end: 5)).status(of: id) == .notApplicable)
    }
}
