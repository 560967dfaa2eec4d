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

    /// The bursts of `priced`, in the order of their first event. O(n + strings) time; memory
    /// per burst and, grouped by endpoint, 8 bytes per string of the timeline (the table of
    /// open bursts), none per event.
    public static func bursts(in priced: PricedTimeline, model: DeviceModel, by grouping: Grouping) -> [Burst] {
        let timeline = priced.timeline
        let radios = DeviceRadios(radio: model.radio)
        let gap = Clock.nanoseconds(min(max(0, model.radio.burstGapS.value), Clock.longestSpanSeconds))
        var bursts: [Burst] = []
        // The open burst of each (endpoint, radio), at `2 × endpoint + (cellular ? 1 : 0)`.
        var open = [Int32](repeating: -1, count: grouping == .endpoint ? 2 * timeline.strings.count : 2)
        for row in 0..<timeline.count where timeline.kind[row] == .net {
            guard let link = radios.radioLink(for: LinkKind(rawValue: timeline.code2[row]) ?? .unspecified) else { continue }
            let endpoint = grouping == .endpoint ? timeline.label[row] : 0
            if grouping == .endpoint, endpoint == 0 { continue }
            let slot = 2 * Int(endpoint) + (link == .wifi ? 0 : 1)
            let start = timeline.time[row]
            let end = start + max(0, timeline.duration[row])
            var index = Int(open[slot])
            if index < 0 || start - bursts[index].end >= gap {
                index = bursts.count
                bursts.append(Burst(link: link, endpoint: endpoint, firstRow: row, lastRow: row, start: start, end: end))
                open[slot] = Int32(truncatingIfNeeded: index)
            }
            bursts[index].lastRow = row
            bursts[index].end = max(bursts[index].end, end)
            bursts[index].bytes += max(0, timeline.amount[row])
            bursts[index].events += 1
            bursts[index].energy += priced.eventEnergy[row]
        }
        bursts.releaseUnusedCapacity()
        return bursts
    }
}
