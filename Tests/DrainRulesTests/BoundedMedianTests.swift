import DrainTrace
import Testing

@testable import DrainRules

@Suite struct BoundedMedianTests {
    /// The median by sorting every value: what NET-SMALL-BURSTS computed before it counted them.
    func sortedMedian(_ values: [Int64]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (Double(sorted[middle - 1]) + Double(sorted[middle])) / 2 : Double(sorted[middle])
    }

    /// Bounds with buckets of one number (no pass more), of two numbers (one pass more), of
    /// 2^24 numbers (two passes more) and the largest (three); odd and even counts, values
    /// bunched so that the middle two often share a bucket.
    @Test(arguments: [Int64(10_000), 70_000, 1 << 40, .max])
    func theMedianIsThatOfTheSortedValues(bound: Int64) {
        var random = SplitMix64(seed: UInt64(bound))
        for count in [1, 2, 3, 10, 11, 1_000, 1_001] {
            let centre = Int64.random(in: 0..<bound, using: &random)
            let values = (0..<count).map { _ in
                Bool.random(using: &random)
                    ? Int64.random(in: 0..<bound, using: &random)
                    : min(bound - 1, max(0, centre + Int64.random(in: -3...3, using: &random)))
            }
            var median = BoundedMedian(below: bound)
            for value in values { median.add(value) }
            var passes = 0
            let found = median.median { count in
                passes += 1
                for value in values { count(value) }
            }
            #expect(found == sortedMedian(values), "bound \(bound), \(count) values")
            // Each pass more narrows the bucket by 16 bits of the largest value's; the two
            // middle values of an even count share the passes.
            let bits = Int64.bitWidth - (bound - 1).leadingZeroBitCount
            #expect(passes == max(0, bits - 16 + 15) / 16, "bound \(bound), \(count) values")
        }
    }

    @Test func noValuesHaveAMedianOfZero() {
        let median = BoundedMedian(below: 100)
        #expect(median.median { _ in Issue.record("no values to replay") } == 0)
    }

    @Test func theLargestValueBelowTheBoundIsCounted() {
        var median = BoundedMedian(below: 1 << 20)
        median.add((1 << 20) - 1)
        median.add((1 << 20) - 3)
        let values: [Int64] = [(1 << 20) - 1, (1 << 20) - 3]
        #expect(median.median { count in values.forEach(count) } == Double((1 << 20) - 2))
    }
}
