import DrainAggregate
import DrainTrace
import Testing

@Suite struct BinnedTotalsTests {
    /// Bin layouts relative to a random ledger's first and last times.
    private struct Layout: CustomStringConvertible {
        let name: String
        let origin: Nanoseconds
        let width: Nanoseconds
        let count: Int
        var description: String { "\(name) (origin \(origin), width \(width), \(count) bins)" }
    }

    private func layouts(first: Nanoseconds, last: Nanoseconds) -> [Layout] {
        let span = last - first
        return [
            Layout(name: "1 ms bins over everything", origin: first - 5_000_000, width: 1_000_000, count: Int(span / 1_000_000) + 10),
            Layout(name: "bins from the middle to before the end", origin: first + span / 2, width: 700_001, count: Int(span / 4 / 700_001) + 1),
            Layout(name: "one bin wider than the ledger", origin: first, width: 3_600_000_000_000, count: 1),
            Layout(name: "bins past the last entry", origin: last + 1, width: 1_000, count: 4),
            Layout(name: "1 ns bins at the start", origin: first, width: 1, count: 50),
        ]
    }

    @Test(arguments: ledgerSizes)
    func matchesScalarReference(count: Int) {
        for sorted in [true, false] {
            for energies in RandomEnergies.allCases {
                let seed = 0xB1_0000 &+ UInt64(count) &* 4 &+ (sorted ? 0 : 1) &+ (energies == .dyadic ? 2 : 0)
                let ledger = randomLedger(count: count, seed: seed, sorted: sorted, energies: energies)
                let first = ledger.time.min() ?? 0
                let last = ledger.time.max() ?? 0
                for layout in layouts(first: first, last: last) {
                    let actual = Aggregate.binnedTotals(ledger, origin: layout.origin, binWidth: layout.width, binCount: layout.count)
                    let expected = ScalarAggregate.binnedTotals(ledger, origin: layout.origin, binWidth: layout.width, binCount: layout.count)
                    let context = "seed \(seed), sorted \(ledger.isSorted), \(energies), \(layout)"
                    if energies == .dyadic {
                        #expect(actual == expected, "\(context)")
                    } else {
                        expectSums(actual, expected, count: count, within: categoryTotalTolerance, context)
                    }
                }
            }
        }
    }

    /// Entries around the edges of three 10 ns bins from t = 1000 ns, each with a distinct power
    /// of two of joules so that every sum shows which entries made it in.
    private let edgeEntries: [(Nanoseconds, EnergyCategory, Double)] = [
        (999, .cpu, 1),  // before the origin: ignored
        (1000, .cpu, 2),  // first instant of bin 0
        (1009, .radio, 4),  // last instant of bin 0
        (1010, .cpu, 8),  // on the edge between bins 0 and 1: bin 1
        (1019, .disk, 16),  // bin 1
        (1020, .cpu, 32),  // on the edge: bin 2
        (1029, .cpu, 64),  // bin 2
        (1030, .cpu, 128),  // end of the last bin (1000 + 3 × 10): ignored
        (5000, .cpu, 256),  // far past the last bin: ignored
    ]

    /// Bin 0: CPU 2, radio 4. Bin 1: CPU 8, disk 16. Bin 2: CPU 32 + 64 = 96.
    private let edgeExpected: [Double] = [
        2, 4, 0, 0, 0, 0, 0,
        8, 0, 16, 0, 0, 0, 0,
        96, 0, 0, 0, 0, 0, 0,
    ]

    @Test func placesEntriesOnBinEdgesInTheLaterBin() {
        let sorted = ledger(edgeEntries)
        #expect(sorted.isSorted)
        #expect(Aggregate.binnedTotals(sorted, origin: 1000, binWidth: 10, binCount: 3) == edgeExpected)
    }

    @Test func unsortedLedgerGivesTheSameBins() {
        let unsorted = ledger(edgeEntries.reversed())
        #expect(!unsorted.isSorted)
        #expect(Aggregate.binnedTotals(unsorted, origin: 1000, binWidth: 10, binCount: 3) == edgeExpected)
    }

    @Test func binsManyEntriesPerBinExactly() {
        // 1000 entries at t = 0, 1, …, 999 ns, category t mod 7, 0.25 J each, in 100 ns bins:
        // every bin holds 100 entries, so the banked kernel runs. Bin b holds t = 100b … 100b + 99;
        // the number of those with t mod 7 = c, times 0.25 J, is its total for category c.
        let entries = (0..<1000).map { (Nanoseconds($0), EnergyCategory(rawValue: UInt8($0 % 7))!, 0.25) }
        var expected = [Double](repeating: 0, count: 10 * 7)
        for time in 0..<1000 { expected[(time / 100) * 7 + time % 7] += 0.25 }
        #expect(Aggregate.binnedTotals(ledger(entries), origin: 0, binWidth: 100, binCount: 10) == expected)
        #expect(expected[0] == 3.75)  // t = 0, 7, …, 98: 15 entries × 0.25 J
    }

    @Test func handlesOffsetsBeyondInt64() {
        // Origin Int64.min + 10, bins 6e18 ns wide: bin 0 starts at −9_223_372_036_854_775_798,
        // bin 2 ends at that + 1.8e19 = 8_776_627_963_145_224_202. Offsets from the origin:
        // 0 → 9_223_372_036_854_775_798 (bin 1); 8e18 → 17_223_372_036_854_775_798 (bin 2);
        // Int64.max → 18_446_744_073_709_551_605 (bin 3, past the last: ignored). They exceed
        // Int64.max, so `time − origin` must be computed without overflow.
        let origin = Int64.min + 10
        let entries: [(Nanoseconds, EnergyCategory, Double)] = [
            (.min, .cpu, 1), (origin, .cpu, 2), (0, .radio, 4), (8_000_000_000_000_000_000, .disk, 8), (.max, .cpu, 16),
        ]
        var expected = [Double](repeating: 0, count: 21)
        expected[0] = 2
        expected[7 + 1] = 4
        expected[14 + 2] = 8
        let width: Nanoseconds = 6_000_000_000_000_000_000
        #expect(Aggregate.binnedTotals(ledger(entries), origin: origin, binWidth: width, binCount: 3) == expected)
        #expect(Aggregate.binnedTotals(ledger(entries.reversed()), origin: origin, binWidth: width, binCount: 3) == expected)
    }

    @Test func zeroBinsGiveAnEmptyResult() {
        #expect(Aggregate.binnedTotals(ledger(edgeEntries), origin: 0, binWidth: 10, binCount: 0).isEmpty)
        #expect(Aggregate.binnedTotals(CostLedger(), origin: 0, binWidth: 10, binCount: 2) == [Double](repeating: 0, count: 14))
    }
}
