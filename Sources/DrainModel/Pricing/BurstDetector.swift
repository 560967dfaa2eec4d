import DrainTrace

/// A run of `net` events on one radio, closer together than the model's burst gap.
public struct Burst: Sendable, Equatable {
    /// The radio that carried it: `.wifi` or `.cellular` (an unstated link resolved to the
    /// model's default, as pricing does).
    public var link: LinkKind
    /// The events' host when bursts are split by endpoint; 0 when they are not.
    public var endpoint: StringID
    public var firstRow: Int
    public var lastRow: Int
    /// Start of the first event and end (time + span) of the latest-ending one.
    public var start: Nanoseconds
    public var end: Nanoseconds
    public var bytes: Int64 = 0
    public var events = 0
    /// Joules the radios charged to the burst's events (`priced.eventEnergy`): the promotion
    /// it triggered, its transfer and connected time, and the tail after it.
    public var energy = 0.0
}

/// Splits the `net` events of a priced run into bursts (`GUIDANCE.md`: a run of packets on one
/// interface with gaps shorter than the model's `radio.burst_gap_s`).
///
/// A gap is measured from the end of the burst so far (the latest event end, so a capture's
/// spanning events count with their span) to the next event's start. Events of links without a
/// radio (ethernet, loopback) cost no radio energy and form no bursts.
public enum BurstDetector {
    public enum Grouping: Sendable {
        /// All traffic of one radio: the interface bursts the radio sees.
        case link
        /// Each host's traffic on each radio separately: the bursts one endpoint causes.
        /// Events without a host are left out.
        case endpoint
    }

    /// The bursts of `priced`, in the order of their first event. O(n + strings) time (two
    /// walks: the first counts the bursts, so that their array is allocated once, at its size —
    /// the rules that ask run side by side when memory peaks); memory per burst and, grouped by
    /// endpoint, up to 24 bytes per string of the timeline (the tables of open bursts), none
    /// per event.
    public static func bursts(in priced: PricedTimeline, model: DeviceModel, by grouping: Grouping) -> [Burst] {
        let gap = burstGap(model)
        var bursts: [Burst] = []
        bursts.reserveCapacity(firstBursts(in: priced, model: model, by: grouping, limit: 0).count)
        // The open burst of each (endpoint, radio), at `slot`.
        var open = [Int32](repeating: -1, count: slotCount(priced.timeline, grouping))
        forEachEvent(in: priced.timeline, model: model, by: grouping) { event in
            var index = Int(open[event.slot])
            if index < 0 || event.start - bursts[index].end >= gap {
                index = bursts.count
                bursts.append(event.burst)
                open[event.slot] = Int32(truncatingIfNeeded: index)
            }
            bursts[index].add(event, energy: priced.eventEnergy)
        }
        return bursts
    }

    /// The first `limit` bursts of `bursts(in:model:by:)` and how many it has in all, without
    /// keeping the others: the report lists a few thousand of a long run's bursts. O(n +
    /// strings) time; memory for `limit` bursts and, grouped by endpoint, 24 bytes per string.
    public static func firstBursts(
        in priced: PricedTimeline, model: DeviceModel, by grouping: Grouping, limit: Int
    ) -> (bursts: [Burst], count: Int) {
        let gap = burstGap(model)
        var bursts: [Burst] = []
        var count = 0
        // The open burst of each slot: its end, and its place in `bursts` (-1 past the limit).
        var openEnd = [Nanoseconds](repeating: .min, count: slotCount(priced.timeline, grouping))
        var openIndex = [Int32](repeating: -1, count: openEnd.count)
        forEachEvent(in: priced.timeline, model: model, by: grouping) { event in
            if openEnd[event.slot] == .min || event.start - openEnd[event.slot] >= gap {
                openIndex[event.slot] = count < limit ? Int32(truncatingIfNeeded: bursts.count) : -1
                if count < limit { bursts.append(event.burst) }
                count += 1
            }
            openEnd[event.slot] = max(openEnd[event.slot], event.end)
            let index = Int(openIndex[event.slot])
            if index >= 0 { bursts[index].add(event, energy: priced.eventEnergy) }
        }
        return (bursts, count)
    }

    /// How many bursts each host caused on any radio (`Grouping.endpoint`), indexed by the
    /// host's string id; the counts `bursts(in:model:by: .endpoint)` gives, without the bursts.
    /// O(n + strings) time, 24 bytes per string.
    public static func burstCountsByEndpoint(in priced: PricedTimeline, model: DeviceModel) -> [Int] {
        let gap = burstGap(model)
        var counts = [Int](repeating: 0, count: priced.timeline.strings.count)
        var openEnd = [Nanoseconds](repeating: .min, count: slotCount(priced.timeline, .endpoint))
        forEachEvent(in: priced.timeline, model: model, by: .endpoint) { event in
            if openEnd[event.slot] == .min || event.start - openEnd[event.slot] >= gap {
                counts[Int(event.endpoint)] += 1
            }
            openEnd[event.slot] = max(openEnd[event.slot], event.end)
        }
        return counts
    }

    /// One `net` event that forms bursts: its row, radio, host (0 unless grouped by endpoint),
    /// the slot of its (endpoint, radio) pair and its time.
    fileprivate struct Event {
        var row: Int
        var link: LinkKind
        var endpoint: StringID
        var slot: Int
        var start: Nanoseconds
        var end: Nanoseconds
        var bytes: Int64

        /// A burst of this event alone, its energy still to add.
        var burst: Burst { Burst(link: link, endpoint: endpoint, firstRow: row, lastRow: row, start: start, end: end) }
    }

    /// The slots of open bursts: one per radio, or one per radio of each string.
    private static func slotCount(_ timeline: Timeline, _ grouping: Grouping) -> Int {
        grouping == .endpoint ? 2 * timeline.strings.count : 2
    }

    /// The gap that ends a burst (`radio.burst_gap_s`).
    private static func burstGap(_ model: DeviceModel) -> Nanoseconds {
        Clock.nanoseconds(min(max(0, model.radio.burstGapS.value), Clock.longestSpanSeconds))
    }

    /// Calls `body` with each `net` event that belongs to a burst, in row order: on a radio
    /// link, and grouped by endpoint, with a host. An event's slot is
    /// `2 × endpoint + (cellular ? 1 : 0)`.
    private static func forEachEvent(
        in timeline: Timeline, model: DeviceModel, by grouping: Grouping, _ body: (Event) -> Void
    ) {
        let radios = DeviceRadios(radio: model.radio)
        for row in 0..<timeline.count where timeline.kind[row] == .net {
            guard let link = radios.radioLink(for: LinkKind(rawValue: timeline.code2[row]) ?? .unspecified) else { continue }
            let endpoint = grouping == .endpoint ? timeline.label[row] : 0
            if grouping == .endpoint, endpoint == 0 { continue }
            let start = timeline.time[row]
            body(
                Event(
                    row: row, link: link, endpoint: endpoint, slot: 2 * Int(endpoint) + (link == .wifi ? 0 : 1), start: start,
                    end: start + max(0, timeline.duration[row]), bytes: max(0, timeline.amount[row])))
        }
    }
}

extension Burst {
    /// Takes `event` into the burst: its last row, end, bytes, count and joules.
    fileprivate mutating func add(_ event: BurstDetector.Event, energy: [Double]) {
        lastRow = event.row
        end = max(end, event.end)
        bytes += event.bytes
        events += 1
        self.energy += energy[event.row]
    }
}
