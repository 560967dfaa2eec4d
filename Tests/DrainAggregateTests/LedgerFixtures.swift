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

/// How random ledgers draw their energies.
enum RandomEnergies: CaseIterable, CustomStringConvertible {
    /// Log-uniform over 1 µJ … 10 J: realistic magnitudes, sums compared within a tolerance.
    case logUniform
    /// Multiples of 1/1024 J up to 1 J: every partial sum of up to 32 of them fits a `Float`
    /// significand (16 bits) and every total of up to 10⁵ a `Double` one (27 bits), so all
    /// sums are exact in any order and must match the reference exactly.
    case dyadic

    var description: String { self == .logUniform ? "log-uniform energies" : "dyadic energies" }
}

/// A ledger of `count` random entries: times sorted (steps of 0–2 ms, a tenth of them 0, so
/// some entries share a time), skewed categories, keys mostly in `0..<randomKeySpace`, energies
/// drawn as `energies` says. With `sorted: false` the same entries are added in shuffled
/// order, so the ledger reports `isSorted == false` (for two or more distinct times).
func randomLedger(count: Int, seed: UInt64, sorted: Bool = true, energies: RandomEnergies = .logUniform) -> CostLedger {
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
        let joules = energies == .dyadic ? Double(Int.random(in: 1...1024, using: &random)) / 1024 : random.logUniform(1e-6...10)
        entries.append((time, EnergyCategory(rawValue: UInt8(category))!, joules, key))
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
/// orders: n × 2⁻⁵² × Σ|x|.
///
/// Recursive summation of n terms in any order lands within (n − 1) × 2⁻⁵³ × Σ|x| of the exact
/// sum (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., §4.2), so two such
/// sums differ by at most n × 2⁻⁵² × Σ|x|. This covers `ScalarAggregate` (entry order) against
/// `Aggregate.sumsByKey` (two interleaved banks) and `Aggregate.statistics` (eight SIMD lanes).
func doubleSumTolerance(count: Int, magnitude: Double) -> Double {
    Double(count) * 0x1p-52 * magnitude
}

/// How far `Aggregate.totals` and `Aggregate.binnedTotals` may be from `ScalarAggregate`:
/// (31 × 2⁻²⁴ + n × 2⁻⁵²) × Σ|x|.
///
/// The category kernel adds at most 32 `Float` energies in a row per accumulator (error at
/// most 31 × 2⁻²⁴ × Σ|x|) and the rest in `Double` (at most n × 2⁻⁵³ × Σ|x|, see
/// `CategoryTotalsKernel`); the reference's in-order `Double` sum adds its own n × 2⁻⁵³ × Σ|x|.
func categoryTotalTolerance(count: Int, magnitude: Double) -> Double {
    (31 * 0x1p-24 + Double(count) * 0x1p-52) * magnitude
}

/// Expects `actual` to match `expected` element by element within `tolerance(count, Σ|x|)`.
/// The random ledgers' energies are positive, so each expected sum stands for its own Σ|x|
/// (its rounding is far below either bound); an empty sum must match exactly.
func expectSums(
    _ actual: [Double], _ expected: [Double], count: Int,
    within tolerance: (_ count: Int, _ magnitude: Double) -> Double, _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(actual.count == expected.count, "\(context)", sourceLocation: sourceLocation)
    for (index, (got, want)) in zip(actual, expected).enumerated() {
        let bound = tolerance(count, abs(want))
        #expect(
            abs(got - want) <= bound,
            "\(context): element \(index) is \(got), reference \(want), tolerance \(bound)",
            sourceLocation: sourceLocation)
    }
}
