import DrainAggregate
import DrainTrace

/// A timeline with its energy: its priced work summed per category, bin and key, the joules of
/// each event, and the radio's state history.
public struct PricedTimeline: Sendable {
    public var timeline: Timeline
    /// Energy per category, per bin of the grid it was priced on (closed at `end`) and per key.
    public var costs: CostSummary
    /// Joules attributed to each timeline row (same indices as the timeline's columns).
    /// Radio promotion and tail energy is attributed to the packet that caused it.
    public var eventEnergy: [Double]
    public var radio: RadioActivity

    public init(timeline: Timeline, costs: CostSummary, eventEnergy: [Double], radio: RadioActivity) {
        self.timeline = timeline
        self.costs = costs
        self.eventEnergy = eventEnergy
        self.radio = radio
    }

    /// The end of the priced run: the timeline's end, or later when a radio tail caused by the
    /// run's last packets outlasted it (tails are charged in full). Report durations and
    /// average powers should use this.
    public var end: Nanoseconds {
        max(timeline.end, radio.attributedEnd ?? timeline.end)
    }
}

/// The states a radio state machine reports time and energy for.
public enum RadioState: String, CaseIterable, Sendable, Codable {
    case idle
    case promotion
    /// LTE continuous reception, 3G DCH, Wi-Fi active.
    case active
    /// 3G FACH.
    case fach
    /// Inactivity tail after the last packet: LTE DRX, Wi-Fi tail.
    case tail
}

/// One stretch of a radio in one state.
public struct RadioSegment: Sendable, Equatable {
    public var link: LinkKind
    public var state: RadioState
    public var start: Nanoseconds
    public var end: Nanoseconds
    public var joules: Double

    public init(link: LinkKind, state: RadioState, start: Nanoseconds, end: Nanoseconds, joules: Double) {
        self.link = link
        self.state = state
        self.start = start
        self.end = end
        self.joules = joules
    }
}

/// What the radio did over a run, summed as pricing recorded its segments: the promotions,
/// the time and energy of each radio in each state, the first segments out of idle of each
/// radio (the report's radio lane) and when the last one ended.
///
/// The segments themselves are not kept: a run has about six per burst of traffic, and they
/// would be held while the rules run, when memory peaks. A reader that needs every segment runs
/// the radios again (`RadioReplay`, `Pricer.radioSegments(of:)`).
public struct RadioActivity: Sendable, Equatable {
    /// Segments out of idle kept per radio, the first in time order: the report's radio lane
    /// lists at most this many.
    public static let keptSegmentsPerRadio = 5_000

    /// Promotions from idle (or FACH) to the connected state.
    public var promotions: Int = 0
    /// The end of the last segment that is not idle: when the app's radio use stopped costing
    /// energy. `nil` without radio traffic.
    public private(set) var attributedEnd: Nanoseconds?
    /// Segments recorded, idle ones included.
    public private(set) var segmentCount = 0
    /// Segments recorded that are not idle.
    public private(set) var busySegmentCount = 0
    /// The first `keptSegmentsPerRadio` segments out of idle of the Wi-Fi radio and of the
    /// cellular one, each in time order.
    public private(set) var firstBusyWiFiSegments: [RadioSegment] = []
    public private(set) var firstBusyCellularSegments: [RadioSegment] = []
    /// Seconds and joules per link and state (`slot(link:state:)`), each summed over its
    /// segments in time order, and whether any segment had that link and state.
    private var seconds = [Double](repeating: 0, count: slotCount)
    private var joules = [Double](repeating: 0, count: slotCount)
    private var seen = [Bool](repeating: false, count: slotCount)

    public init() {}

    /// A run's activity from its segments given in the order pricing records them (each
    /// radio's in time order). O(segments).
    public init(segments: some Sequence<RadioSegment>, promotions: Int = 0) {
        self.promotions = promotions
        for segment in segments { add(segment) }
    }

    /// Adds a segment to the sums; a radio's segments come in time order. O(1).
    public mutating func add(_ segment: RadioSegment) {
        segmentCount += 1
        let slot = Self.slot(link: segment.link, state: segment.state)
        seconds[slot] += Clock.seconds(segment.end - segment.start)
        joules[slot] += segment.joules
        seen[slot] = true
        guard segment.state != .idle else { return }
        busySegmentCount += 1
        attributedEnd = max(attributedEnd ?? segment.end, segment.end)
        if segment.link == .wifi {
            if firstBusyWiFiSegments.count < Self.keptSegmentsPerRadio { firstBusyWiFiSegments.append(segment) }
        } else if firstBusyCellularSegments.count < Self.keptSegmentsPerRadio {
            firstBusyCellularSegments.append(segment)
        }
    }

    /// The seconds and joules `link` spent in `state`, or `nil` if it had no such segment.
    public func total(of link: LinkKind, in state: RadioState) -> (seconds: Double, joules: Double)? {
        let slot = Self.slot(link: link, state: state)
        return seen[slot] ? (seconds[slot], joules[slot]) : nil
    }

    /// The first `limit` segments out of idle, the Wi-Fi radio's before the cellular one's.
    /// - Precondition: `limit <= keptSegmentsPerRadio`.
    public func firstBusySegments(limit: Int) -> [RadioSegment] {
        precondition(limit <= Self.keptSegmentsPerRadio, "only the first keptSegmentsPerRadio segments of a radio are kept")
        let wifi = firstBusyWiFiSegments.prefix(limit)
        return Array(wifi) + firstBusyCellularSegments.prefix(limit - wifi.count)
    }

    private static let stateCount = 5
    private static let slotCount = LinkKind.allCases.count * stateCount

    /// O(1): called per segment, where `RadioState.allCases` would build an array.
    private static func slot(link: LinkKind, state: RadioState) -> Int {
        let index =
            switch state {
            case .idle: 0
            case .promotion: 1
            case .active: 2
            case .fach: 3
            case .tail: 4
            }
        return Int(link.rawValue) * stateCount + index
    }
}
