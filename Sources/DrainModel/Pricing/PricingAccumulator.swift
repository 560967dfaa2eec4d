import DrainAggregate
import DrainTrace

/// What one pricing pass builds while it walks a timeline: its cost summary (through a ledger
/// of at most about `CostSummary.foldLength` entries, folded in whenever it fills), the sums of
/// its radio segments (`RadioActivity`), and the joules of the rows it prices. Radio state
/// machines write into it as their `RadioEnergySink`.
///
/// The ledger grows as entries come rather than being reserved whole: a pass over a capture's
/// rows with nothing but `net` events prices none of them, and its 1.1 MB ledger would be
/// held while the radio pass runs, when memory peaks.
struct PricingAccumulator: RadioEnergySink {
    private var ledger: CostLedger
    private var costs: CostSummary
    /// Joules of each timeline row, shared by the passes: each pass adds to its own rows only.
    let eventEnergy: RowEnergy
    /// The timeline's `label` column: the host of a `net` row, which keys its radio energy.
    let hosts: [StringID]
    var radio = RadioActivity()

    init(timeline: Timeline, grid: BinGrid, eventEnergy: RowEnergy) {
        ledger = CostLedger(resolution: CostLedger.resolution(forBinWidth: grid.width))
        costs = CostSummary(grid: grid, keyCount: timeline.strings.count)
        self.eventEnergy = eventEnergy
        hosts = timeline.label
    }

    /// Adds priced work of one row to the ledger and to the row's joules.
    mutating func add(
        row: Int, time: Nanoseconds, duration: Nanoseconds, category: EnergyCategory, joules: Double, key: StringID
    ) {
        guard joules > 0 else { return }
        ledger.add(time: time, duration: duration, category: category, joules: joules, key: key)
        eventEnergy.rows[row] += joules
        if ledger.count >= CostSummary.foldLength { costs.fold(&ledger) }
    }

    /// The pass's cost summary once the pass is over, its grid closed at `end`.
    mutating func closeCosts(at end: Nanoseconds) -> CostSummary {
        costs.fold(&ledger)
        costs.close(at: end)
        return costs
    }

    mutating func record(_ segment: RadioSegment) {
        radio.add(segment)
    }

    mutating func charge(row: Int, start: Nanoseconds, duration: Nanoseconds, joules: Double) {
        add(row: row, time: start, duration: duration, category: .radio, joules: joules, key: hosts[row])
    }
}

/// The joules of each timeline row, written by the two pricing passes at once. Sendable
/// because the passes add to disjoint rows (`net` rows and all others) and the threads are
/// joined before anything reads it.
struct RowEnergy: @unchecked Sendable {
    let rows: UnsafeMutableBufferPointer<Double>
}
