import DrainTrace

/// The flow of each `net` event of a run, found through its connection label: a capture labels
/// each event with its flow's `connection` (`label2`), unique per input. 4 bytes per string of
/// the run; no hashing per event unless two inputs' flows share a label.
struct FlowOfRow: Sendable {
    private struct Key: Hashable {
        var input: UInt16
        var connection: StringID
    }

    /// The run whose events it finds flows for.
    let timeline: Timeline
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
