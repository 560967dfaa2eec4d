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

/// What the radio did over a run.
public struct RadioActivity: Sendable, Equatable {
    /// Segments in time order per link (idle segments included, with their energy, which is
    /// not attributed to the app).
    public private(set) var segments = RadioSegments()
    /// Promotions from idle (or FACH) to the connected state.
    public var promotions: Int = 0
    /// The end of the last segment that is not idle: when the app's radio use stopped costing
    /// energy. `nil` without radio traffic. Found once, when the segments are given: the run's
    /// end (`PricedTimeline.end`) is read by the rules and the report many times.
    public private(set) var attributedEnd: Nanoseconds?

    /// O(segments).
    public init(segments: RadioSegments = [], promotions: Int = 0) {
        self.segments = segments
        self.promotions = promotions
        attributedEnd = segments.lazy.filter { $0.state != .idle }.map(\.end).max()
    }
}
