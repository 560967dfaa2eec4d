import DrainTrace

/// The LTE RRC state machine of AT&T ARO and Huang et al. (MobiSys 2012).
///
/// ```
///            packet                      inactivity_s without a packet
///  IDLE ─────────────► PROMOTION ──────► CONTINUOUS RECEPTION ───────────► SHORT DRX ──► LONG DRX ──► IDLE
///   ▲   promotion_s at promotion_w        at connected_w (β) + α·Mbit      short_drx_s   long_drx_s    │
///   │                                            ▲                               │  packet      │        │
///   │                                            └───────────────────────────────┴──────────────┘        │
///   └────────────────────────────────────────────────────────────────────────────────────────────────────┘
/// ```
///
/// A packet during the promotion is served when it ends. A packet during a DRX tail returns
/// to continuous reception without a promotion. DRX stretches are charged at the cycle's
/// average power (on-duration at `drx_on_w`, the rest at `drx_base_w`); idle time at the
/// paging average, reported but charged to no one.
///
/// Charges: the promotion to the packet that triggered it; α·Mbit to each packet; the
/// continuous-reception time between two packets to the later one (the time it kept the radio
/// connected); the inactivity timer and the DRX tail to the last packet before them.
public struct LTEStateMachine: RadioStateMachine {
    public let link: LinkKind
    public private(set) var promotions = 0
    /// Every LTE promotion starts from idle, so each is a wake-up.
    public var wakeUps: Int { promotions }

    private let promotionDuration: Nanoseconds
    private let promotionPower: Double
    private let inactivity: Nanoseconds
    private let connectedPower: Double
    private let shortDrx: Nanoseconds
    private let shortDrxPower: Double
    private let longDrx: Nanoseconds
    private let longDrxPower: Double
    private let idlePower: Double
    private let alphaUp: Double
    private let alphaDown: Double

    private var connected = false
    private var idleSince: Nanoseconds
    /// Start of the current continuous-reception stretch.
    private var connectedSince: Nanoseconds = 0
    /// When the last packet was served (its time, or the end of the promotion it waited for).
    private var lastActivity: Nanoseconds = 0
    private var lastRow = -1
    /// Joules of the current continuous-reception stretch before its inactivity timer.
    private var connectedJoules = 0.0
    private var latestTime: Nanoseconds

    /// A machine that starts idle at `start`.
    public init(parameters: DeviceModel.LTE, link: LinkKind = .cellular, start: Nanoseconds = 0) {
        self.link = link
        promotionDuration = Clock.nanoseconds(parameters.promotionS.value)
        promotionPower = parameters.promotionW.value
        inactivity = Clock.nanoseconds(parameters.inactivityS.value)
        connectedPower = parameters.connectedW.value
        shortDrx = Clock.nanoseconds(parameters.shortDrxS.value)
        longDrx = Clock.nanoseconds(parameters.longDrxS.value)
        shortDrxPower = Self.averagePower(
            cycle: parameters.shortDrxCycleS.value, on: parameters.drxOnS.value, onPower: parameters.drxOnW.value,
            offPower: parameters.drxBaseW.value)
        longDrxPower = Self.averagePower(
            cycle: parameters.longDrxCycleS.value, on: parameters.drxOnS.value, onPower: parameters.drxOnW.value,
            offPower: parameters.drxBaseW.value)
        idlePower = Self.averagePower(
            cycle: parameters.idlePagingPeriodS.value, on: parameters.idlePagingS.value,
            onPower: parameters.idlePagingW.value, offPower: 0)
        alphaUp = parameters.alphaUpMwPerMbps.value
        alphaDown = parameters.alphaDownMwPerMbps.value
        idleSince = start
        latestTime = start
    }

