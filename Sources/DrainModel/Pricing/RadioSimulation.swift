import DrainTrace

/// Prices traffic the run did not quite have: some of its `net` events, moved in time or onto
/// another link, on the model's radios alone. For "what would this cost batched, or over
/// Wi-Fi" evidence.
///
/// The events are copied into a timeline of their own and priced by `Pricer`, which feeds them
/// to `DeviceRadios` exactly as it priced the run, including keeping the radio up over a
/// capture event's span; so the simulated energy and the run's `eventEnergy` are comparable to
/// the last joule.
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
    /// allocates the copy once.
    public static func energy(of events: [Placed], in timeline: Timeline, model: DeviceModel) -> Double {
        var copy = Timeline()
        copy.reserveCapacity(events.count)
        for event in events {
            copy.append(
                Event(
                    time: event.time, kind: .net, code: timeline.code[event.row], code2: event.link.rawValue,
                    amount: timeline.amount[event.row], duration: timeline.duration[event.row]))
        }
        copy.sortByTime()
        let priced = Pricer(model: model).price(copy)
        return priced.eventEnergy.reduce(0, +)
    }
}
