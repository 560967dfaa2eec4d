import Testing

@testable import DrainPipeline

/// `firstInOrder` gives the prefix a full sort gives, for every count, on inputs in random
/// order, already sorted, reversed, and made mostly of equal values.
struct FirstInOrderTests {
    /// SplitMix64: the same inputs on every run.
    private struct Numbers {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func theFirstElementsAreTheSortsPrefix() {
        var numbers = Numbers(state: 42)
        let shuffled = (0..<2_000).map { _ in Int(numbers.next() % 1_000_000) }
        let inputs = [shuffled, shuffled.sorted(), shuffled.sorted(by: >), []]
        for input in inputs {
            let sorted = input.sorted(by: >)
            for count in [0, 1, 2, 17, 999, 1_000, 1_999, 2_000, 2_500] {
                #expect(input.firstInOrder(count, by: >) == Array(sorted.prefix(count)))
            }
        }
    }

    /// 100,000 values of which all but 30 are equal: the `count`th is among the equal ones, or
    /// among the 30, and either way the prefix holds the right values.
    @Test func manyEqualValuesGiveTheSortsPrefix() {
        var values = [Double](repeating: 0.25, count: 100_000)
        for index in stride(from: 3, to: 100_000, by: 3_333) { values[index] = Double(index) }
        let sorted = values.sorted(by: >)
        for count in [1, 29, 30, 31, 5_000, 99_999] {
            #expect(values.firstInOrder(count, by: >) == Array(sorted.prefix(count)))
        }
    }
}
