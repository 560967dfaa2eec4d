import DrainTrace

/// The flow of each `net` event of a run, found through its connection label: a capture labels
/// each event with its flow's `connection` (`label2`), unique per input. 4 bytes per string of
/// the run; no hashing per event unless two inputs' flows share a label.
struct FlowOfRow {
    private struct Key: Hashable {
        var input: UInt16
        var connection: StringID
    }

    private let timeline: Timeline
    /// The flow of each connection label, by string id; -2 where flows of several inputs share
    /// the label, which `shared` then tells apart. Empty for a run without flows.
    private let flowOfLabel: [Int32]
    private let shared: [Key: Int32]

    /// O(flows + strings).
    init(_ timeline: Timeline) {
        let flows = timeline.flows
        var flowOfLabel = [Int32](repeating: -1, count: flows.count == 0 ? 0 : timeline.strings.count)
        var shared: [Key: Int32] = [:]
        for flow in 0..<flows.count where flows.connection[flow] != 0 {
            let label = Int(flows.connection[flow])
            let key = Key(input: flows.input[flow], connection: flows.connection[flow])
            switch flowOfLabel[label] {
            case -1:
                flowOfLabel[label] = Int32(flow)
            case -2:
                shared[key] = Int32(flow)
            case let earlier:
                shared[Key(input: flows.input[Int(earlier)], connection: flows.connection[flow])] = earlier
                shared[key] = Int32(flow)
                flowOfLabel[label] = -2
            }
        }
        (self.timeline, self.flowOfLabel, self.shared) = (timeline, flowOfLabel, shared)
    }

    /// Whether the run has no flows, so that no row has one.
    var isEmpty: Bool { flowOfLabel.isEmpty }

    /// The flow of the event at `row`; nil for one that is not a `net` event of a flow. O(1).
    func callAsFunction(_ row: Int) -> Int? {
        guard !flowOfLabel.isEmpty, timeline.kind[row] == .net, timeline.label2[row] != 0 else { return nil }
        let found = flowOfLabel[Int(timeline.label2[row])]
        if found >= 0 { return timeline.flows.input[Int(found)] == timeline.input[row] ? Int(found) : nil }
        guard found == -2 else { return nil }
        return shared[Key(input: timeline.input[row], connection: timeline.label2[row])].map(Int.init)
    }
}

/// The `net` events of every flow of a run (`FlowOfRow`).
///
/// Built once per run (`RuleContext.flowRows`) for all the rules that go from a flow to its
/// events, grouped by flow (`IndexGroups`), in time order. 4 bytes per `net` event with a flow
/// and per flow.
struct FlowRows: Sendable {
    private let groups: IndexGroups

    /// O(events + flows + strings).
    init(_ timeline: Timeline) {
        let flowOfRow = FlowOfRow(timeline)
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
