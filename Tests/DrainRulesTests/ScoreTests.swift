import DrainReport
import DrainRules
import DrainTrace
import Foundation
import Testing

@Suite struct EnergyScoreTests {
    @Test(arguments: [(100.0, 400.0), (50.0, 1000.0), (3.0, 3.5)])
    func controlPointsScoreExactlyNinetyAndFifty(_ points: (Double, Double)) {
        let (p90, p50) = points
        #expect(abs(EnergyScore.score(averageMilliwatts: p90, score90: p90, score50: p50) - 90) < 1e-9)
        #expect(abs(EnergyScore.score(averageMilliwatts: p50, score90: p90, score50: p50) - 50) < 1e-12)
    }

    @Test func oneSigmaAboveTheMedianScoresTheNormalTail() {
        // σ = ln(400 / 100) / Φ⁻¹(0.9) = 1.386294 / 1.281552 = 1.081731; at p = 400 × e^σ, z = 1 and
        // the score is 100 × (1 − Φ(1)) = 15.865525 (standard normal table).
        let sigma = log(4.0) / 1.2815515655446004
        let score = EnergyScore.score(averageMilliwatts: 400 * exp(sigma), score90: 100, score50: 400)
        #expect(abs(score - 15.865525393145708) < 1e-9)
    }

    @Test func lowerPowerScoresHigher() {
        var previous = 100.0
        for step in 1...200 {
            let power = Double(step) * 10
            let score = EnergyScore.score(averageMilliwatts: power, score90: 100, score50: 400)
            #expect(score < previous && score > 0 && score < 100, "\(power) mW")
            previous = score
        }
        #expect(EnergyScore.score(averageMilliwatts: 0, score90: 100, score50: 400) == 100)
        #expect(EnergyScore.score(averageMilliwatts: 1e9, score90: 100, score50: 400) < 1e-6)
    }

    @Test func controlPointsThatMakeNoCurveGiveAStepAtTheMedian() {
        #expect(EnergyScore.score(averageMilliwatts: 300, score90: 400, score50: 400) == 100)
        #expect(EnergyScore.score(averageMilliwatts: 400, score90: 400, score50: 400) == 50)
        #expect(EnergyScore.score(averageMilliwatts: 500, score90: 500, score50: 400) == 0)
    }
}

@Suite struct GuidanceScoreTests {
    func result(_ id: String, _ area: GuidanceArea, _ status: RuleResult.Status) -> RuleResult {
        RuleResult(id: id, area: area, title: id, status: status)
    }

    @Test func areasAverageTheirApplicableRules() {
        let results = [
            result("A", .cpu, .pass), result("B", .cpu, .warning), result("C", .cpu, .error), result("D", .cpu, .info),
            result("E", .memory, .warning), result("F", .memory, .notApplicable),
            result("G", .disk, .disabled), result("H", .lifecycle, .notApplicable),
        ]
        let scores = GuidanceScore.scores(results)
        // cpu: (1 + 0.5 + 0 + 1) / 4 = 62.5; memory: 0.5 / 1 = 50; disk and lifecycle have no applicable rule.
        #expect(scores.areas == ["cpu": 62.5, "memory": 50])
        #expect(scores.overall == (62.5 + 50) / 2)
    }

    @Test func noApplicableRuleMeansNoScore() {
        let scores = GuidanceScore.scores([result("A", .cpu, .notApplicable), result("B", .disk, .disabled)])
        #expect(scores.overall == nil)
        #expect(scores.areas.isEmpty)
    }

    @Test func aCleanRunScoresFullMarksInTheAreasWithData() {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        for second in 0..<10 { run.timer(Double(second), name: "clock", interval: 1) }
        run.memory(1, footprint: 100_000_000)
        run.disk(2, .write, bytes: 100_000, path: "/d/state")
        let scores = GuidanceScore.scores(evaluate(run.build(end: 10)).results)
        #expect(scores.areas == ["cpu": 100, "disk": 100, "memory": 100])
        #expect(scores.overall == 100)
    }
}
