import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct DrawRateRuleTests {
    let id = "DRAW-RATE"

    @Test func moreThanHalfTheFramesUnchangedWarns() throws {
        func frames(unchanged: Int) -> [Finding] {
            var run = TimelineBuilder()
            for frame in 0..<10 { run.frame(Double(frame) * 0.1, changed: frame >= unchanged) }
            return evaluate(run.build(end: 2)).findings(of: id)
        }
        #expect(frames(unchanged: 5).isEmpty)
        let finding = try #require(frames(unchanged: 6).first)
        #expect(finding.title == "Unchanged frames redrawn")
        #expect(finding.number("frames") == 10)
        #expect(finding.number("unchanged frames") == 6)
        #expect(abs((finding.number("unchanged share") ?? 0) - 60) < 1e-9)
        // Six frames at the model's 2 mJ per frame.
        #expect(abs((finding.energyJ ?? 0) - 6 * 0.002) < 1e-12)
        #expect(finding.timeRanges == [TimeRange(startS: 0, endS: 0.5)])
    }

    /// `count` changed frames evenly over one second.
    func rate(_ count: Int, configuration yaml: String? = nil) throws -> [Finding] {
        var run = TimelineBuilder()
        for frame in 0..<count { run.frame(Double(frame) / Double(count), changed: true) }
        let timeline = run.build(end: 3)
        return try (yaml.map { evaluate(timeline, configuration: try configuration($0)) } ?? evaluate(timeline)).findings(of: id)
    }

    @Test func aFrameRateAboveTheTargetWarns() throws {
        // 60 × 1 s + 1 = 61 frames in one second is the most a steady 60 fps can show.
        #expect(try rate(61).isEmpty)
        let finding = try #require(try rate(62).first)
        #expect(finding.title == "Frame rate above target")
        #expect(finding.number("frames in window") == 62)
        #expect(finding.number("peak fps") == 62)
        #expect(finding.number("target fps") == 60)
        #expect(abs((finding.energyJ ?? 0) - 62 * 0.002) < 1e-12)
        #expect(finding.timeRanges.first?.startS == 0)
    }

    @Test func theTargetIsAParameter() throws {
        #expect(try rate(60, configuration: "rules: { DRAW-RATE: { target_fps: 30 } }").first?.title == "Frame rate above target")
        #expect(try rate(120, configuration: "rules: { DRAW-RATE: { target_fps: 120 } }").isEmpty)
    }

    @Test func noFramesIsNotApplicable() {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        #expect(evaluate(run.build(end: 5)).status(of: id) == .notApplicable)
    }
}
