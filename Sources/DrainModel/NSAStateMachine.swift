import DrainTrace

/// 5G NR non-standalone (EN-DC): an NR leg added to an LTE anchor, which keeps the RRC state.
///
/// ```
///         packet                                                      inactivity_s without a packet
///  IDLE ─────────► LTE PROMOTION ──► NR ADDITION ──► CONTINUOUS RECEPTION ──────────► NR TAIL ──► LTE DRX TAIL ──► IDLE
///   ▲   lte.promotion_s at        nr.promotion_s at  on NR: nr.connected_w        nr.tail_s at  what is left of   │
///   │   lte.promotion_w           nr.promotion_w     + NR α·Mbit                  nr.tail_w     short + long DRX  │
///   │                                   ▲                   ▲                          │ packet       │ packet     │
///   │                                   │                   └──────────────────────────┘              │            │
///   │                                   └─────────────────────────────────────────────────────────────┘            │
///   └──────────────────────────────────────────────────────────────────────────────────────────────────────────────┘
/// ```
///
/// The LTE anchor's tail (`inactivity_s`, then `short_drx_s` and `long_drx_s`) runs from the
/// last packet as on LTE, and ends the connection. The NR leg stays up for `nr.tail_s` after
/// the inactivity timer, at `nr.tail_w` instead of the DRX power, unless the LTE tail ends
/// first; the rest of the LTE tail is spent on LTE alone ("NSA falls back through LTE"). A
/// packet during the NR tail returns to continuous reception at once; a packet in the LTE-only
/// tail has the NR leg added again first (no LTE promotion). Packets during a promotion or an
/// NR addition are served when it ends. Idle costs LTE's paging average, charged to no one.
///
/// Charges: a promotion or NR addition to the packet that triggered it; NR α·Mbit to each
/// packet; continuous-reception time between two packets to the later one; the inactivity
/// timer, the NR tail and the LTE tail to the last packet before them.
public struct NSAStateMachine: RadioStateMachine {
    public let link: LinkKind
    /// Promotions from idle plus NR additions from the LTE-only tail.
    public private(set) var promotions = 0
    /// Promotions from idle; an NR addition from the tail is no wake-up, the anchor was up.
    public private(set) var wakeUps = 0

    private let ltePromotion: Nanoseconds
    private let ltePromotionPower: Double
    private let nrAddition: Nanoseconds
    private let nrAdditionPower: Double
    private let inactivity: Nanoseconds
    private let connectedPower: Double
    private let nrTail: Nanoseconds
    private let nrTailPower: Double
    private let shortDrx: Nanoseconds
    private let shortDrxPower: Double
    private let longDrx: Nanoseconds
    private let longDrxPower: Double
    private let idlePower: Double
    private let alphaUp: Double
    private let alphaDown: Double

    /// Whether the LTE anchor is connected (from its promotion to the end of its tail).
    private var connected = false
    private var idleSince: Nanoseconds
    private var connectedSince: Nanoseconds = 0
    private var lastActivity: Nanoseconds = 0
    private var lastRow = -1
    private var connectedJoules = 0.0
    private var latestTime: Nanoseconds

