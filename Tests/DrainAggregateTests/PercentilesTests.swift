import DrainAggregate
import DrainTrace
import Testing

@Suite struct PercentilesTests {
    @Test func interpolatesBetweenClosestRanks() {
        // n = 4, rank h = 3 × p / 100: p50 → h = 1.5 → 2 + 0.5 × (3 − 2) = 2.5; p25 → h = 0.75
        // → 1 + 0.75 × 1 = 1.75; p75 → h = 2.25 → 3 + 0.25 × 1 = 3.25; p0 → 1; p100 → 4.
        let ps: [Double] = [50, 25, 75, 0, 100]
        #expect(Aggregate.percentiles([1, 2, 3, 4], ps) == [2.5, 1.75, 3.25, 1, 4])
        #expect(Aggregate.percentiles([4, 1, 3, 2], ps) == [2.5, 1.75, 3.25, 1, 4])
        #expect(ScalarAggregate.percentiles([3, 1, 4, 2], ps) == [2.5, 1.75, 3.25, 1, 4])
    }

    @Test func matchesNumpyOnAnUnevenExample() {
        // numpy.percentile([15, 20, 35, 40, 50], 40): h = 4 × 0.4 = 1.6, between 20 and 35:
        // 20 + 0.6 × 15 = 29. The decimal fractions round, so allow a few ulps.
        let p40 = Aggregate.percentiles([50, 15, 40, 20, 35], [40])[0]
        #expect(abs(p40 - 29) < 1e-12)
    }

    @Test func clampsPercentsAndPassesNaNThrough() {
        let result = Aggregate.percentiles([10, 20, 30], [-5, 150, .nan, 50])
        #expect(result[0] == 10)
        #expect(result[1] == 30)
        #expect(result[2].isNaN)
        #expect(result[3] == 20)
    }

    @Test func emptyOrNaNColumnsGiveNaN() {
        #expect(Aggregate.percentiles([], [50, 90]).allSatisfy { $0.isNaN })
        #expect(Aggregate.percentiles([1, .nan, 3], [50]).allSatisfy { $0.isNaN })
        #expect(Aggregate.percentiles([1, 2], []).isEmpty)
    }

    @Test func singleValueIsEveryPercentile() {
        #expect(Aggregate.percentiles([7], [0, 37.5, 100]) == [7, 7, 7])
    }

    /// Columns that stress the selection: random, many duplicates, sorted, reversed, all equal.
    private func columns(count: Int, seed: UInt64) -> [(String, [Double])] {
        var random = SplitMix64(seed: seed)
        let uniform = (0..<count).map { _ in Double.random(in: -1000...1000, using: &random) }
        let duplicates = (0..<count).map { _ in Double(Int.random(in: 0..<5, using: &random)) }
        return [
            ("uniform", uniform), ("duplicates", duplicates), ("sorted", uniform.sorted()),
            ("reversed", uniform.sorted(by: >)), ("constant", Array(repeating: 3.5, count: count)),
        ]
    }

    @Test(arguments: ledgerSizes.filter { $0 > 0 })
    func matchesSortingReference(count: Int) {
        let seed = 0x9E_0000 &+ UInt64(count)
        let few: [Double] = [99, 50, 0, 90, 99.9, 25, 100, 50]
        let many = (0...40).map { Double($0) * 2.5 }
        for (name, values) in columns(count: count, seed: seed) {
            for ps in [few, many, [12.5]] {
                #expect(
                    Aggregate.percentiles(values, ps) == ScalarAggregate.percentiles(values, ps),
                    "seed \(seed), \(name), \(ps.count) percentiles")
            }
        }
    }
}
