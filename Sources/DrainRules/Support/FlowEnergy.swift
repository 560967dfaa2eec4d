import DrainTrace

/// The joules charged to the `net` events of each flow of a run (`FlowOfRow`), with their
/// spans: all of them, and those whose span overlaps the flow's exchanges, from its first
/// request to its last response (NET-CHATTY).
///
/// Built once per run (`RuleContext.flowEnergy`) for the rules that price flows, in one pass
/// over the run's events. Each flow's sums add its events' joules in time order, as a walk of
/// the flow's own events would. 16 bytes per flow, where gathering every flow's events cost
/// 4 bytes per event.
struct FlowEnergy: Sendable {
    /// The joules of each flow's events.
    let total: [Double]
    /// The joules of each flow's events whose span overlaps
    /// `[firstExchangeTime, lastExchangeTime]`.
    let duringExchanges: [Double]

    /// `eventEnergy`: the joules of each event of `flowOfRow`'s run (`PricedRun.eventEnergy`).
    /// O(events + flows).
    init(_ flowOfRow: FlowOfRow, eventEnergy: [Double]) {
        let timeline = flowOfRow.timeline
        let flows = timeline.flows
        var total = [Double](repeating: 0, count: flows.count)
        var duringExchanges = [Double](repeating: 0, count: flows.count)
        if !flowOfRow.isEmpty {
            for row in 0..<timeline.count {
                guard let flow = flowOfRow(row) else { continue }
                let joules = eventEnergy[row]
                total[flow] += joules
                let start = timeline.time[row]
                let end = start + max(0, timeline.duration[row])
                if start <= flows.lastExchangeTime[flow], end >= flows.firstExchangeTime[flow] {
                    duringExchanges[flow] += joules
                }
            }
        }
        (self.total, self.duringExchanges) = (total, duringExchanges)
    }
}
