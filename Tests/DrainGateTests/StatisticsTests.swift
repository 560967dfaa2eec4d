@testable import DrainGate
import DrainTrace
import Testing

@Suite struct StatisticsTests {
    @Test func mannWhitneyIsExactWithoutTies() {
        // Complete separation of 4 and 4 runs: 2 of the C(8,4) = 70 rank splits are as extreme.
        #expect(abs(MannWhitney.pValue([1, 2, 3, 4], [5, 6, 7, 8]) - 2.0 / 70) < 1e-12)
        // With 3 and 3 runs the most extreme split has p = 2 / C(6,3) = 0.1: significance at
        // 0.05 cannot be reached, which is why the gate asks for 4 runs per side.
        #expect(abs(MannWhitney.pValue([1, 2, 3], [4, 5, 6]) - 0.1) < 1e-12)
        #expect(abs(MannWhitney.pValue([4, 5, 6], [1, 2, 3]) - 0.1) < 1e-12)
        // Interleaved runs: U = 18 of 36, the median of its distribution: p = 1.
        #expect(MannWhitney.pValue([1, 4, 5, 8, 9, 12], [2, 3, 6, 7, 10, 11]) == 1)
    }

    @Test func mannWhitneyWithTiesUsesTheCorrectedNormalApproximation() {
        // Pooled ranks: 1→1, the three 2s → 3, 3→5, the two 4s → 6.5, 5→8, 6→9, 7→10. The first
        // set's rank sum is 1+3+3+5+8 = 20, U = 20 − 15 = 5, mean 12.5. Tie term (3³−3)+(2³−2) = 30;
        // variance = 25/12 × (11 − 30/90) = 22.2222; z = (7.5 − 0.5)/4.71405 = 1.48492;
        // p = erfc(z/√2) = 0.137564 (scipy.stats.mannwhitneyu, asymptotic, continuity: 0.1375639).
        #expect(abs(MannWhitney.pValue([1, 2, 2, 3, 5], [2, 4, 4, 6, 7]) - 0.1375639) < 1e-6)
    }

    @Test func aggregatesOverRuns() {
        #expect(RunAggregate.median.of([3, 1, 2]) == 2)
        #expect(RunAggregate.median.of([4, 1, 3, 2]) == 2.5)
        #expect(RunAggregate.min.of([3, 1, 2]) == 1)
        #expect(RunAggregate.max.of([3, 1, 2]) == 3)
        // p90 of 1…10: rank 0.9 × 9 = 8.1 → 9 + 0.1 × (10 − 9) = 9.1.
        #expect(abs(RunAggregate.p90.of((1...10).map(Double.init)) - 9.1) < 1e-12)
    }

    @Test func theBootstrapIsSeededAndBracketsTheShift() {
        let baseline = [10.0, 10.4, 9.8, 10.1, 9.9, 10.2]
        let candidate = baseline.map { $0 + 2 }
        let first = Bootstrap.differenceInterval(baseline: baseline, candidate: candidate, seed: 42)
        let second = Bootstrap.differenceInterval(baseline: baseline, candidate: candidate, seed: 42)
        #expect(first == second)
        #expect(first != Bootstrap.differenceInterval(baseline: baseline, candidate: candidate, seed: 43))
        // The sides differ by exactly 2; each has a standard deviation of 0.22, so the
        // median of 6 runs varies by about 0.22 × 1.25 / √6 ≈ 0.11 and the difference by
        // about 0.16: a 95 % interval is roughly 2 ± 0.3.
        #expect(first.low < 2 && first.high > 2)
        #expect(first.low > 1.5 && first.high < 2.5)
        // Runs that do not vary are not smoothed: the interval is the difference itself.
        let constant = Bootstrap.differenceInterval(baseline: [5, 5, 5], candidate: [7, 7, 7], seed: 1)
        #expect(constant.low == 2 && constant.high == 2)
    }

    @Test func seedsDependOnTheTextOnly() {
        #expect(SplitMix64.seed("energy.total_j") == SplitMix64.seed("energy.total_j"))
        #expect(SplitMix64.seed("energy.total_j") != SplitMix64.seed("memory.peak_bytes"))
        // FNV-1a of the empty string is its offset basis.
        #expect(SplitMix64.seed("") == 0xCBF2_9CE4_8422_2325)
    }
}