    /// A machine that starts idle at `start`, with the LTE anchor `lte` and the NR leg `nr`.
    public init(lte: DeviceModel.LTE, nr: DeviceModel.NR, link: LinkKind = .cellular, start: Nanoseconds = 0) {
        self.link = link
        ltePromotion = Clock.nanoseconds(lte.promotionS.value)
        ltePromotionPower = lte.promotionW.value
        nrAddition = Clock.nanoseconds(nr.promotionS.value)
        nrAdditionPower = nr.promotionW.value
        inactivity = Clock.nanoseconds(lte.inactivityS.value)
        connectedPower = nr.connectedW.value
        nrTail = Clock.nanoseconds(nr.tailS.value)
        nrTailPower = nr.tailW.value
        shortDrx = Clock.nanoseconds(lte.shortDrxS.value)
        longDrx = Clock.nanoseconds(lte.longDrxS.value)
        shortDrxPower = LTEStateMachine.averagePower(
            cycle: lte.shortDrxCycleS.value, on: lte.drxOnS.value, onPower: lte.drxOnW.value, offPower: lte.drxBaseW.value)
        longDrxPower = LTEStateMachine.averagePower(
            cycle: lte.longDrxCycleS.value, on: lte.drxOnS.value, onPower: lte.drxOnW.value, offPower: lte.drxBaseW.value)
        idlePower = LTEStateMachine.averagePower(
            cycle: lte.idlePagingPeriodS.value, on: lte.idlePagingS.value, onPower: lte.idlePagingW.value, offPower: 0)
        alphaUp = nr.alphaUpMwPerMbps.value
        alphaDown = nr.alphaDownMwPerMbps.value
        idleSince = start
        latestTime = start
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
            let nrUp = endContinuousReception(before: time, into: &sink)
            if nrUp {
                startContinuousReception(at: time, row: packet.row, transfer: transfer, into: &sink)
                return
            }
            if connected {
                let served = addNR(at: time, row: packet.row, into: &sink)
                promotions += 1
                startContinuousReception(at: served, row: packet.row, transfer: transfer, into: &sink)
                return
            }
        }
        sink.recordUnlessEmpty(
            link: link, .idle, from: idleSince, to: time, joules: Clock.seconds(time - idleSince) * idlePower)
        let promotionEnd = time + ltePromotion
        let promotionJoules = sink.chargePower(ltePromotionPower, row: packet.row, from: time, to: promotionEnd)
        sink.recordUnlessEmpty(link: link, .promotion, from: time, to: promotionEnd, joules: promotionJoules)
        // The NR addition completes the promotion from idle: one promotion, not two.
        promotions += 1
        wakeUps += 1
        connected = true
        let served = addNR(at: promotionEnd, row: packet.row, into: &sink)
        startContinuousReception(at: served, row: packet.row, transfer: transfer, into: &sink)
    }

    public mutating func finish<Sink: RadioEnergySink>(at end: Nanoseconds, into sink: inout Sink) {
        if connected { endContinuousReception(before: .max, into: &sink) }
        if end > idleSince {
            sink.recordUnlessEmpty(
                link: link, .idle, from: idleSince, to: end, joules: Clock.seconds(end - idleSince) * idlePower)
            idleSince = end
        }
    }

    /// Adds the NR leg from `time`, charged to `row`; returns when it is up.
    private mutating func addNR<Sink: RadioEnergySink>(at time: Nanoseconds, row: Int, into sink: inout Sink) -> Nanoseconds {
        let end = time + nrAddition
        let joules = sink.chargePower(nrAdditionPower, row: row, from: time, to: end)
        sink.recordUnlessEmpty(link: link, .promotion, from: time, to: end, joules: joules)
        return end
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

    /// Runs the inactivity timer, the NR tail and the LTE tail up to `time` (a packet, or
    /// `.max` for the full tail), charging them to the last packet. Returns whether the NR leg
    /// is still up at `time`; leaves `connected` false if the LTE tail ran out.
    @discardableResult
    private mutating func endContinuousReception<Sink: RadioEnergySink>(
        before time: Nanoseconds, into sink: inout Sink
    ) -> Bool {
        let receptionEnd = lastActivity + inactivity
        let timerJoules = sink.chargePower(connectedPower, row: lastRow, from: lastActivity, to: receptionEnd)
        sink.recordUnlessEmpty(link: link, .active, from: connectedSince, to: receptionEnd, joules: connectedJoules + timerJoules)
        let shortEnd = receptionEnd + shortDrx
        let tailEnd = shortEnd + longDrx
        let nrEnd = min(receptionEnd + nrTail, tailEnd)
        let nrStop = min(time, nrEnd)
        let nrJoules = sink.chargePower(nrTailPower, row: lastRow, from: receptionEnd, to: nrStop)
        sink.recordUnlessEmpty(link: link, .tail, from: receptionEnd, to: nrStop, joules: nrJoules)
        if time < nrEnd { return true }
        // The LTE tail after the NR leg is released: what comes after `nrEnd` of its short and
        // long DRX stretches.
        chargeLTETail(power: shortDrxPower, from: max(receptionEnd, nrEnd), to: min(time, shortEnd), into: &sink)
        chargeLTETail(power: longDrxPower, from: max(shortEnd, nrEnd), to: min(time, tailEnd), into: &sink)
        if time >= tailEnd {
            connected = false
            idleSince = tailEnd
        }
        return false
    }

    private func chargeLTETail<Sink: RadioEnergySink>(
        power: Double, from start: Nanoseconds, to end: Nanoseconds, into sink: inout Sink
    ) {
        guard end > start else { return }
        let joules = sink.chargePower(power, row: lastRow, from: start, to: end)
        sink.recordUnlessEmpty(link: link, .tail, from: start, to: end, joules: joules)
    }
}
