import DrainAggregate
import DrainTrace
import Testing

@Suite struct SumsByKeyTests {
    @Test(arguments: ledgerSizes)
    func matchesScalarReference(count: Int) {
        for energies in RandomEnergies.allCases {
            let seed = 0x5E_0000 &+ UInt64(count) &* 2 &+ (energies == .dyadic ? 1 : 0)
            let ledger = randomLedger(count: count, seed: seed, energies: energies)
            for keyCount in [0, 1, 50, Int(randomKeySpace) + 5] {
                for category in [nil] + EnergyCategory.allCases {
                    let actual = Aggregate.sumsByKey(ledger, keyCount: keyCount, category: category)
                    let expected = ScalarAggregate.sumsByKey(ledger, keyCount: keyCount, category: category)
                    let context = "seed \(seed), \(energies), keyCount \(keyCount), category \(category.map(\.name) ?? "all")"
                    #expect(actual.entries == expected.entries, "\(context)")
                    if energies == .dyadic {
                        #expect(actual.energy == expected.energy, "\(context)")
                    } else {
                        expectSums(actual.energy, expected.energy, count: count, within: doubleSumTolerance, context)
                    }
                }
            }
        }
    }

    /// Ten copies of six entries (key, category, joules); key 3 is out of range for 3 keys.
    private var handBuilt: CostLedger {
        let pattern: [(StringID, EnergyCategory, Double)] = [
            (0, .cpu, 1), (1, .radio, 2), (0, .radio, 4), (2, .cpu, 8), (3, .cpu, 16), (1, .cpu, 32),
        ]
        var ledger = CostLedger()
        for copy in 0..<10 {
            for (offset, (key, category, joules)) in pattern.enumerated() {
                ledger.add(time: Nanoseconds(copy * 6 + offset), category: category, joules: joules, key: key)
            }
        }
        return ledger
    }

    @Test func sumsHandBuiltLedgerExactly() {
        // All categories: key 0 = 10 × (1 + 4) = 50 J in 20 entries; key 1 = 10 × (2 + 32) =
        // 340 J in 20; key 2 = 10 × 8 = 80 J in 10; key 3 is ignored.
        let all = Aggregate.sumsByKey(handBuilt, keyCount: 3)
        #expect(all.energy == [50, 340, 80])
        #expect(all.entries == [20, 20, 10])
        // CPU only: key 0 = 10 × 1, key 1 = 10 × 32, key 2 = 10 × 8, ten entries each.
        let cpu = Aggregate.sumsByKey(handBuilt, keyCount: 3, category: .cpu)
        #expect(cpu.energy == [10, 320, 80])
        #expect(cpu.entries == [10, 10, 10])
        // Radio only: key 0 = 10 × 4, key 1 = 10 × 2, key 2 none.
        let radio = Aggregate.sumsByKey(handBuilt, keyCount: 3, category: .radio)
        #expect(radio.energy == [40, 20, 0])
        #expect(radio.entries == [10, 10, 0])
    }

    @Test func zeroKeysGiveEmptyResults() {
        let result = Aggregate.sumsByKey(handBuilt, keyCount: 0)
        #expect(result.energy.isEmpty && result.entries.isEmpty)
    }
}