    /// Average power of a cycle that spends `on` seconds at `onPower` and the rest at
    /// `offPower`. A zero-length cycle (refused by validation) counts as always on.
    static func averagePower(cycle: Double, on: Double, onPower: Double, offPower: Double) -> Double {
        guard cycle > 0 else { return onPower }
        let onTime = min(on, cycle)
        return (onTime * onPower + (cycle - onTime) * offPower) / cycle
    }

    public mutating func packet<Sink: RadioEnergySink>(_ packet: RadioPacket, into sink: inout Sink) {
        let time = max(packet.time, latestTime)
        latestTime = time
        let transfer = transferJoules(bytes: packet.bytes, milliwattsPerMbps: packet.direction == .tx ? alphaUp : alphaDown)
        if connected {
            if time <= lastActivity + inactivity {
                let served = max(time, lastActivity)
                let joules = Clock.seconds(served - lastActivity) * connectedPower + transfer
                if joules > 0 {
                    sink.charge(row: packet.row, start: lastActivity, duration: served - lastActivity, joules: joules)
                }
                connectedJoules += joules
                lastActivity = served
                lastRow = packet.row
                return
            }
            endContinuousReception(before: time, into: &sink)
            if connected {
                startContinuousReception(at: time, row: packet.row, transfer: transfer, into: &sink)
                return
            }
        }
        sink.recordUnlessEmpty(
            link: link, .idle, from: idleSince, to: time, joules: Clock.seconds(time - idleSince) * idlePower)
        let promotionEnd = time + promotionDuration
        let promotionJoules = sink.chargePower(promotionPower, row: packet.row, from: time, to: promotionEnd)
        sink.recordUnlessEmpty(link: link, .promotion, from: time, to: promotionEnd, joules: promotionJoules)
        promotions += 1
        connected = true
        startContinuousReception(at: promotionEnd, row: packet.row, transfer: transfer, into: &sink)
    }

    public mutating func finish<Sink: RadioEnergySink>(at end: Nanoseconds, into sink: inout Sink) {
        if connected { endContinuousReception(before: .max, into: &sink) }
        if end > idleSince {
            sink.recordUnlessEmpty(
                link: link, .idle, from: idleSince, to: end, joules: Clock.seconds(end - idleSince) * idlePower)
            idleSince = end
        }
    }

    private mutating func startContinuousReception<Sink: RadioEnergySink>(
        at time: Nanoseconds, row: Int, transfer: Double, into sink: inout Sink
    ) {
        connectedSince = time
        lastActivity = time
        lastRow = row
        connectedJoules = transfer
        if transfer > 0 { sink.charge(row: row, start: time, duration: 0, joules: transfer) }
    }

    /// Runs the inactivity timer and the DRX tail up to `time` (a packet, or `.max` for the
    /// full tail), charging them to the last packet. Leaves `connected` false if the tail ran out.
    private mutating func endContinuousReception<Sink: RadioEnergySink>(before time: Nanoseconds, into sink: inout Sink) {
        let receptionEnd = lastActivity + inactivity
        let timerJoules = sink.chargePower(connectedPower, row: lastRow, from: lastActivity, to: receptionEnd)
        sink.recordUnlessEmpty(link: link, .active, from: connectedSince, to: receptionEnd, joules: connectedJoules + timerJoules)
        let shortEnd = receptionEnd + shortDrx
        let shortStop = min(time, shortEnd)
        let shortJoules = sink.chargePower(shortDrxPower, row: lastRow, from: receptionEnd, to: shortStop)
        sink.recordUnlessEmpty(link: link, .tail, from: receptionEnd, to: shortStop, joules: shortJoules)
        guard time > shortEnd else { return }
        let tailEnd = shortEnd + longDrx
        let longStop = min(time, tailEnd)
        let longJoules = sink.chargePower(longDrxPower, row: lastRow, from: shortEnd, to: longStop)
        sink.recordUnlessEmpty(link: link, .tail, from: shortEnd, to: longStop, joules: longJoules)
        if time >= tailEnd {
            connected = false
            idleSince = tailEnd
        }
    }
}
