import DrainAggregate
import DrainTrace
import Testing

@Suite struct BinGridTests {
    private let second: Nanoseconds = 1_000_000_000

    /// Two segments, 0–10 s and 25–31 s, in 4 s bins: ⌈10 / 4⌉ = 3 bins, then the stretch from
    /// 12 s (the end of bin 2) to 25 s as one piece that is bin 2, then ⌈6 / 4⌉ = 2 bins.
    @Test func laysBinsOverSegmentsAndFoldsTheStretchBetweenIntoTheLastBin() {
        let grid = BinGrid(segments: [(0, 10 * second), (25 * second, 31 * second)], width: 4 * second)
        #expect(grid.binCount == 5)
        #expect(grid.pieces.map(\.origin) == [0, 12 * second, 25 * second])
        #expect(grid.pieces.map(\.width) == [4 * second, 13 * second, 4 * second])
        #expect(grid.pieces.map(\.count) == [3, 1, 2])
        #expect(grid.pieces.map(\.firstBin) == [0, 2, 3])
        #expect(grid.segmentStarts.map(\.firstBin) == [0, 3])
        let times: [Double] = [0, 3.999, 4, 9.9, 11, 20, 25, 29.5, 100]
        #expect(times.map { grid.bin(of: Clock.nanoseconds($0)) } == [0, 0, 1, 2, 2, 2, 3, 4, 4])
    }

    /// A segment that ends on a bin edge leaves no stretch; an empty segment still has a bin.
    @Test func segmentsEndingOnABinEdgeHaveNoStretchPiece() {
        let grid = BinGrid(segments: [(0, 8 * second), (8 * second, 8 * second)], width: 4 * second)
        #expect(grid.pieces.map(\.count) == [2, 1])
        #expect(grid.binCount == 3)
        #expect(BinGrid(segments: [], width: second).binCount == 0)
    }

    /// The chart's grid of a run: automatic width, gaps as breaks, a run ending in a gap closed.
    @Test func chartGridFollowsTheTimelinesGaps() {
        var timeline = Timeline()
        timeline.end = 1_000 * second
        timeline.gaps = TimeGaps(threshold: 60 * second, gaps: [TimeGap(start: 100 * second, end: 700 * second)])
        // Segments of 100 s and 300 s: 1 s bins give 400, at most 600, so 1 s.
        let grid = BinGrid(chartOf: timeline)
        #expect(grid.width == second && grid.binCount == 400 && grid.isOpen)
        #expect(BinGrid(chartOf: timeline, binSeconds: 50).binCount == 2 + 6)
        timeline.gaps = TimeGaps(
            threshold: 60 * second, gaps: [TimeGap(start: 100 * second, end: 1_000 * second)], trailing: true)
        #expect(!BinGrid(chartOf: timeline).isOpen)
        // 3,000 s in one segment: 1 s and 2 s bins give more than 600, 5 s gives 600.
        #expect(BinGrid.width(forSegments: [3_000]) == 5)
        #expect(BinGrid.width(forSegments: [3_001]) == 10)
    }
}

@Suite struct CostSummaryTests {
    private let second: Nanoseconds = 1_000_000_000
    private let keyCount = Int(randomKeySpace) - 10

    /// Segments of the random ledgers' span (entries from 0–1 s to about 21 s): entries before
    /// the first segment and in the gap between the first two are binned by the grid's rules.
    private var segments: [(start: Nanoseconds, end: Nanoseconds)] {
        [(second / 2, 6 * second), (9 * second, 14 * second), (14 * second + second / 2, 16 * second)]
    }

    /// The report's bins from a whole ledger with the scalar reference: each segment's bins,
    /// the stretch after a segment added to its last bin, the last segment `lastCount` bins.
    private func referenceBins(_ ledger: CostLedger, width: Nanoseconds, lastCount: Int) -> [Double] {
        var bins: [Double] = []
        for (index, segment) in segments.enumerated() {
            let count =
                index == segments.count - 1
                ? lastCount : max(1, Int((segment.end - segment.start + width - 1) / width))
            var part = ScalarAggregate.binnedTotals(ledger, origin: segment.start, binWidth: width, binCount: count)
            let after = segment.start + Int64(count) * width
            if index + 1 < segments.count, segments[index + 1].start > after {
                let stretch = ScalarAggregate.binnedTotals(
                    ledger, origin: after, binWidth: segments[index + 1].start - after, binCount: 1)
                for category in 0..<EnergyCategory.count { part[(count - 1) * EnergyCategory.count + category] += stretch[category] }
            }
            bins += part
        }
        return bins
    }

