import DrainTrace

/// The radio pass of pricing: a timeline's `net` rows, in row order, drive the radio of their
/// link (`DeviceRadios`), and a spanning event keeps its radio active to its end
/// (`NetSpanMarkers`, fed in time order before each later packet).
///
/// `Pricer` runs it once, into its ledger. A reader of the run's radio segments (the tails of
/// NET-SMALL-BURSTS, the busy time of NET-RETRANSMIT, `drain export`) runs it again into a sink
/// of its own rather than the run keeping every segment: about six per burst of traffic, held
/// while the rules run, when memory peaks. The same code over the same rows gives the same
/// segments and charges, bit for bit.
///
/// O(1) memory beyond the radios' state and the open spans; a whole pass is O(rows).
public struct RadioReplay {
    private let timeline: Timeline
    /// The timeline's `kind` column, read once per row.
    private let kinds: [EventKind]
    private var radios: DeviceRadios
    private var spans: NetSpanMarkers
    /// The next row to look at; `kinds.count` once every row is fed.
    private var row = 0
    private var finished = false

    public init(_ timeline: Timeline, model: DeviceModel) {
        self.timeline = timeline
        kinds = timeline.kind
        radios = DeviceRadios(radio: model.radio)
        spans = NetSpanMarkers(radio: model.radio)
    }

    /// Promotions so far, all radios together.
    public var promotions: Int { radios.promotions }

    /// Runs the whole pass into `sink`: every `net` row, then every radio ended at the
    /// timeline's end (a tail still running is charged in full). O(rows).
    public mutating func run<Sink: RadioEnergySink>(into sink: inout Sink) {
        _ = feed(into: &sink) { _ in true }
    }

    /// Feeds the next `net` rows into `sink` as long as `more(sink)` holds before each, and
    /// once every row is fed, ends the radios. `false` once the pass is over (nothing was
    /// fed). A reader pulls segments in batches this way: the radios are not copied per row.
    /// O(rows looked at).
    public mutating func feed<Sink: RadioEnergySink>(into sink: inout Sink, while more: (Sink) -> Bool) -> Bool {
        guard !finished else { return false }
        while row < kinds.count {
            if kinds[row] == .net {
                guard more(sink) else { return true }
                drive(row: row, into: &sink)
            }
            row += 1
        }
        end(into: &sink)
        return true
    }

    @inline(__always)
    private mutating func drive<Sink: RadioEnergySink>(row: Int, into sink: inout Sink) {
        let time = timeline.time[row]
        if !spans.isEmpty { spans.feed(until: time, radios: &radios, into: &sink) }
        let (packet, link) = timeline.radioPacket(row: row, at: time)
        radios.packet(packet, link: link, into: &sink)
        spans.add(row: row, start: time, duration: timeline.duration[row], direction: packet.direction, link: link)
    }

    private mutating func end<Sink: RadioEnergySink>(into sink: inout Sink) {
        spans.feed(until: .max, radios: &radios, into: &sink)
        radios.finish(at: timeline.end, into: &sink)
        finished = true
    }
}

extension Pricer {
    /// Every radio segment of `timeline` as pricing records them, the Wi-Fi radio's first, then
    /// the cellular one's, each in time order; idle segments included. For tests and exports:
    /// the run itself keeps only their sums (`RadioActivity`). O(rows + segments).
    public func radioSegments(of timeline: Timeline) -> [RadioSegment] {
        var segments = SegmentCollector()
        var replay = RadioReplay(timeline, model: model)
        replay.run(into: &segments)
        return segments.wifi + segments.cellular
    }

    private struct SegmentCollector: RadioEnergySink {
        var wifi: [RadioSegment] = []
        var cellular: [RadioSegment] = []

        mutating func record(_ segment: RadioSegment) {
            if segment.link == .wifi { wifi.append(segment) } else { cellular.append(segment) }
        }

        mutating func charge(row: Int, start: Nanoseconds, duration: Nanoseconds, joules: Double) {}
    }
}
