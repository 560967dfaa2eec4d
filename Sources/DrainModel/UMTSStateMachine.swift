import DrainTrace

/// The 3G UMTS RRC state machine of AT&T ARO: IDLE, DCH and FACH.
///
/// ```
///          packet                            dch_tail_s without a packet          fach_tail_s without a packet
///  IDLE ──────────► PROMOTION ──► DCH ─────────────────────────────► FACH ─────────────────────────────► IDLE
///    idle_to_dch_s at idle_to_dch_w   at dch_w          ▲                 at fach_w   │ packet ≤ fach_up/down_bytes:
///                                                      │                             │ stays in FACH, timer restarts
///                                                      └── PROMOTION ◄───────────────┘ larger packet
///                                                          fach_to_dch_s at fach_to_dch_w
/// ```
///
/// A packet during a promotion is served when it ends. Whether a packet fits in FACH is
/// decided per packet against the RLC buffer threshold of its direction. Idle costs nothing
/// (ARO's P_IDLE is 0).
///
/// Charges: each promotion to the packet that triggered it; DCH time between two packets to
/// the later one; the DCH inactivity timer and the FACH time after it to the last packet
/// before them; FACH time after a packet served in FACH to that packet.
public struct UMTSStateMachine: RadioStateMachine {
    private enum Phase { case idle, dch, fach }

    public let link: LinkKind
    public private(set) var promotions = 0
    public private(set) var wakeUps = 0

    private let idleToDch: Nanoseconds
    private let idleToDchPower: Double
    private let fachToDch: Nanoseconds
    private let fachToDchPower: Double
    private let dchPower: Double
    private let fachPower: Double
    private let dchTail: Nanoseconds
    private let fachTail: Nanoseconds
    private let fachUpBytes: Double
    private let fachDownBytes: Double

    private var phase = Phase.idle
    private var idleSince: Nanoseconds
    private var dchSince: Nanoseconds = 0
    private var lastActivity: Nanoseconds = 0
    private var lastRow = -1
    /// Joules of the current DCH stretch before its inactivity timer.
    private var dchJoules = 0.0
    private var fachSince: Nanoseconds = 0
    /// When the FACH inactivity timer last (re)started.
    private var fachTimerStart: Nanoseconds = 0
    /// Joules of the current FACH stretch already charged.
    private var fachJoules = 0.0
    private var latestTime: Nanoseconds

    /// A machine that starts idle at `start`.
    public init(parameters: DeviceModel.UMTS, link: LinkKind = .cellular, start: Nanoseconds = 0) {
        self.link = link
        idleToDch = Clock.nanoseconds(parameters.idleToDchS.value)
        idleToDchPower = parameters.idleToDchW.value
        fachToDch = Clock.nanoseconds(parameters.fachToDchS.value)
        fachToDchPower = parameters.fachToDchW.value
        dchPower = parameters.dchW.value
        fachPower = parameters.fachW.value
        dchTail = Clock.nanoseconds(parameters.dchTailS.value)
        fachTail = Clock.nanoseconds(parameters.fachTailS.value)
        fachUpBytes = parameters.fachUpBytes.value
        fachDownBytes = parameters.fachDownBytes.value
        idleSince = start
        latestTime = start
    }

    public mutating func packet<Sink: RadioEnergySink>(_ packet: RadioPacket, into sink: inout Sink) {
        let time = max(packet.time, latestTime)
        latestTime = time
        if phase == .dch {
            if time <= lastActivity + dchTail {
                let served = max(time, lastActivity)
                let joules = sink.chargePower(dchPower, row: packet.row, from: lastActivity, to: served)
                dchJoules += joules
                lastActivity = served
                lastRow = packet.row
                return
            }
            endDCH(into: &sink)
        }
        if phase == .fach {
            if time < fachTimerStart + fachTail {
                fachJoules += sink.chargePower(fachPower, row: lastRow, from: fachTimerStart, to: time)
                let threshold = packet.direction == .tx ? fachUpBytes : fachDownBytes
                if Double(packet.bytes) <= threshold {
                    fachTimerStart = time
                    lastRow = packet.row
                    return
                }
                sink.recordUnlessEmpty(link: link, .fach, from: fachSince, to: time, joules: fachJoules)
                promote(at: time, duration: fachToDch, power: fachToDchPower, row: packet.row, into: &sink)
                return
            }
            endFACH(into: &sink)
        }
        sink.recordUnlessEmpty(link: link, .idle, from: idleSince, to: time, joules: 0)
        wakeUps += 1
        promote(at: time, duration: idleToDch, power: idleToDchPower, row: packet.row, into: &sink)
    }

    public mutating func finish<Sink: RadioEnergySink>(at end: Nanoseconds, into sink: inout Sink) {
        if phase == .dch { endDCH(into: &sink) }
        if phase == .fach { endFACH(into: &sink) }
        if end > idleSince {
            sink.recordUnlessEmpty(link: link, .idle, from: idleSince, to: end, joules: 0)
            idleSince = end
        }
    }

    private mutating func promote<Sink: RadioEnergySink>(
        at time: Nanoseconds, duration: Nanoseconds, power: Double, row: Int, into sink: inout Sink
    ) {
        let promotionEnd = time + duration
        let joules = sink.chargePower(power, row: row, from: time, to: promotionEnd)
        sink.recordUnlessEmpty(link: link, .promotion, from: time, to: promotionEnd, joules: joules)
        promotions += 1
        phase = .dch
        dchSince = promotionEnd
        lastActivity = promotionEnd
        lastRow = row
        dchJoules = 0
    }

    /// Runs the DCH inactivity timer to its end and moves to FACH.
    private mutating func endDCH<Sink: RadioEnergySink>(into sink: inout Sink) {
        let dchEnd = lastActivity + dchTail
        let timerJoules = sink.chargePower(dchPower, row: lastRow, from: lastActivity, to: dchEnd)
        sink.recordUnlessEmpty(link: link, .active, from: dchSince, to: dchEnd, joules: dchJoules + timerJoules)
        phase = .fach
        fachSince = dchEnd
        fachTimerStart = dchEnd
        fachJoules = 0
    }

    /// Runs the FACH inactivity timer to its end and moves to IDLE.
    private mutating func endFACH<Sink: RadioEnergySink>(into sink: inout Sink) {
        let fachEnd = fachTimerStart + fachTail
        fachJoules += sink.chargePower(fachPower, row: lastRow, from: fachTimerStart, to: fachEnd)
        sink.recordUnlessEmpty(link: link, .fach, from: fachSince, to: fachEnd, joules: fachJoules)
        phase = .idle
        idleSince = fachEnd
    }
}
