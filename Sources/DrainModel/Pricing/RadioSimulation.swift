import DrainTrace

/// Prices traffic the run did not quite have: some of its `net` events, moved in time or onto
/// another link, on the model's radios alone. For "what would this cost batched, or over
/// Wi-Fi" evidence.
///
/// The events are fed, in time order, to `DeviceRadios` as `Pricer` feeds a run's `net` rows,
/// keeping the radio up over a capture event's span; so the simulated energy equals what
/// pricing would charge those events, up to the order the joules are added in (spans of one
/// radio are kept up as one, `MergedSpanMarkers`, and the charges are summed as they come).
/// Nothing of the run is copied and nothing is kept per event: the caller places the events
/// one by one, already in time order.
public enum RadioSimulation {
    /// The radio energy, joules, of the events `placeEvents` places, priced alone on the
    /// model's radios. O(e) for e placed events, O(1) memory.
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
        private var spans: MergedSpanMarkers
        private var sink = TotalEnergy()
        private var end: Nanoseconds = 0
        private var latest = Nanoseconds.min

        init(timeline: Timeline, model: DeviceModel) {
            self.timeline = timeline
            radios = DeviceRadios(radio: model.radio)
            spans = MergedSpanMarkers(radio: model.radio)
        }

        /// Places a copy of the `net` event at `row` (its direction, bytes and span) at `time`
        /// on `link`. O(1).
        ///
        /// - Precondition: `time` is not before the time of the event placed before it; events
        ///   at one time are priced in the order they are placed, as a timeline's rows are.
        public mutating func place(row: Int, at time: Nanoseconds, link: LinkKind) {
            precondition(time >= latest, "simulated events are placed in time order")
            latest = time
            let (packet, _) = timeline.radioPacket(row: row, at: time)
            let duration = timeline.duration[row]
            spans.feed(until: time, radios: &radios, into: &sink)
            radios.packet(packet, link: link, into: &sink)
            if let radio = radios.radioLink(for: link) {
                spans.add(row: row, start: time, duration: duration, direction: packet.direction, link: link, radio: radio)
            }
            end = max(end, time + max(0, duration))
        }

        fileprivate mutating func finish() -> Double {
            spans.feed(until: .max, radios: &radios, into: &sink)
            radios.finish(at: end, into: &sink)
            return sink.joules
        }
    }

    /// The joules charged to the simulated events, summed as they are charged; segments are
    /// not kept.
    private struct TotalEnergy: RadioEnergySink {
        var joules = 0.0

        mutating func record(_ segment: RadioSegment) {}

        mutating func charge(row: Int, start: Nanoseconds, duration: Nanoseconds, joules: Double) {
            self.joules += joules
        }
    }
}
