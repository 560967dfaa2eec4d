import DrainAggregate
import DrainTrace
import Testing

@Suite struct TotalsTests {
    @Test(arguments: ledgerSizes)
    func matchesScalarReference(count: Int) {
        for seed in [UInt64(0xA11), 0xB22, 0xC33].map({ $0 &* 1_000_003 &+ UInt64(count) }) {
            let ledger = randomLedger(count: count, seed: seed)
            expectSums(Aggregate.totals(ledger), ScalarAggregate.totals(ledger), count: count, within: categoryTotalTolerance, "seed \(seed)")
        }
    }

    @Test(arguments: ledgerSizes)
    func matchesScalarReferenceExactlyOnDyadicEnergies(count: Int) {
        let seed = 0xD1AD &* 1_000_003 &+ UInt64(count)
        let ledger = randomLedger(count: count, seed: seed, energies: .dyadic)
        #expect(Aggregate.totals(ledger) == ScalarAggregate.totals(ledger), "seed \(seed)")
    }

    @Test func sumsHandBuiltLedgerExactly() {
        // 70 entries cycling through the 7 categories at 0.5 J each: 10 × 0.5 = 5 J per
        // category; one more CPU entry of 0.25 J makes CPU 5.25 J. Halves and quarters add
        // exactly in any order.
        var entries: [(Nanoseconds, EnergyCategory, Double)] = (0..<70).map {
            (Nanoseconds($0) * 1_000, EnergyCategory(rawValue: UInt8($0 % 7))!, 0.5)
        }
        entries.append((70_000, .cpu, 0.25))
        #expect(Aggregate.totals(ledger(entries)) == [5.25, 5, 5, 5, 5, 5, 5])
    }

    @Test func sumsOneCategoryRun() {
        // 200 radio entries of 0.125 J (eighths add exactly): 200 × 0.125 = 25 J.
        let entries = (0..<200).map { (Nanoseconds($0), EnergyCategory.radio, 0.125) }
        #expect(Aggregate.totals(ledger(entries)) == [0, 25, 0, 0, 0, 0, 0])
    }

    @Test func emptyLedgerHasZeroTotals() {
        #expect(Aggregate.totals(CostLedger()) == [Double](repeating: 0, count: EnergyCategory.count))
    }
}
