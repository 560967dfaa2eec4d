import DrainGate
import DrainReport
import DrainTrace
import Testing

/// Statistical honesty, measured: many pairs of run sets drawn from a noisy scenario model
/// go through the real gate; it must seldom call noise a regression, and must catch a real
/// one. Seeded, so the rates are the same on every run. docs/gate.md reports them.
///
/// The scenario model is a sync-style session whose run-to-run variation is what a real
/// app's is made of (joules per run):
/// - CPU work 2.5 J, ±10 % uniform from run to run;
/// - 20 network bursts of 0.5 J radio energy each (promotion, transfer and tail), plus
///   0–4 extra bursts (a retry or a push; each of 4 chances 10 %);
/// - 600 timer wakeups of 2 mJ, jittered: coalescing changes their count by −30…+30;
/// - 0.8 J of disk writes, ±3 %.
/// That is 14.7 J per run with a coefficient of variation of about 2.3 %. A regression
/// multiplies a run's energy by 1.15.
@Suite struct GateNoiseSimulationTests {
    struct ScenarioModel {
        var generator: SplitMix64

        mutating func uniform(_ low: Double, _ high: Double) -> Double {
            low + (high - low) * Double(generator.next() >> 11) / Double(1 << 53)
        }

        mutating func chances(_ count: Int, _ probability: Double) -> Int {
            (0..<count).reduce(0) { total, _ in total + (uniform(0, 1) < probability ? 1 : 0) }
        }

        mutating func runEnergy(scale: Double = 1) -> Double {
            let cpu = 2.5 * uniform(0.9, 1.1)
            let radio = Double(20 + chances(4, 0.1)) * 0.5
            let timers = Double(600 + Int(uniform(-30, 31).rounded(.down))) * 0.002
            let disk = 0.8 * uniform(0.97, 1.03)
            return (cpu + radio + timers + disk) * scale
        }
    }

    /// The share of `draws` pairs of `runs`-run sets whose gate finds an `energy.total_j`
    /// regression (`fail`), the candidate's energy scaled by `scale`.
    func regressionRate(runs: Int, scale: Double, draws: Int, seed: UInt64) -> Double {
        var model = ScenarioModel(generator: SplitMix64(seed: seed))
        let template = GateFixture.run(totalJ: 0)
        func report(_ joules: Double) -> Report {
            var report = template
            report.metrics["energy.total_j"] = ReportMetric(value: joules, unit: "J")
            return report
        }
        var regressions = 0
        for _ in 0..<draws {
            let baseline = GateFixture.baseline((0..<runs).map { _ in report(model.runEnergy()) })
            let candidate = (0..<runs).map { _ in report(model.runEnergy(scale: scale)) }
            let verdict = Gate.evaluate(candidate, budget: nil, baseline: baseline, options: GateFixture.options)
            if verdict.checks.contains(where: { $0.id == "regression:energy.total_j" && $0.status == .fail }) { regressions += 1 }
        }
        return Double(regressions) / Double(draws)
    }

    @Test func noiseIsSeldomCalledARegressionWithFiveRunsPerSide() {
        let rate = regressionRate(runs: 5, scale: 1, draws: 500, seed: 2026)
        print("gate simulation: false-regression rate, 5 runs per side, 500 draws: \(rate * 100) %")
        #expect(rate <= 0.02)
    }

    @Test func aFifteenPercentRegressionIsCaughtWithEightRunsPerSide() {
        let rate = regressionRate(runs: 8, scale: 1.15, draws: 500, seed: 1124)
        print("gate simulation: detection rate of a 15 % regression, 8 runs per side, 500 draws: \(rate * 100) %")
        #expect(rate >= 0.90)
    }
}
