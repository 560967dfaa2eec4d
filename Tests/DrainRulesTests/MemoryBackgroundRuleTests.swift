import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct MemoryBackgroundRuleTests {
    let id = "MEM-BACKGROUND"

    /// Foreground peak `peak` at 5 s, background at 10 s, samples after it as given.
    func background(peak: Int64, samples: [(Double, Int64)], returnAt: Double? = nil) -> RuleEvaluation {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.memory(2, footprint: peak / 2)
        run.memory(5, footprint: peak)
        run.lifecycle(10, .background)
        for (time, bytes) in samples { run.memory(time, footprint: bytes) }
        if let returnAt { run.lifecycle(returnAt, .active) }
        return evaluate(run.build(end: 60))
    }

    @Test func aboveHalfThePeakWarns() throws {
        #expect(background(peak: 400_000_000, samples: [(15, 200_000_000)]).status(of: id) == .pass)
        let finding = try #require(background(peak: 400_000_000, samples: [(15, 200_000_001)]).findings(of: id).first)
        #expect(finding.severity == .warning)
        #expect(finding.number("entered background") == 10)
        #expect(finding.number("background footprint") == 200_000_001)
        #expect(finding.number("measured at") == 15)
        #expect(finding.number("foreground peak") == 400_000_000)
        #expect(finding.number("time of peak") == 5)
        #expect(abs((finding.number("share of peak") ?? 0) - 50.00000025) < 1e-9)  // 200,000,001 / 400,000,000
        #expect(finding.timeRanges == [TimeRange(startS: 10, endS: 15)])
    }

    @Test func andAboveFiftyMegabytes() {
        #expect(background(peak: 80_000_000, samples: [(15, 50_000_000)]).status(of: id) == .pass)
        #expect(background(peak: 80_000_000, samples: [(15, 50_000_001)]).status(of: id) == .warning)
    }

    @Test func theFootprintIsTheLastSampleByFiveSeconds() throws {
        // 300 MB at 12 s, 120 MB at 15 s (30 % of 400 MB), 300 MB again at 18 s: 15 s counts.
        #expect(background(peak: 400_000_000, samples: [(12, 300_000_000), (15, 120_000_000), (18, 300_000_000)]).status(of: id) == .pass)
        // No sample by 15 s: the first one after it counts.
        let late = try #require(background(peak: 400_000_000, samples: [(20, 300_000_000), (25, 100_000_000)]).findings(of: id).first)
        #expect(late.number("measured at") == 20)
        // A sample at 14 s and none after (suspended): it counts.
        let early = try #require(background(peak: 400_000_000, samples: [(14, 300_000_000)]).findings(of: id).first)
        #expect(early.number("measured at") == 14)
    }

    @Test func aStretchOfFiveSecondsOrLessIsNotJudged() {
        #expect(background(peak: 400_000_000, samples: [(12, 390_000_000)], returnAt: 15).status(of: id) == .notApplicable)
        #expect(background(peak: 400_000_000, samples: [(12, 390_000_000)], returnAt: 15.001).status(of: id) == .warning)
    }

    @Test func onlyTheForegroundPeakBeforeTheStretchCounts() throws {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.memory(1, footprint: 100_000_000)
        run.lifecycle(10, .background)
        run.memory(15, footprint: 90_000_000)
        run.lifecycle(20, .active)
        run.memory(25, footprint: 1_000_000_000)
        let finding = try #require(evaluate(run.build(end: 30)).findings(of: id).first)
        #expect(finding.number("foreground peak") == 100_000_000)
        #expect(abs((finding.number("share of peak") ?? 0) - 90) < 1e-9)
    }

    @Test func withoutBackgroundOrSamplesTheRuleIsNotApplicable() {
        var foreground = TimelineBuilder()
        foreground.lifecycle(0, .active)
        foreground.memory(1, footprint: 100_000_000)
        #expect(evaluate(foreground.build(end: 30)).status(of: id) == .notApplicable)
        var unsampled = TimelineBuilder()
        unsampled.lifecycle(0, .active)
        unsampled.lifecycle(5, .background)
        #expect(evaluate(unsampled.build(end: 30)).status(of: id) == .notApplicable)
    }
}
