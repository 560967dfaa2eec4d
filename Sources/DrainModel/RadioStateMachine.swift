import DrainTrace

/// One packet as a radio state machine sees it.
public struct RadioPacket: Sendable, Equatable {
    /// The timeline row the packet came from; energy is charged to it.
    public var row: Int
    public var time: Nanoseconds
    public var bytes: Int64
    public var direction: NetDirection

    public init(row: Int, time: Nanoseconds, bytes: Int64, direction: NetDirection) {
        self.row = row
        self.time = time
        self.bytes = bytes
        self.direction = direction
    }
}

/// Receives what a radio state machine works out: the radio's state history and the energy
/// charged to each packet.
///
/// For every machine, the joules of its non-idle segments equal the joules it charges; idle
/// segments are charged to no one.
public protocol RadioEnergySink {
    /// A stretch of the radio in one state. Each machine reports its segments in time order.
    mutating func record(_ segment: RadioSegment)
    /// `joules` of the app's radio use charged to timeline row `row`, spent from `start` over
    /// `duration` nanoseconds (0 for transfer energy, which has no duration of its own).
    mutating func charge(row: Int, start: Nanoseconds, duration: Nanoseconds, joules: Double)
}

/// A simulation of one radio (an LTE, UMTS or 5G NSA modem, a Wi-Fi chip): packets in, in time order;
/// segments and charged energy out.
///
/// Deterministic, O(1) per packet and no allocation per packet (segments are reported as they
/// close, a few per burst). The formulas are in `docs/models.md`.
public protocol RadioStateMachine: Sendable {
    /// The link the machine simulates; its segments carry it.
    var link: LinkKind { get }
    /// Promotions to the connected state so far (from idle, from FACH for UMTS, and NR
    /// additions from the LTE-only tail for NR NSA).
    var promotions: Int { get }
    /// Times so far a packet found the radio idle (LTE and UMTS IDLE, Wi-Fi power save) and
    /// woke it. A UMTS promotion from FACH is no wake-up: the radio was already up.
    var wakeUps: Int { get }
    /// Feeds one packet. A packet earlier than the one before it is treated as simultaneous
    /// with it.
    mutating func packet<Sink: RadioEnergySink>(_ packet: RadioPacket, into sink: inout Sink)
    /// Ends the run at `end`: a tail still running is charged in full, even past `end`, since
    /// the app's traffic caused it; the radio is then idle until `end` if the tail ended sooner.
    mutating func finish<Sink: RadioEnergySink>(at end: Nanoseconds, into sink: inout Sink)
}

/// Transfer energy from a throughput coefficient: α (mW per Mbps) × megabits = millijoules.
@inline(__always)
func transferJoules(bytes: Int64, milliwattsPerMbps alpha: Double) -> Double {
    Double(max(0, bytes)) * 8 / 1e6 * alpha / 1000
}

extension RadioEnergySink {
    /// Records a segment unless it is empty (no time and no energy).
    @inline(__always)
    mutating func recordUnlessEmpty(
        link: LinkKind, _ state: RadioState, from start: Nanoseconds, to end: Nanoseconds, joules: Double
    ) {
        guard end > start || joules > 0 else { return }
        record(RadioSegment(link: link, state: state, start: start, end: end, joules: joules))
    }

    /// Charges `power` watts from `start` to `end` to `row` and returns the joules.
    @inline(__always)
    @discardableResult
    mutating func chargePower(_ power: Double, row: Int, from start: Nanoseconds, to end: Nanoseconds) -> Double {
        guard end > start else { return 0 }
        let joules = Clock.seconds(end - start) * power
        charge(row: row, start: start, duration: end - start, joules: joules)
        return joules
    }
}
