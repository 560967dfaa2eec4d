import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct MemoryGrowthRuleTests {
    let id = "MEM-GROWTH"

    /// Footprint samples `megabytes` (10⁶ B) at `times` seconds.
    func series(_ times: [Double], _ megabytes: [Double], configuration yaml: String? = nil) throws -> RuleEvaluation {
        var run = TimelineBuilder()
        for (time, value) in zip(times, megabytes) { run.memory(time, footprint: Int64((value * 1e6).rounded())) }
        let timeline = run.build(end: (times.last ?? 0) + 1)
        return try yaml.map { evaluate(timeline, configuration: try configuration($0)) } ?? evaluate(timeline)
    }

    let minutes: [Double] = [0, 30, 60, 90, 120]

    @Test func aHandFittedSeries() throws {
        // t̄ = 60 s, ȳ = 514 / 5 = 102.8 MB; deviations t: −60, −30, 0, 30, 60;
        // y: −2.8, −1.8, 0.2, 1.2, 3.2 MB.
        // Sxx = 2 × (3600 + 900) = 9000; Sxy = 168 + 54 + 0 + 36 + 192 = 450;
        // Syy = 7.84 + 3.24 + 0.04 + 1.44 + 10.24 = 22.8.
        // slope = 450 / 9000 = 0.05 MB/s = 3 MB/min; R² = 450² / (9000 × 22.8) = 202500 / 205200.
        let finding = try #require(try series(minutes, [100, 101, 103, 104, 106]).findings(of: id).first)
        #expect(finding.severity == .warning)
        #expect(abs((finding.number("slope") ?? 0) - 3) < 1e-9)
        #expect(abs((finding.number("R²") ?? 0) - 202_500.0 / 205_200) < 1e-12)
        #expect(finding.number("window") == 120)
        #expect(finding.number("samples") == 5)
        // The line: 102.8 − 0.05 × 60 = 99.8 MB at 0 s, 99.8 + 0.05 × 120 = 105.8 MB at 120 s.
        #expect(abs((finding.number("fitted start") ?? 0) - 99_800_000) < 1e-3)
        #expect(abs((finding.number("fitted end") ?? 0) - 105_800_000) < 1e-3)
        #expect(abs((finding.number("growth") ?? 0) - 6_000_000) < 1e-3)
        #expect(finding.timeRanges == [TimeRange(startS: 0, endS: 120)])
        #expect(finding.energyJ == nil)
    }

    @Test func theSlopeMustExceedOneMegabytePerMinute() throws {
        #expect(try series([0, 60, 120], [100, 100.99, 101.98]).status(of: id) == .pass)
        let finding = try #require(try series([0, 60, 120], [100, 101.01, 102.02]).findings(of: id).first)
        #expect(abs((finding.number("slope") ?? 0) - 1.01) < 1e-9)
        #expect(abs((finding.number("R²") ?? 0) - 1) < 1e-12)
    }

    @Test func noisyGrowthFailsTheR2Test() throws {
        // y = 100, 104, 100, 104, 108 MB: ȳ = 103.2; deviations −3.2, 0.8, −3.2, 0.8, 4.8.
        // Sxy = 192 − 24 + 0 + 24 + 288 = 480 (slope 480 / 9000 MB/s = 3.2 MB/min);
        // Syy = 10.24 + 0.64 + 10.24 + 0.64 + 23.04 = 44.8; R² = 480² / (9000 × 44.8) = 4 / 7.
        let noisy: [Double] = [100, 104, 100, 104, 108]
        #expect(try series(minutes, noisy).status(of: id) == .pass)
        let relaxed = try #require(try series(minutes, noisy, configuration: "rules: { MEM-GROWTH: { min_r2: 0.57 } }").findings(of: id).first)
        #expect(abs((relaxed.number("R²") ?? 0) - 4.0 / 7) < 1e-12)
        #expect(abs((relaxed.number("slope") ?? 0) - 3.2) < 1e-9)
        // The hand-fitted series' R² (0.9868) passes a stricter 0.99.
        #expect(try series(minutes, [100, 101, 103, 104, 106], configuration: "rules: { MEM-GROWTH: { min_r2: 0.99 } }").status(of: id) == .pass)
    }

    @Test func aFitNeedsSixtySecondsAndThreeSamples() throws {
        #expect(try series([0, 30, 59.9], [100, 110, 120]).status(of: id) == .notApplicable)
        #expect(try series([0, 30, 60], [100, 110, 120]).status(of: id) == .warning)
        #expect(try series([0, 600], [100, 900]).status(of: id) == .notApplicable)
    }

    @Test func aShrinkingFootprintPasses() throws {
        #expect(try series(minutes, [106, 104, 103, 101, 100]).status(of: id) == .pass)
    }
}
