import DrainTrace

/// The radios of a device model, one state machine per link, each run independently: `net`
/// events go to the machine of their link.
///
/// `wifi` goes to the Wi-Fi machine; `cellular` to the model's cellular technology (LTE, UMTS
/// or 5G NR NSA); `unspecified` to the model's `default_link`; `ethernet` and `loopback` cost no radio
/// energy. A machine is created at the first packet of its link, idle since `start`.
public struct DeviceRadios: Sendable {
    private let radio: DeviceModel.Radio
    /// Which radio carries each link (`radioLink(for:)`).
    public let links: RadioLinks
    private let start: Nanoseconds
    /// α up and down, mW per Mbps, of the Wi-Fi radio and of the cellular technology: read
    /// once, because binding the model's parameter structs per packet copied them, source
    /// strings and all.
    private let wifiAlpha: (up: Double, down: Double)
    private let cellularAlpha: (up: Double, down: Double)
    private var wifi: WiFiStateMachine?
    private var lte: LTEStateMachine?
    private var umts: UMTSStateMachine?
    private var nsa: NSAStateMachine?

    public init(radio: DeviceModel.Radio, start: Nanoseconds = 0) {
        self.radio = radio
        self.start = start
        links = RadioLinks(radio: radio)
        wifiAlpha = (radio.wifi.alphaUpMwPerMbps?.value ?? 0, radio.wifi.alphaDownMwPerMbps?.value ?? 0)
        switch radio.cellular {
        case .lte: cellularAlpha = (radio.lte?.alphaUpMwPerMbps.value ?? 0, radio.lte?.alphaDownMwPerMbps.value ?? 0)
        case .nrNsa: cellularAlpha = (radio.nr?.alphaUpMwPerMbps.value ?? 0, radio.nr?.alphaDownMwPerMbps.value ?? 0)
        case .umts: cellularAlpha = (0, 0)
        }
    }

    /// The radio that carries traffic of `link`: `.wifi`, `.cellular`, or `nil` for links
    /// without a radio (ethernet, loopback).
    @inlinable
    public func radioLink(for link: LinkKind) -> LinkKind? {
        links.radio(for: link)
    }

    /// Promotions so far, all radios together.
    public var promotions: Int {
        (wifi?.promotions ?? 0) + (lte?.promotions ?? 0) + (umts?.promotions ?? 0) + (nsa?.promotions ?? 0)
    }

    /// Wake-ups so far (packets that found it idle) of the radio carrying `radioLink`
    /// (`.wifi` or `.cellular`, as `radioLink(for:)` names it). O(1).
    ///
    /// `mutating` though it changes nothing, as is `charges(of:ifFinishedAt:into:)`: called per
    /// packet on a `var`, the non-mutating form had the optimizer copy all four machines (0.7 KB)
    /// each time, which was most of `RadioAttribution`'s time.
    public mutating func wakeUps(on radioLink: LinkKind) -> Int {
        guard radioLink == .cellular else { return wifi?.wakeUps ?? 0 }
        switch radio.cellular {
        case .lte: return lte?.wakeUps ?? 0
        case .umts: return umts?.wakeUps ?? 0
        case .nrNsa: return nsa?.wakeUps ?? 0
        }
    }

    /// Feeds one packet of `link` to its radio. Packets must come in time order across calls
    /// of one link. A cellular packet whose technology has no parameters in the model (which
    /// `DeviceModel.validate()` refuses) costs nothing. O(1), no allocation.
    public mutating func packet<Sink: RadioEnergySink>(_ packet: RadioPacket, link: LinkKind, into sink: inout Sink) {
        switch radioLink(for: link) {
        case .wifi:
            if wifi == nil { wifi = WiFiStateMachine(parameters: radio.wifi, start: start) }
            wifi?.packet(packet, into: &sink)
        case .cellular:
            // Parameters are bound only when a machine is made (see `wifiAlpha`).
            switch radio.cellular {
            case .lte:
                if lte == nil, let parameters = radio.lte { lte = LTEStateMachine(parameters: parameters, start: start) }
                lte?.packet(packet, into: &sink)
            case .umts:
                if umts == nil, let parameters = radio.umts { umts = UMTSStateMachine(parameters: parameters, start: start) }
                umts?.packet(packet, into: &sink)
            case .nrNsa:
                if nsa == nil, let anchor = radio.lte, let parameters = radio.nr {
                    nsa = NSAStateMachine(lte: anchor, nr: parameters, start: start)
                }
                nsa?.packet(packet, into: &sink)
            }
        default:
            return
        }
    }

    /// The transfer energy of `packet` on the radio of `link`, joules: α (of the packet's
    /// direction) × megabits for LTE, for NR NSA (NR's α) and for Wi-Fi when the model gives α;
    /// 0 for UMTS, whose states price their time only, and for links without a radio. Every
    /// machine charges it to the packet whatever state the radio is in. Inlined: called once
    /// per packet, a call of its own copied the whole struct.
    @inline(__always)
    public func transferEnergy(of packet: RadioPacket, link: LinkKind) -> Double {
        let alpha: (up: Double, down: Double)
        switch radioLink(for: link) {
        case .wifi: alpha = wifiAlpha
        case .cellular: alpha = cellularAlpha
        default: return 0
        }
        return transferJoules(bytes: packet.bytes, milliwattsPerMbps: packet.direction == .tx ? alpha.up : alpha.down)
    }

    /// Charges into `sink` what `finish(at:into:)` would charge for the radio carrying
    /// `radioLink` (`.wifi` or `.cellular`), leaving it as it is: only that machine is finished,
    /// on a copy of itself. O(1), no allocation.
    public mutating func charges<Sink: RadioEnergySink>(of radioLink: LinkKind, ifFinishedAt end: Nanoseconds, into sink: inout Sink) {
        guard radioLink == .cellular else {
            if var wifi { wifi.finish(at: end, into: &sink) }
            return
        }
        switch radio.cellular {
        case .lte: if var lte { lte.finish(at: end, into: &sink) }
        case .umts: if var umts { umts.finish(at: end, into: &sink) }
        case .nrNsa: if var nsa { nsa.finish(at: end, into: &sink) }
        }
    }

    /// Ends every radio that saw a packet at `end` (see `RadioStateMachine.finish`).
    public mutating func finish<Sink: RadioEnergySink>(at end: Nanoseconds, into sink: inout Sink) {
        wifi?.finish(at: end, into: &sink)
        lte?.finish(at: end, into: &sink)
        umts?.finish(at: end, into: &sink)
        nsa?.finish(at: end, into: &sink)
    }
}