    /// A shuffled ledger folded in pieces of any size (pricing folds a ledger whenever it
    /// fills) gives what the scalar reference gives on the whole ledger: with dyadic energies
    /// every sum is exact in any order, so the results must be equal, not close. The open last
    /// segment grows to the last entry and is closed 1.3 s after it.
    @Test(arguments: [1, 7, 64, 1_000, 65_536])
    func foldingInPiecesEqualsTheWholeLedger(pieceLength: Int) {
        let whole = randomLedger(count: 20_000, seed: 0xC057 &+ UInt64(pieceLength), sorted: false, energies: .dyadic)
        let width: Nanoseconds = 700_000_000
        var summary = CostSummary(grid: BinGrid(segments: segments, width: width), keyCount: keyCount)
        var piece = CostLedger()
        for index in 0..<whole.count {
            piece.add(
                time: whole.time[index], category: EnergyCategory(rawValue: whole.category[index])!,
                joules: Double(whole.energy[index]), key: whole.key[index])
            if piece.count == pieceLength { summary.fold(&piece) }
        }
        summary.fold(&piece)
        #expect(piece.count == 0)
        let end = whole.time.max()! + 1_300_000_000
        summary.close(at: end)
        let lastStart = segments[segments.count - 1].start
        let lastCount = Int((end - lastStart + width - 1) / width)
        #expect(summary.grid.binCount == summary.bins.count / EnergyCategory.count)
        #expect(summary.totals == ScalarAggregate.totals(whole))
        #expect(summary.bins == referenceBins(whole, width: width, lastCount: lastCount))
        for category in EnergyCategory.allCases {
            let expected = ScalarAggregate.sumsByKey(whole, keyCount: keyCount, category: category)
            let charged = expected.entries.indices.filter { expected.entries[$0] > 0 }
            #expect(
                summary.charges(for: category)
                    == charged.map { KeyCharge(key: StringID($0), energyJ: expected.energy[$0], entries: expected.entries[$0]) },
                "\(category.name)")
            for key in [0, charged.first ?? 0, charged.last ?? 0, keyCount - 1, keyCount, keyCount + 5] {
                let energy = key < keyCount ? expected.energy[key] : 0
                #expect(summary.energy(of: StringID(key), in: category) == energy, "\(category.name) \(key)")
            }
        }
    }

    /// Two summaries of disjoint categories (the two pricing passes) add up to the summary of
    /// all the entries (exactly: dyadic energies); closing drops the bins past the end, as a
    /// report's bins to its end do.
    @Test func summariesOfDisjointCategoriesAddUpExactly() {
        let whole = randomLedger(count: 5_000, seed: 0xADD, energies: .dyadic)
        let grid = BinGrid(segments: [(0, 3 * second)], width: second / 4)
        var both = CostSummary(grid: grid, keyCount: keyCount)
        var cpu = CostSummary(grid: grid, keyCount: keyCount)
        var others = CostSummary(grid: grid, keyCount: keyCount)
        var all = whole
        var cpuOnly = CostLedger()
        var rest = CostLedger()
        for index in 0..<whole.count {
            let category = EnergyCategory(rawValue: whole.category[index])!
            let joules = Double(whole.energy[index])
            if category == .cpu {
                cpuOnly.add(time: whole.time[index], category: category, joules: joules, key: whole.key[index])
            } else {
                rest.add(time: whole.time[index], category: category, joules: joules, key: whole.key[index])
            }
        }
        both.fold(&all)
        cpu.fold(&cpuOnly)
        others.fold(&rest)
        let end = 2 * second
        both.close(at: end)
        cpu.close(at: end)
        others.close(at: end)
        cpu.add(others)
        #expect(both.grid.binCount == 8 && cpu.grid.binCount == 8)
        #expect(cpu.bins == both.bins)
        #expect(cpu.totals == both.totals)
        for category in EnergyCategory.allCases {
            #expect(cpu.charges(for: category) == both.charges(for: category))
        }
    }

    /// A grid closed from the start (a run ending in a time gap) does not grow: energy after
    /// its last bin is counted in the totals only.
    @Test func aClosedGridDoesNotGrow() {
        var summary = CostSummary(grid: BinGrid(segments: [(0, 2 * second)], width: second, openEnd: false), keyCount: 1)
        var entries = ledger([(0, .cpu, 1), (second + 1, .cpu, 2), (30 * second, .cpu, 4)])
        summary.fold(&entries)
        summary.close(at: 40 * second)
        #expect(summary.grid.binCount == 2)
        let cpu = Int(EnergyCategory.cpu.rawValue)
        #expect(summary.bins[cpu] == 1 && summary.bins[EnergyCategory.count + cpu] == 2)
        #expect(summary.totals[Int(EnergyCategory.cpu.rawValue)] == 7)
        #expect(summary.charges(for: .cpu) == [KeyCharge(key: 0, energyJ: 7, entries: 3)])
        #expect(summary.charges(for: .radio).isEmpty && summary.energy(of: 0, in: .radio) == 0)
    }
}
