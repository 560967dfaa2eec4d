import DrainTrace

/// What each `net` event of a run caused on its radio, given the traffic before it: whether it
/// woke the radio, and the promotion and radio time it added.
///
/// The events are fed to the model's radios exactly as `Pricer` feeds them (a capture event's
/// span keeps its radio up), in time order. Before and after each packet the joules still to
/// come if the traffic stopped there are worked out on a copy of its radio (the tail to its
/// end, `RadioStateMachine.finish`), so an event's share is what the radio would not have spent
/// had the traffic stopped just before it:
///
/// - a packet that finds the radio idle adds its promotion and the whole tail after it;
/// - a packet that comes while earlier traffic keeps the radio up (connected, in its tail, or
///   still promoting) adds no promotion, only the radio time by which it pushes the return to
///   idle further out — nothing at all when the earlier traffic's tail would have lasted as
///   long.
///
/// Transfer energy (α × megabits) is left out: the data costs it however it is sent. Earlier
/// traffic is served first, so of two events that could each have woken the radio, the first
/// did. The shares of a radio's events add up to its priced energy less transfer energy.
public struct RadioAttribution: Sendable {
    /// Joules of promotion and radio time each row added; 0 for rows that are not `net`
    /// events on a radio. Stored for the `net` rows alone.
    public private(set) var addedJoules: NetRowColumn<Double>
    /// Whether each row's packet found its radio idle and woke it (`RadioStateMachine.wakeUps`).
    public private(set) var wokeRadio: NetRowFlags

    /// Walks the `net` events of `timeline` through the radios of `model`. O(n) plus the span
    /// markers pricing feeds; allocates the two columns once, 8 bytes and a bit per `net` event.
    public init(_ timeline: Timeline, model: DeviceModel) {
        addedJoules = NetRowColumn(timeline, defaultValue: 0)
        wokeRadio = NetRowFlags(sameRowsAs: addedJoules)
        var radios = DeviceRadios(radio: model.radio)
        var spans = NetSpanMarkers(radio: model.radio)
        var pending = PendingTails()
        for row in 0..<timeline.count where timeline.kind[row] == .net {
            let time = timeline.time[row]
            while let marker = spans.next(until: time) {
                feed(marker.packet, link: marker.link, radios: &radios, pending: &pending)
            }
            let packet = RadioPacket(
                row: row, time: time, bytes: timeline.amount[row], direction: NetDirection(rawValue: timeline.code[row]) ?? .rx)
            let link = LinkKind(rawValue: timeline.code2[row]) ?? .unspecified
            feed(packet, link: link, radios: &radios, pending: &pending)
            spans.add(row: row, start: time, duration: timeline.duration[row], direction: packet.direction, link: link)
        }
        while let marker = spans.next(until: .max) {
            feed(marker.packet, link: marker.link, radios: &radios, pending: &pending)
        }
    }

    /// Feeds one packet and books on its row what it added: the joules charged while it was fed,
    /// plus its radio's tail now to come, less the tail that was to come before it, less its
    /// transfer. A packet leaves the other radio as it was, so only its own radio is read.
    private mutating func feed(_ packet: RadioPacket, link: LinkKind, radios: inout DeviceRadios, pending: inout PendingTails) {
        guard let radioLink = radios.radioLink(for: link) else { return }
        var charged = ChargeTotal()
        let wakeUps = radios.wakeUps(on: radioLink)
        radios.packet(packet, link: link, into: &charged)
        var tail = ChargeTotal()
        radios.charges(of: radioLink, ifFinishedAt: packet.time, into: &tail)
        let before = radioLink == .wifi ? pending.wifi : pending.cellular
        let added = charged.joules + tail.joules - before - radios.transferEnergy(of: packet, link: link)
        // Less than a nanojoule is the rounding of the sums subtracted (a packet that changed
        // nothing), far below any energy of the models.
        if abs(added) >= 1e-9 { addedJoules[packet.row] += added }
        if radios.wakeUps(on: radioLink) > wakeUps { wokeRadio.raise(packet.row) }
        if radioLink == .wifi { pending.wifi = tail.joules } else { pending.cellular = tail.joules }
    }

    /// The joules each radio would still charge if no packet came after the last one fed: its
    /// tail run to its end. A radio's pending tail changes only when one of its packets is fed.
    private struct PendingTails {
        var wifi = 0.0
        var cellular = 0.0
    }

    /// Adds up the joules a radio charges; its segments are not needed.
    private struct ChargeTotal: RadioEnergySink {
        var joules = 0.0

        mutating func record(_ segment: RadioSegment) {}

        mutating func charge(row: Int, start: Nanoseconds, duration: Nanoseconds, joules: Double) {
            self.joules += joules
        }
    }
}
