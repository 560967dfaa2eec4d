import DrainTrace

/// The `net` events of every flow of a run (`FlowOfRow`).
///
/// Built once per run (`RuleContext.flowRows`) for all the rules that go from a flow to its
/// events, grouped by flow (`IndexGroups`), in time order. 4 bytes per `net` event with a flow
/// and per flow.
struct FlowRows: Sendable {
    private let groups: IndexGroups

    /// The events of each flow `flowOfRow` finds in its run. O(events + flows).
    init(_ flowOfRow: FlowOfRow) {
        let timeline = flowOfRow.timeline
        guard !flowOfRow.isEmpty else {
            groups = IndexGroups(empty: timeline.flows.count)
            return
        }
        groups = IndexGroups(count: timeline.count, groups: timeline.flows.count) { flowOfRow($0) }
    }

    /// The rows of `flow`'s `net` events, in time order. O(1).
    func rows(of flow: Int) -> LazyMapSequence<ArraySlice<Int32>, Int> {
        groups.members(of: flow).lazy.map(Int.init)
    }

    /// The joules charged to the events of `flow` that overlap `[start, end]` (all of them by
    /// default), with their spans.
    func energy(
        of flow: Int, in timeline: Timeline, _ eventEnergy: [Double], from start: Nanoseconds = .min,
        to end: Nanoseconds = .max
    ) -> Double {
        rows(of: flow).reduce(0) { total, row in
            let eventStart = timeline.time[row]
            let eventEnd = eventStart + max(0, timeline.duration[row])
            return eventStart <= end && eventEnd >= start ? total + eventEnergy[row] : total
        }
    }
}
