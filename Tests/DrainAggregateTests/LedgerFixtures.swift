import DrainTrace
import Testing

/// Sizes for the randomized comparisons: empty, one entry, either side of the 8-entry step of
/// the kernels and of 16, either side of the 64 entries below which ranges skip the banks, and
/// large odd sizes.
let ledgerSizes = [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1023, 1025, 100_003]

/// Category weights (percent) of random ledgers, skewed like real ones: CPU and radio dominate.
private let categoryWeights = [40, 25, 12, 10, 6, 4, 3]

/// Keys of random ledgers fall in `0..<randomKeySpace`, plus a few `UInt32.max`; tests ask for
/// fewer keys than that so that some entries have keys out of range.
let randomKeySpace: UInt32 = 60

/// A ledger of `count` random entries: times sorted (steps of 0–2 ms, a tenth of them 0, so
/// some entries share a time), skewed categories, keys mostly in `0..<randomKeySpace`, energies
/// log-uniform over 1 µJ … 10 J. With `sorted: false` the same entries are added in shuffled
/// order, so the ledger reports `isSorted == false` (for two or more distinct times).
func randomLedger(count: Int, seed: UInt64, sorted: Bool = true) -> CostLedger {
    var random = SplitMix64(seed: seed)
    var time = Nanoseconds.random(in: 0...1_000_000_000, using: &random)
    var entries: [(time: Nanoseconds, category: EnergyCategory, joules: Double, key: StringID)] = []
    for _ in 0..<count {
        if Int.random(in: 0..<10, using: &random) > 0 { time += Nanoseconds.random(in: 1...2_000_000, using: &random) }
        var pick = Int.random(in: 0..<100, using: &random)
        var category = 0
        while pick >= categoryWeights[category] {
            pick -= categoryWeights[category]
            category += 1
        }
        let key = Int.random(in: 0..<50, using: &random) == 0 ? StringID.max : StringID.random(in: 0..<randomKeySpace, using: &random)
        entries.append((time, EnergyCategory(rawValue: UInt8(category))!, random.logUniform(1e-6...10), key))
    }
    if !sorted { entries.shuffle(using: &random) }
    var ledger = CostLedger()
    for entry in entries {
        ledger.add(time: entry.time, category: entry.category, joules: entry.joules, key: entry.key)
    }
    return ledger
}

/// A ledger from `(time, category, joules)` triples, added in the order given.
func ledger(_ entries: [(Nanoseconds, EnergyCategory, Double)]) -> CostLedger {
    var ledger = CostLedger()
    for (time, category, joules) in entries { ledger.add(time: time, category: category, joules: joules) }
    return ledger
}

/// How far apart two `Double` sums of the same `count` values may be when added in different
/// orders.
///
/// `Aggregate` and `ScalarAggregate` both widen the ledger's `Float` energies to `Double`
/// (exactly) and add them in `Double`: the reference in entry order, `Aggregate` in eight
/// interleaved banks (or SIMD lanes) folded at the end. Recursive summation of n terms in any
/// order lands within (n − 1) × 2⁻⁵³ × Σ|x| of the exact sum (Higham, *Accuracy and Stability
/// of Numerical Algorithms*, 2nd ed., §4.2), so the two differ by at most n × 2⁻⁵² × Σ|x|. The
/// random energies are positive, so Σ|x| is the expected sum itself (its own rounding is far
/// below the bound). An empty sum must match exactly.
func sumTolerance(count: Int, magnitude: Double) -> Double {
    Double(count) * 0x1p-52 * abs(magnitude)
}

/// Expects `actual` to match `expected` element by element within `sumTolerance`.
func expectSums(
    _ actual: [Double], _ expected: [Double], count: Int, _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(actual.count == expected.count, "\(context)", sourceLocation: sourceLocation)
    for (index, (got, want)) in zip(actual, expected).enumerated() {
        let tolerance = sumTolerance(count: count, magnitude: want)
        #expect(
            abs(got - want) <= tolerance,
            "\(context): element \(index) is \(got), reference \(want), tolerance \(tolerance)",
            sourceLocation: sourceLocation)
    }
}
