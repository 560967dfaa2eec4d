import DrainTrace

/// Prices traffic the run did not quite have: some of its `net` events, moved in time or onto
/// another link, on the model's radios alone. For "what would this cost batched, or over
/// Wi-Fi" evidence.
///
/// The events are fed, in time order, to `DeviceRadios` exactly as `Pricer` feeds a run's
/// `net` rows, including keeping the radio up over a capture event's span; so the simulated
/// energy and the run's `eventEnergy` are comparable to the last joule. Nothing of the run is
/// copied: the caller places the events one by one, already in time order, and the
/// simulation keeps one `Double` per placed event.
public enum RadioSimulation {
    /// The radio energy, joules, of the events `placeEvents` places, priced alone on the
    /// model's radios. O(e) for e placed events; allocates one `Double` per event.
    public static func energy(
        in timeline: Timeline, model: DeviceModel, _ placeEvents: (inout Placements) -> Void
    ) -> Double {
        var placements = Placements(timeline: timeline, model: model)
        placeEvents(&placements)
        return placements.finish()
    }

    /// The simulated radios, fed one placed event at a time.
    public struct Placements {
        private let timeline: Timeline
        private var radios: DeviceRadios
        private var spans: NetSpanMarkers
        private var sink = EventEnergies()
        private var end: Nanoseconds = 0
        private var latest = Nanoseconds.min

        init(timeline: Timeline, model: DeviceModel) {
            self.timeline = timeline
            radios = DeviceRadios(radio: model.radio)
            spans = NetSpanMarkers(radio: model.radio)
        }

        /// Places a copy of the `net` event at `row` (its direction, bytes and span) at `time`
        /// on `link`. Amortised O(1).
        ///
        /// - Precondition: `time` is not before the time of the event placed before it; events
        ///   at one time are priced in the order they are placed, as a timeline's rows are.
        public mutating func place(row: Int, at time: Nanoseconds, link: LinkKind) {
            precondition(time >= latest, "simulated events are placed in time order")
            latest = time
            let position = sink.joules.count
            sink.joules.append(0)
            let direction = NetDirection(rawValue: timeline.code[row]) ?? .rx
            let duration = timeline.duration[row]
            if !spans.isEmpty { spans.feed(until: time, radios: &radios, into: &sink) }
            radios.packet(
                RadioPacket(row: position, time: time, bytes: timeline.amount[row], direction: direction),
                link: link, into: &sink)
            spans.add(row: position, start: time, duration: duration, direction: direction, link: link)
            end = max(end, time + max(0, duration))
        }

        fileprivate mutating func finish() -> Double {
            spans.feed(until: .max, radios: &radios, into: &sink)
            radios.finish(at: end, into: &sink)
            // Summed per event in time order, as the run's `eventEnergy` would be.
            return sink.joules.reduce(0, +)
        }
    }

    /// The joules charged to each simulated event; segments are not kept.
    private struct EventEnergies: RadioEnergySink {
        var joules: [Double] = []

        mutating func record(_ segment: RadioSegment) {}

        mutating func charge(row: Int, start: Nanoseconds, duration: Nanoseconds, joules: Double) {
            guard joules > 0 else { return }
            self.joules[row] += joules
        }
    }
}
