import DrainTrace

/// The Wi-Fi power-save model of AT&T ARO: awake while packets come closer than the tail time,
/// then a tail, then power save.
///
/// ```
///             packet                        no packet for tail_s
///  STANDBY ──────────► ACTIVE ────────────────────────────────────► TAIL ───────► STANDBY
///  standby_w           active_w (+ α·Mbit when the model gives α)    tail_s at tail_w
///  (+ beacon listens)
/// ```
///
/// Wi-Fi has no promotion. `tail_s` is the active-to-power-save timeout. In power save the
/// radio dozes at `standby_w`; when the model gives `psm`, it also wakes for every DTIM
/// beacon, at the multiples of `beacon_interval_s × dtim_period` from the machine's start, for
/// `listen_s` at `listen_w` (in place of the doze power). Standby time is reported but charged
/// to no one: the radio listens for beacons with or without the app.
///
/// Charges: α·Mbit to each packet; active time between two packets to the later one; the
/// tail to the last packet before it.
public struct WiFiStateMachine: RadioStateMachine {
    public let link: LinkKind
    /// Always 0: Wi-Fi wakes from power save without a promotion.
    public let promotions = 0
    public private(set) var wakeUps = 0

    private let activePower: Double
    private let tail: Nanoseconds
    private let tailPower: Double
    private let standbyPower: Double
    /// Time between two beacon listens in power save; 0 without `psm`.
    private let listenPeriod: Nanoseconds
    /// What one listen costs above dozing through it, joules.
    private let listenExtraJoules: Double
    private let origin: Nanoseconds
    private let alphaUp: Double
    private let alphaDown: Double

    private var active = false
    private var standbySince: Nanoseconds
    private var activeSince: Nanoseconds = 0
    private var lastActivity: Nanoseconds = 0
    private var lastRow = -1
    private var activeJoules = 0.0
    private var latestTime: Nanoseconds

    /// A machine that starts in power save at `start`.
    public init(parameters: DeviceModel.WiFi, link: LinkKind = .wifi, start: Nanoseconds = 0) {
        self.link = link
        activePower = parameters.activeW.value
        tail = Clock.nanoseconds(parameters.tailS.value)
        tailPower = parameters.tailW.value
        standbyPower = parameters.standbyW.value
        if let psm = parameters.psm {
            listenPeriod = Clock.nanoseconds(psm.beaconIntervalS.value * psm.dtimPeriod.value)
            listenExtraJoules = psm.listenS.value * (psm.listenW.value - parameters.standbyW.value)
        } else {
            listenPeriod = 0
            listenExtraJoules = 0
        }
        origin = start
        alphaUp = parameters.alphaUpMwPerMbps?.value ?? 0
        alphaDown = parameters.alphaDownMwPerMbps?.value ?? 0
        standbySince = start
        latestTime = start
    }

    public mutating func packet<Sink: RadioEnergySink>(_ packet: RadioPacket, into sink: inout Sink) {
        let time = max(packet.time, latestTime)
        latestTime = time
        let transfer = transferJoules(bytes: packet.bytes, milliwattsPerMbps: packet.direction == .tx ? alphaUp : alphaDown)
        if active {
            if time - lastActivity < tail {
                let joules = Clock.seconds(time - lastActivity) * activePower + transfer
                if joules > 0 {
                    sink.charge(row: packet.row, start: lastActivity, duration: time - lastActivity, joules: joules)
                }
                activeJoules += joules
                lastActivity = time
                lastRow = packet.row
                return
            }
            endActive(into: &sink)
        }
        sink.recordUnlessEmpty(link: link, .idle, from: standbySince, to: time, joules: standbyJoules(from: standbySince, to: time))
        active = true
        wakeUps += 1
        activeSince = time
        lastActivity = time
        lastRow = packet.row
        activeJoules = transfer
        if transfer > 0 { sink.charge(row: packet.row, start: time, duration: 0, joules: transfer) }
    }

    public mutating func finish<Sink: RadioEnergySink>(at end: Nanoseconds, into sink: inout Sink) {
        if active { endActive(into: &sink) }
        if end > standbySince {
            sink.recordUnlessEmpty(link: link, .idle, from: standbySince, to: end, joules: standbyJoules(from: standbySince, to: end))
            standbySince = end
        }
    }

    /// Power save over `[start, end)`: dozing at `standby_w`, plus what each beacon listen
    /// starting in the stretch costs above dozing.
    private func standbyJoules(from start: Nanoseconds, to end: Nanoseconds) -> Double {
        let doze = Clock.seconds(end - start) * standbyPower
        guard listenPeriod > 0 else { return doze }
        return doze + Double(Self.multiples(of: listenPeriod, from: start - origin, to: end - origin)) * listenExtraJoules
    }

    /// How many multiples of `period` lie in `[start, end)`, for `0 ≤ start ≤ end`.
    static func multiples(of period: Nanoseconds, from start: Nanoseconds, to end: Nanoseconds) -> Int64 {
        let first = (start + period - 1) / period
        let pastLast = (end + period - 1) / period
        return pastLast - first
    }

    /// Closes the active stretch at the last packet and runs the tail to its end.
    private mutating func endActive<Sink: RadioEnergySink>(into sink: inout Sink) {
        sink.recordUnlessEmpty(link: link, .active, from: activeSince, to: lastActivity, joules: activeJoules)
        let tailEnd = lastActivity + tail
        let tailJoules = sink.chargePower(tailPower, row: lastRow, from: lastActivity, to: tailEnd)
        sink.recordUnlessEmpty(link: link, .tail, from: lastActivity, to: tailEnd, joules: tailJoules)
        active = false
        standbySince = tailEnd
    }
}
