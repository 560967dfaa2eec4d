import DrainTrace

/// The flow of each `net` event of a run, found through its connection label: a capture labels
/// each event with its flow's `connection` (`label2`), unique per input. 4 bytes per string
/// from the lowest connection label to the highest: a capture adds its connection labels
/// together as it ends, so that is about one per flow, not one per string of the run (request
/// paths and names included). No hashing per event unless two inputs' flows share a label.
struct FlowOfRow: Sendable {
    private struct Key: Hashable {
        var input: UInt16
        var connection: StringID
    }

    /// The run whose events it finds flows for.
    let timeline: Timeline
    /// The flow of each connection label, by string id less `lowestLabel`; -2 where flows of
    /// several inputs share the label, which `shared` then tells apart. Empty for a run without
    /// flows.
    private let flowOfLabel: [Int32]
    private let lowestLabel: Int
    private let shared: [Key: Int32]

    /// O(flows + l) for the l string ids from the lowest connection label to the highest.
    init(_ timeline: Timeline) {
        let flows = timeline.flows
        let labels = (0..<flows.count).lazy.map { Int(flows.connection[$0]) }.filter { $0 != 0 }
        let lowest = labels.min() ?? 0
        var flowOfLabel = [Int32](repeating: -1, count: labels.max().map { $0 - lowest + 1 } ?? 0)
        var shared: [Key: Int32] = [:]
        for flow in 0..<flows.count where flows.connection[flow] != 0 {
            let label = Int(flows.connection[flow]) - lowest
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
        (self.timeline, self.flowOfLabel, self.lowestLabel, self.shared) = (timeline, flowOfLabel, lowest, shared)
    }

    /// Whether the run has no flows, so that no row has one.
    var isEmpty: Bool { flowOfLabel.isEmpty }

    /// The flow of the event at `row`; nil for one that is not a `net` event of a flow. O(1).
    func callAsFunction(_ row: Int) -> Int? {
        guard !flowOfLabel.isEmpty, timeline.kind[row] == .net else { return nil }
        let place = Int(timeline.label2[row]) - lowestLabel
        guard place >= 0, place < flowOfLabel.count else { return nil }
        let found = flowOfLabel[place]
        if found >= 0 { return timeline.flows.input[Int(found)] == timeline.input[row] ? Int(found) : nil }
        guard found == -2 else { return nil }
        return shared[Key(input: timeline.input[row], connection: timeline.label2[row])].map(Int.init)
    }
}
