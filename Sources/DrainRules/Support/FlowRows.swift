import DrainTrace

/// The `net` events of chosen flows, found through their connection labels: a capture labels
/// each event with its flow's `connection` (`label2`), unique per input.
struct FlowRows {
    private struct Key: Hashable {
        var input: UInt16
        var connection: StringID
    }

    /// Flow index → its rows in time order, for the chosen flows only.
    private var rows: [Int: [Int]] = [:]

    /// Collects the rows of `flows` (indices into `timeline.flows`). O(n) with one dictionary
    /// lookup per `net` event; no pass at all when no flow is chosen.
    init(_ timeline: Timeline, flows chosen: some Sequence<Int>) {
        var flowOf: [Key: Int] = [:]
        for flow in chosen where timeline.flows.connection[flow] != 0 {
            flowOf[Key(input: timeline.flows.input[flow], connection: timeline.flows.connection[flow])] = flow
            rows[flow] = []
        }
        guard !flowOf.isEmpty else { return }
        for row in 0..<timeline.count where timeline.kind[row] == .net && timeline.label2[row] != 0 {
            if let flow = flowOf[Key(input: timeline.input[row], connection: timeline.label2[row])] {
                rows[flow, default: []].append(row)
            }
        }
    }

    /// The `net` rows of `flow`, in time order; empty for a flow that was not chosen.
    func rows(of flow: Int) -> [Int] { rows[flow] ?? [] }

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
