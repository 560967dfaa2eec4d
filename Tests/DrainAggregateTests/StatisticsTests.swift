import DrainAggregate
import DrainTrace
import Testing

@Suite struct StatisticsTests {
    @Test func summarisesKnownDoubles() {
        // 1 + 2 + 3 + 4 = 10, mean 10 / 4 = 2.5.
        let expected = ColumnStatistics(count: 4, min: 1, max: 4, sum: 10, mean: 2.5)
        let values: [Double] = [1, 2, 3, 4]
        #expect(Aggregate.statistics(values) == expected)
        #expect(Aggregate.statistics(values.reversed()) == expected)
        #expect(ScalarAggregate.statistics(values) == expected)
        // The same column as integers gives the same summary.
        #expect(Aggregate.statistics(values.map { Int64($0) }) == expected)
    }

    @Test func summarisesAcrossTheSIMDChunkAndTail() {
        // 19 values: two steps of 8 and a tail of 3. The minimum, 1, goes to the tail (index 17)
        // and the maximum, 19, to the upper half of the second step (index 13). Sum 1 + … + 19
        // = 19 × 20 / 2 = 190, mean 190 / 19 = 10.
        var values = (1...19).map(Double.init)
        values.swapAt(0, 17)
        values.swapAt(18, 13)
        #expect(values[17] == 1 && values[13] == 19)
        let expected = ColumnStatistics(count: 19, min: 1, max: 19, sum: 190, mean: 10)
        #expect(Aggregate.statistics(values) == expected)
        #expect(Aggregate.statistics(Array(repeating: -2.5, count: 17)) == ColumnStatistics(count: 17, min: -2.5, max: -2.5, sum: -42.5, mean: -2.5))
    }

    @Test func emptyColumnsHaveNoStatistics() {
        #expect(Aggregate.statistics([Double]()) == nil)
        #expect(Aggregate.statistics([Int64]()) == nil)
        #expect(ScalarAggregate.statistics([Double]()) == nil)
    }

    @Test(arguments: [0, 3, 8, 11])
    func nanMakesEveryStatisticNaN(position: Int) {
        var values = (0..<12).map { Double($0) }
        values[position] = .nan
        for statistics in [Aggregate.statistics(values), ScalarAggregate.statistics(values)] {
            #expect(statistics?.count == 12)
            #expect(statistics?.min.isNaN == true)
            #expect(statistics?.max.isNaN == true)
            #expect(statistics?.sum.isNaN == true)
            #expect(statistics?.mean.isNaN == true)
        }
    }

    @Test func infinitiesOfBothSignsKeepTheirRange() {
        // No NaN in the column: min and max are the infinities, the sum ∞ − ∞ is NaN.
        let values: [Double] = [1, .infinity, 2, 3, 4, 5, 6, 7, 8, -.infinity]
        let statistics = Aggregate.statistics(values)
        #expect(statistics?.min == -.infinity)
        #expect(statistics?.max == .infinity)
        #expect(statistics?.sum.isNaN == true)
    }

    @Test(arguments: ledgerSizes.filter { $0 > 0 })
    func doublesMatchScalarReference(count: Int) {
        let seed = 0x57_0000 &+ UInt64(count)
        var random = SplitMix64(seed: seed)
        let values = (0..<count).map { _ in Double.random(in: -1e6...1e6, using: &random) }
        let actual = Aggregate.statistics(values)!
        let expected = ScalarAggregate.statistics(values)!
        #expect(actual.count == expected.count, "seed \(seed)")
        #expect(actual.min == expected.min, "seed \(seed)")
        #expect(actual.max == expected.max, "seed \(seed)")
        // Values of both signs: the bound uses Σ|v|.
        let tolerance = doubleSumTolerance(count: count, magnitude: values.reduce(0) { $0 + abs($1) })
        #expect(abs(actual.sum - expected.sum) <= tolerance, "seed \(seed)")
        #expect(abs(actual.mean - expected.mean) <= tolerance / Double(count) * 2, "seed \(seed)")
    }

    @Test(arguments: ledgerSizes.filter { $0 > 0 })
    func integersSumExactly(count: Int) {
        // Values within ±2⁴⁰ and at most 100_003 of them sum to less than 2⁵⁷ in magnitude, so
        // Int64 arithmetic gives the exact sum, and Double(exact) is it rounded once.
        let seed = 0x1_0000 &+ UInt64(count)
        var random = SplitMix64(seed: seed)
        let values = (0..<count).map { _ in Int64.random(in: -(1 << 40)...(1 << 40), using: &random) }
        let exact = values.reduce(0, +)
        let statistics = Aggregate.statistics(values)!
        #expect(statistics.count == count, "seed \(seed)")
        #expect(statistics.min == Double(values.min()!), "seed \(seed)")
        #expect(statistics.max == Double(values.max()!), "seed \(seed)")
        #expect(statistics.sum == Double(exact), "seed \(seed)")
        #expect(statistics.mean == Double(exact) / Double(count), "seed \(seed)")
    }

    @Test func integerSumRoundsOnceWhereSequentialDoubleSumsDoNot() {
        // 2⁵³ + 1 + 1 = 9_007_199_254_740_994 exactly, a Double. Adding in Double one value at a
        // time, 2⁵³ + 1 rounds back to 2⁵³ (a tie, to even) twice: the reference gets 2⁵³.
        let values: [Int64] = [1 << 53, 1, 1]
        #expect(Aggregate.statistics(values)?.sum == 9_007_199_254_740_994)
        #expect(ScalarAggregate.statistics(values)?.sum == 9_007_199_254_740_992)
    }

    @Test func integerSumsBeyond64BitsRoundCorrectly() {
        // Doubles near 2⁶⁴ are 4096 apart. Int64.max × 2 = 2⁶⁴ − 2.
        let twiceMax: [Int64] = [.max, .max]
        // 2⁶⁴ − 2 + 2050 = 2⁶⁴ + 2048: halfway between 2⁶⁴ and 2⁶⁴ + 4096, ties to the even 2⁶⁴.
        #expect(Aggregate.statistics(twiceMax + [2050])?.sum == 0x1p64)
        // 2⁶⁴ − 2 + 2051 = 2⁶⁴ + 2049: past halfway, rounds up to 2⁶⁴ + 4096.
        #expect(Aggregate.statistics(twiceMax + [2051])?.sum == 0x1p64 + 4096)
        // Int64.min × 3 = −3 × 2⁶³ exactly; min and max are exact too.
        let statistics = Aggregate.statistics([Int64.min, .min, .min])
        #expect(statistics?.sum == -3 * 0x1p63)
        #expect(statistics?.min == -0x1p63)
        #expect(statistics?.mean == -0x1p63)
    }
}
