import Algorithms
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
///
/// Every `net` event goes through the radios, but only the shares of the rows asked for are
/// kept: the rules that read shares need those of a few events (the ones that closed a
/// connection late, the bursts of a periodic pattern), and a share for every event, 8 bytes
/// each, was held while the rules ran, when an analysis's memory peaks. A row asked for is
/// kept in 32 bits, as a timeline numbers its rows (`RowSet`).
public struct RadioAttribution: Sendable {
    /// The rows asked for, ascending.
    public let rows: [UInt32]
    /// Joules of promotion and radio time each row of `rows` added; 0 for a row that is not a
    /// `net` event on a radio.
    public private(set) var addedJoules: [Double]
    /// Whether each row of `rows` found its radio idle and woke it (`RadioStateMachine.wakeUps`).
    public private(set) var wokeRadio: [Bool]

    /// Walks the `net` events of `timeline` through the radios of `model`, keeping the shares
    /// of `rows` (ascending; a row asked for more than once is kept once, in the array passed
    /// in). O(n + m log r) for n events, the m span markers pricing feeds and r rows asked
    /// for; 13 bytes per row asked for.
    public init(_ timeline: Timeline, model: DeviceModel, rows asked: consuming [UInt32]) {
        var rows = asked
        precondition(rows.indices.dropFirst().allSatisfy { rows[$0 - 1] <= rows[$0] }, "rows ascending")
        var kept = 0
        for index in rows.indices where kept == 0 || rows[index] != rows[kept - 1] {
            rows[kept] = rows[index]
            kept += 1
        }
        rows.removeLast(rows.count - kept)
        self.rows = rows
        addedJoules = [Double](repeating: 0, count: rows.count)
        wokeRadio = [Bool](repeating: false, count: rows.count)
        var radios = DeviceRadios(radio: model.radio)
        var spans = NetSpanMarkers(radio: model.radio)
        var lastPacket = LastPacketTimes()
        // The first row asked for at or after the event being walked.
        var next = 0
        for row in 0..<timeline.count where timeline.kind[row] == .net {
            let time = timeline.time[row]
            while let marker = spans.next(until: time) {
                feed(marker.packet, link: marker.link, slot: slot(of: marker.packet.row), radios: &radios, lastPacket: &lastPacket)
            }
            let (packet, link) = timeline.radioPacket(row: row, at: time)
            while next < rows.count, Int(rows[next]) < row { next += 1 }
            feed(
                packet, link: link, slot: next < rows.count && Int(rows[next]) == row ? next : nil, radios: &radios,
                lastPacket: &lastPacket)
            spans.add(row: row, start: time, duration: timeline.duration[row], direction: packet.direction, link: link)
        }
        while let marker = spans.next(until: .max) {
            feed(marker.packet, link: marker.link, slot: slot(of: marker.packet.row), radios: &radios, lastPacket: &lastPacket)
        }
    }

    /// The share of `row`, one of `rows`. O(log r).
    public subscript(row: Int) -> (addedJoules: Double, wokeRadio: Bool) {
        guard let slot = slot(of: row) else { preconditionFailure("row \(row) was not asked for") }
        return (addedJoules[slot], wokeRadio[slot])
    }

    /// The place of `row` in `rows`, if it is there. O(log r).
    private func slot(of row: Int) -> Int? {
        let place = rows.partitioningIndex { Int($0) >= row }
        return place < rows.count && Int(rows[place]) == row ? place : nil
    }

    /// Feeds one packet and books what it added on its row's `slot`, if its row was asked for:
    /// the joules charged while it was fed, plus its radio's tail now to come, less the tail
    /// that was to come before it, less its transfer. A packet leaves the other radio as it
    /// was, so only its own radio is read.
    private mutating func feed(
        _ packet: RadioPacket, link: LinkKind, slot: Int?, radios: inout DeviceRadios, lastPacket: inout LastPacketTimes
    ) {
        guard let radioLink = radios.radioLink(for: link) else { return }
        defer { lastPacket[radioLink] = packet.time }
        guard let slot else {
            var ignored = ChargeTotal()
            radios.packet(packet, link: link, into: &ignored)
            return
        }
        // Nothing has changed the radio since its last packet, so its tail then is its tail
        // finished now at that packet's time.
        var before = ChargeTotal()
        radios.charges(of: radioLink, ifFinishedAt: lastPacket[radioLink], into: &before)
        var charged = ChargeTotal()
        let wakeUps = radios.wakeUps(on: radioLink)
        radios.packet(packet, link: link, into: &charged)
        var tail = ChargeTotal()
        radios.charges(of: radioLink, ifFinishedAt: packet.time, into: &tail)
        let added = charged.joules + tail.joules - before.joules - radios.transferEnergy(of: packet, link: link)
        // Less than a nanojoule is the rounding of the sums subtracted (a packet that changed
        // nothing), far below any energy of the models.
        if abs(added) >= 1e-9 { addedJoules[slot] += added }
        if radios.wakeUps(on: radioLink) > wakeUps { wokeRadio[slot] = true }
    }

    /// The time of the last packet fed to each radio. A radio changes only when one of its
    /// packets is fed, so the tail it had then (its machine finished at that time) is read
    /// from it as it is when the next one comes, and only for a packet whose share is asked
    /// for: finishing a machine for every packet cost more than the walk's other work.
    private struct LastPacketTimes {
        var wifi: Nanoseconds = 0
        var cellular: Nanoseconds = 0

        subscript(radioLink: LinkKind) -> Nanoseconds {
            get { radioLink == .wifi ? wifi : cellular }
            set { if radioLink == .wifi { wifi = newValue } else { cellular = newValue } }
        }
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
