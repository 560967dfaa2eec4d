import DrainTrace

/// What `Pricer` builds while it walks a timeline: the ledger, each row's joules and the radio
/// segments. Radio state machines write into it as their `RadioEnergySink`.
struct PricingAccumulator: RadioEnergySink {
    var ledger: CostLedger
    var eventEnergy: [Double]
    /// The timeline's `label` column: the host of a `net` row, which keys its radio energy.
    let hosts: [StringID]
    var wifiSegments: [RadioSegment] = []
    var cellularSegments: [RadioSegment] = []

    init(timeline: Timeline, resolution: Nanoseconds) {
        ledger = CostLedger(resolution: resolution)
        eventEnergy = [Double](repeating: 0, count: timeline.count)
        hosts = timeline.label
        ledger.reserveCapacity(timeline.count)
    }

    /// Adds priced work of one row to the ledger and to the row's joules.
    mutating func add(
        row: Int, time: Nanoseconds, duration: Nanoseconds, category: EnergyCategory, joules: Double, key: StringID
    ) {
        guard joules > 0 else { return }
        ledger.add(time: time, duration: duration, category: category, joules: joules, key: key, event: row)
        eventEnergy[row] += joules
    }

    mutating func record(_ segment: RadioSegment) {
        if segment.link == .wifi {
            wifiSegments.append(segment)
        } else {
            cellularSegments.append(segment)
        }
    }

    mutating func charge(row: Int, start: Nanoseconds, duration: Nanoseconds, joules: Double) {
        add(row: row, time: start, duration: duration, category: .radio, joules: joules, key: hosts[row])
    }
}
