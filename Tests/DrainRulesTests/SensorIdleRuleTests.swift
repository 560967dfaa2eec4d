import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct SensorIdleRuleTests {
    let id = "SENSOR-IDLE"

    func accelerometer(on duration: Double) -> [Finding] {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.sensor(10, kind: "accelerometer", .start, rateHz: 50)
        run.sensor(10 + duration, kind: "accelerometer", .stop)
        return evaluate(run.build(end: 1000)).findings(of: id)
    }

    @Test func onForMoreThanFiveMinutesWarns() throws {
        #expect(accelerometer(on: 300).isEmpty)
        let finding = try #require(accelerometer(on: 300.5).first)
        #expect(finding.severity == .warning)
        #expect(finding.texts("sensor") == ["accelerometer"])
        #expect(finding.number("rate") == 50)
        #expect(finding.number("started") == 10)
        #expect(finding.number("stopped") == 310.5)
        #expect(finding.number("duration") == 300.5)
        #expect(finding.number("time in background") == 0)
        // The pricer's energy for the session: 300.5 s at the model's 0.02 W accelerometer.
        #expect(abs((finding.energyJ ?? 0) - 300.5 * 0.02) < 1e-9)
        #expect(finding.timeRanges == [TimeRange(startS: 10, endS: 310.5)])
    }

    func gyroscope(stoppedAt stop: Double?) -> [Finding] {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.sensor(1, kind: "gyro", .start)
        run.lifecycle(20, .background)
        if let stop { run.sensor(stop, kind: "gyro", .stop) }
        return evaluate(run.build(end: 100)).findings(of: id)
    }

    @Test func onMoreThanFiveSecondsIntoTheBackgroundWarns() throws {
        #expect(gyroscope(stoppedAt: 25).isEmpty)
        let finding = try #require(gyroscope(stoppedAt: 25.5).first)
        #expect(finding.number("time in background") == 5.5)
        #expect(finding.number("rate") == nil)  // not stated
        #expect(finding.message.contains("in the background"))
    }

    @Test func aSensorLeftOnRunsToTheEnd() throws {
        let finding = try #require(gyroscope(stoppedAt: nil).first)
        #expect(finding.texts("stopped") == ["still on when the run ended"])
        #expect(finding.number("duration") == 99)
        // 99 s at the model's 0.05 W gyroscope, as the pricer charges it.
        #expect(abs((finding.energyJ ?? 0) - 99 * 0.05) < 1e-9)
    }

    @Test func aSecondStartOfARunningSensorIsIgnored() throws {
        var run = TimelineBuilder()
        run.sensor(0, kind: "motion", .start)
        run.sensor(200, kind: "motion", .start)
        run.sensor(400, kind: "motion", .stop)
        run.sensor(500, kind: "motion", .stop)
        let findings = evaluate(run.build(end: 600)).findings(of: id)
        try #require(findings.count == 1)
        #expect(findings[0].number("duration") == 400)
    }

    @Test func noSensorEventsIsNotApplicable() {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        #expect(evaluate(run.build(end: 5)).status(of: id) == .notApplicable)
    }
}
