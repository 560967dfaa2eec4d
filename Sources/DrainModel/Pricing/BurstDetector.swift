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
    /// endpoint, 4 bytes per string of the timeline and 24 per endpoint (the tables of open
    /// bursts), none per event.
    public static func bursts(in priced: PricedTimeline, model: DeviceModel, by grouping: Grouping) -> [Burst] {
        var count = 0
        forEachBurstStart(in: priced, model: model, by: grouping) { _, _ in count += 1 }
        return firstBursts(in: priced, model: model, by: grouping, limit: count).bursts
    }

    /// The first `limit` bursts of `bursts(in:model:by:)` and how many it has in all, without
    /// keeping the others: the report lists a few thousand of a long run's bursts. O(n +
    /// strings) time; memory for `limit` bursts (reserved up front when it is below the
    /// number of `net` events) and, grouped by endpoint, 4 bytes per string and 24 per endpoint.
    public static func firstBursts(
        in priced: PricedTimeline, model: DeviceModel, by grouping: Grouping, limit: Int
    ) -> (bursts: [Burst], count: Int) {
        let found = collect(in: priced, model: model, by: grouping, capacity: min(limit, priced.timeline.count)) {
            $0 < limit
        }
        return (found.bursts, found.all)
    }

    /// Calls `body` with each burst of `bursts(in:model:by:)` whose ordinal (its place in that
    /// list) `keep` accepts, whole, in ordinal order: a rule that chose a few bursts from their
    /// starts (`forEachBurstStart`) folds in only those, without keeping them. `keep` is asked
    /// once per burst, in ascending order. O(n + strings) time; memory, besides 4 bytes per
    /// string and 24 per endpoint when grouped by endpoint, for the chosen bursts from the
    /// earliest still open to the latest begun (a burst is passed on once it and every chosen
    /// one before it have ended).
    public static func forEachBurst(
        in priced: PricedTimeline, model: DeviceModel, by grouping: Grouping, where keep: (Int) -> Bool,
        _ body: (_ ordinal: Int, Burst) -> Void
    ) {
        var open = OpenBursts(priced.timeline, model: model, by: grouping)
        // The chosen bursts not yet passed on, in ordinal order, from `waiting[head]`; the first
        // `dropped` chosen bursts have left the array.
        var waiting: [(ordinal: Int, burst: Burst, ended: Bool)] = []
        var head = 0
        var dropped = 0
        // Which chosen burst (counted from the first) is open in each slot; -1 for none.
        var openChosen: [Int32] = []
        var count = 0
        func passEnded() {
            while head < waiting.count, waiting[head].ended {
                body(waiting[head].ordinal, waiting[head].burst)
                head += 1
            }
            if head >= 256, head * 2 >= waiting.count {
                waiting.removeFirst(head)
                dropped += head
                head = 0
            }
        }
        forEachEvent(in: priced.timeline, model: model, by: grouping) { event in
            let (slot, starts) = open.take(event)
            open.grow(&openChosen)
            if starts {
                let ended = Int(openChosen[slot])
                openChosen[slot] = -1
                if ended >= 0 {
                    waiting[ended - dropped].ended = true
                    passEnded()
                }
                if keep(count) {
                    openChosen[slot] = Int32(truncatingIfNeeded: dropped + waiting.count)
                    waiting.append((count, event.burst, false))
                }
                count += 1
            }
            let chosen = Int(openChosen[slot])
            if chosen >= 0 { waiting[chosen - dropped].burst.add(event, energy: priced.eventEnergy) }
        }
        for index in waiting.indices { waiting[index].ended = true }
        passEnded()
    }

    /// Calls `body` with each burst as it begins, in the order of `bursts(in:model:by:)`: its
    /// radio, endpoint, first row and start are known, not yet its end, bytes, events or
    /// energy. With it comes its group's slot: the same for every burst of one radio (grouped
    /// by link) or of one endpoint on one radio (grouped by endpoint), numbered from 0 without
    /// gaps in the order the groups' endpoints first had an event (two per endpoint: Wi-Fi
    /// 2k, cellular 2k + 1), so a caller can keep figures per group in an array.
    /// O(n + strings) time, 4 bytes per string and 24 per endpoint, nothing per burst.
    public static func forEachBurstStart(
        in priced: PricedTimeline, model: DeviceModel, by grouping: Grouping, _ body: (Burst, _ slot: Int) -> Void
    ) {
        var open = OpenBursts(priced.timeline, model: model, by: grouping)
        forEachEvent(in: priced.timeline, model: model, by: grouping) { event in
            let (slot, starts) = open.take(event)
            if starts { body(event.burst, slot) }
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
        var openIndex: [Int32] = []
        forEachEvent(in: priced.timeline, model: model, by: grouping) { event in
            let (slot, starts) = open.take(event)
            open.grow(&openIndex)
            if starts {
                let kept = keep(count)
                openIndex[slot] = kept ? Int32(truncatingIfNeeded: bursts.count) : -1
                if kept { bursts.append(event.burst) }
                count += 1
            }
            let index = Int(openIndex[slot])
            if index >= 0 { bursts[index].add(event, energy: priced.eventEnergy) }
        }
        return (bursts, count)
    }

    /// The end of the open burst of each (endpoint, radio) slot, and the burst rule: an event
    /// starts a new burst when its slot has none open or it starts `radio.burst_gap_s` or more
    /// after the open one's end.
    ///
    /// Slots come in pairs, Wi-Fi then cellular: one pair, or one per endpoint, made at the
    /// endpoint's first event (a run interns far more strings than it has hosts: a capture has
    /// one per connection), so 4 bytes per string and 16 per endpoint.
    private struct OpenBursts {
        private var ends: [Nanoseconds]
        private let byEndpoint: Bool
        /// When grouped by endpoint, each string's first slot; -1 until its first event.
        private var pairOfEndpoint: [Int32]
        private let gap: Nanoseconds

        init(_ timeline: Timeline, model: DeviceModel, by grouping: Grouping) {
            byEndpoint = grouping == .endpoint
            ends = byEndpoint ? [] : [.min, .min]
            pairOfEndpoint = byEndpoint ? [Int32](repeating: -1, count: timeline.strings.count) : []
            gap = Clock.nanoseconds(min(max(0, model.radio.burstGapS.value), Clock.longestSpanSeconds))
        }

        /// The slot of `event`'s (endpoint, radio) pair, and whether the event starts a new
        /// burst in it; either way it extends the slot's open burst to its end.
        mutating func take(_ event: Event) -> (slot: Int, starts: Bool) {
            var slot = event.link == .wifi ? 0 : 1
            if byEndpoint {
                var pair = Int(pairOfEndpoint[Int(event.endpoint)])
                if pair < 0 {
                    pair = ends.count
                    pairOfEndpoint[Int(event.endpoint)] = Int32(pair)
                    ends += [.min, .min]
                }
                slot += pair
            }
            let previous = ends[slot]
            let starts = previous == .min || event.start - previous >= gap
            ends[slot] = starts ? event.end : max(previous, event.end)
            return (slot, starts)
        }

        /// Gives a caller's table of slots (-1 for each new one) a place for every slot made.
        func grow(_ table: inout [Int32]) {
            if table.count < ends.count { table.append(contentsOf: repeatElement(-1, count: ends.count - table.count)) }
        }
    }

    /// One `net` event that forms bursts: its row, radio, host (0 unless grouped by endpoint)
    /// and its time.
    fileprivate struct Event {
        var row: Int
        var link: LinkKind
        var endpoint: StringID
        var start: Nanoseconds
        var end: Nanoseconds
        var bytes: Int64

        /// A burst of this event alone, its energy still to add.
        var burst: Burst { Burst(link: link, endpoint: endpoint, row: row, start: start, end: end) }
    }

    /// Calls `body` with each `net` event that belongs to a burst, in row order: on a radio
    /// link, and grouped by endpoint, with a host.
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
                    row: row, link: link, endpoint: endpoint, start: start,
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
