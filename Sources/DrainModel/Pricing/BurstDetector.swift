import DrainTrace

/// A run of `net` events on one radio, closer together than the model's burst gap.
///
/// 56 bytes: rows and counts are kept in 32 bits (a timeline numbers its rows in 32 bits:
/// `RowSet`), as a long capture's bursts are held by two rules at once when memory peaks.
public struct Burst: Sendable, Equatable {
    /// Start of the first event and end (time + span) of the latest-ending one.
    public var start: Nanoseconds
    public var end: Nanoseconds
    public var bytes: Int64 = 0
    /// Joules the radios charged to the burst's events (`priced.eventEnergy`): the promotion
    /// it triggered, its transfer and connected time, and the tail after it.
    public var energy = 0.0
    private var storedFirstRow: UInt32
    private var storedLastRow: UInt32
    private var storedEvents: UInt32 = 0
    /// The events' host when bursts are split by endpoint; 0 when they are not.
    public var endpoint: StringID
    /// The radio that carried it: `.wifi` or `.cellular` (an unstated link resolved to the
    /// model's default, as pricing does).
    public var link: LinkKind

    public var firstRow: Int { Int(storedFirstRow) }
    public var lastRow: Int { Int(storedLastRow) }
    public var events: Int { Int(storedEvents) }

    /// A burst that starts with the event in `row`, the event itself still to add.
    init(link: LinkKind, endpoint: StringID, row: Int, start: Nanoseconds, end: Nanoseconds) {
        self.link = link
        self.endpoint = endpoint
        storedFirstRow = UInt32(row)
        storedLastRow = storedFirstRow
        self.start = start
        self.end = end
    }
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
    /// endpoint, 24 bytes per string of the timeline (the tables of open bursts), none per event.
    public static func bursts(in priced: PricedTimeline, model: DeviceModel, by grouping: Grouping) -> [Burst] {
        var count = 0
        forEachBurstStart(in: priced, model: model, by: grouping) { _ in count += 1 }
        return firstBursts(in: priced, model: model, by: grouping, limit: count).bursts
    }

    /// The first `limit` bursts of `bursts(in:model:by:)` and how many it has in all, without
    /// keeping the others: the report lists a few thousand of a long run's bursts. O(n +
    /// strings) time; memory for `limit` bursts (reserved up front when it is below the
    /// number of `net` events) and, grouped by endpoint, 24 bytes per string.
    public static func firstBursts(
        in priced: PricedTimeline, model: DeviceModel, by grouping: Grouping, limit: Int
    ) -> (bursts: [Burst], count: Int) {
        let found = collect(in: priced, model: model, by: grouping, capacity: min(limit, priced.timeline.count)) {
            $0 < limit
        }
        return (found.bursts, found.all)
    }

    /// The bursts of `bursts(in:model:by:)` at `ordinals` (their places in that list, ascending),
    /// in that order, without keeping the others: a rule that chose a few bursts from their
    /// starts (`forEachBurstStart`) takes only those. O(n + strings) time; memory for the
    /// chosen bursts and, grouped by endpoint, 24 bytes per string.
    ///
    /// - Precondition: `ordinals` ascend.
    public static func bursts(
        in priced: PricedTimeline, model: DeviceModel, by grouping: Grouping, at ordinals: [Int]
    ) -> [Burst] {
        var next = 0
        return collect(in: priced, model: model, by: grouping, capacity: ordinals.count) { ordinal in
            while next < ordinals.count, ordinals[next] < ordinal { next += 1 }
            return next < ordinals.count && ordinals[next] == ordinal
        }.bursts
    }

    /// Calls `body` with each burst as it begins, in the order of `bursts(in:model:by:)`: its
    /// radio, endpoint, first row and start are known, not yet its end, bytes, events or
    /// energy. O(n + strings) time, 24 bytes per string, nothing per burst.
    public static func forEachBurstStart(
        in priced: PricedTimeline, model: DeviceModel, by grouping: Grouping, _ body: (Burst) -> Void
    ) {
        var open = OpenBursts(priced.timeline, model: model, by: grouping)
        forEachEvent(in: priced.timeline, model: model, by: grouping) { event in
            if open.startsBurst(event) { body(event.burst) }
        }
    }

    /// The bursts whose ordinals `keep` accepts (asked once per burst, in ascending order), and
    /// how many bursts there are in all.
    private static func collect(
        in priced: PricedTimeline, model: DeviceModel, by grouping: Grouping, capacity: Int, keep: (Int) -> Bool
    ) -> (bursts: [Burst], all: Int) {
        var bursts: [Burst] = []
        bursts.reserveCapacity(capacity)
        var count = 0
        var open = OpenBursts(priced.timeline, model: model, by: grouping)
        // Where each slot's open burst is in `bursts`; -1 when it is not kept.
        var openIndex = [Int32](repeating: -1, count: open.slotCount)
        forEachEvent(in: priced.timeline, model: model, by: grouping) { event in
            if open.startsBurst(event) {
                let kept = keep(count)
                openIndex[event.slot] = kept ? Int32(truncatingIfNeeded: bursts.count) : -1
                if kept { bursts.append(event.burst) }
                count += 1
            }
            let index = Int(openIndex[event.slot])
            if index >= 0 { bursts[index].add(event, energy: priced.eventEnergy) }
        }
        return (bursts, count)
    }

    /// The end of the open burst of each (endpoint, radio) slot, and the burst rule: an event
    /// starts a new burst when its slot has none open or it starts `radio.burst_gap_s` or more
    /// after the open one's end.
    private struct OpenBursts {
        private var ends: [Nanoseconds]
        private let gap: Nanoseconds

        /// One slot per radio, or one per radio of each string.
        init(_ timeline: Timeline, model: DeviceModel, by grouping: Grouping) {
            ends = [Nanoseconds](repeating: .min, count: grouping == .endpoint ? 2 * timeline.strings.count : 2)
            gap = Clock.nanoseconds(min(max(0, model.radio.burstGapS.value), Clock.longestSpanSeconds))
        }

        var slotCount: Int { ends.count }

        /// Whether `event` starts a new burst in its slot; either way it extends the slot's
        /// open burst to its end.
        mutating func startsBurst(_ event: Event) -> Bool {
            let previous = ends[event.slot]
            let starts = previous == .min || event.start - previous >= gap
            ends[event.slot] = starts ? event.end : max(previous, event.end)
            return starts
        }
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
        var burst: Burst { Burst(link: link, endpoint: endpoint, row: row, start: start, end: end) }
    }

    /// Calls `body` with each `net` event that belongs to a burst, in row order: on a radio
    /// link, and grouped by endpoint, with a host. An event's slot is
    /// `2 × endpoint + (cellular ? 1 : 0)`.
    private static func forEachEvent(
        in timeline: Timeline, model: DeviceModel, by grouping: Grouping, _ body: (Event) -> Void
    ) {
        let radios = RadioLinks(radio: model.radio)
        for row in 0..<timeline.count where timeline.kind[row] == .net {
            guard let link = radios.radio(forCode: timeline.code2[row]) else { continue }
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
        storedLastRow = UInt32(event.row)
        storedEvents += 1
        end = max(end, event.end)
        bytes += event.bytes
        self.energy += energy[event.row]
    }
}
