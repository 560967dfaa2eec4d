import DrainTrace

/// Prices traffic the run did not quite have: some of its `net` events, moved in time or onto
/// another link, on the model's radios alone. For "what would this cost batched, or over
/// Wi-Fi" evidence.
///
/// The events are fed, in time order, to `DeviceRadios` exactly as `Pricer` feeds a run's
/// `net` rows, including keeping the radio up over a capture event's span; so the simulated
/// energy and the run's `eventEnergy` are comparable to the last joule. Nothing of the run is
/// copied: the simulation keeps one `Double` per event.
public enum RadioSimulation {
    /// A `net` event of the run, placed for the simulation.
    public struct Placed {
        /// The run's row the event is copied from (its direction, bytes and span).
        public var row: Int
        public var time: Nanoseconds
        public var link: LinkKind

        public init(row: Int, time: Nanoseconds, link: LinkKind) {
            self.row = row
            self.time = time
            self.link = link
        }
    }

    /// The radio energy, joules, of `events` priced alone on the model's radios. O(e log e);
    /// allocates an order and one `Double` per event.
    public static func energy(of events: [Placed], in timeline: Timeline, model: DeviceModel) -> Double {
        // Stable by time, as a timeline sorts its rows.
        let order = events.indices.sorted { lhs, rhs in
            events[lhs].time != events[rhs].time ? events[lhs].time < events[rhs].time : lhs < rhs
        }
        var sink = EventEnergies(count: events.count)
        var radios = DeviceRadios(radio: model.radio)
        var spans = NetSpanMarkers(radio: model.radio)
        var end: Nanoseconds = 0
        for (position, index) in order.enumerated() {
            let event = events[index]
            let direction = NetDirection(rawValue: timeline.code[event.row]) ?? .rx
            let duration = timeline.duration[event.row]
            if !spans.isEmpty { spans.feed(until: event.time, radios: &radios, into: &sink) }
            radios.packet(
                RadioPacket(row: position, time: event.time, bytes: timeline.amount[event.row], direction: direction),
                link: event.link, into: &sink)
            spans.add(row: position, start: event.time, duration: duration, direction: direction, link: event.link)
            end = max(end, event.time + max(0, duration))
        }
        spans.feed(until: .max, radios: &radios, into: &sink)
        radios.finish(at: end, into: &sink)
        // Summed per event in time order, as the run's `eventEnergy` would be.
        return sink.joules.reduce(0, +)
    }

    /// The joules charged to each simulated event; segments are not kept.
    private struct EventEnergies: RadioEnergySink {
        var joules: [Double]

        init(count: Int) {
            joules = [Double](repeating: 0, count: count)
        }

        mutating func record(_ segment: RadioSegment) {}

        mutating func charge(row: Int, start: Nanoseconds, duration: Nanoseconds, joules: Double) {
            guard joules > 0 else { return }
            self.joules[row] += joules
        }
    }
}
