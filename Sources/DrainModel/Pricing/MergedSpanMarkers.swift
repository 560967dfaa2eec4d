import DrainTrace

/// Keeps each radio active over the union of the spans of its `net` events, as
/// `NetSpanMarkers` does span by span, with one chain of markers per radio instead of one per
/// span: for energy totals, where which row a stretch of active time is charged to does not
/// matter.
///
/// Spans of one radio that overlap keep it active over their union whichever of them the
/// markers belong to, and a marker on an active radio changes nothing but which row the time
/// since the last packet is charged to. So a span that starts while the radio's chain is
/// pending only lengthens the chain, and memory stays at one chain per radio however many spans
/// overlap (a simulation that moves thousands of spanned events to one instant has them all
/// pending at once). O(1) per span and per marker.
struct MergedSpanMarkers {
    private struct Chain {
        var next: Nanoseconds
        var end: Nanoseconds
        var row: Int
        var direction: NetDirection
        var link: LinkKind
    }

    /// The longest gap between two markers (`NetSpanMarkers.step`).
    let step: Nanoseconds
    private var wifi: Chain?
    private var cellular: Chain?

    init(radio: DeviceModel.Radio) {
        step = NetSpanMarkers.step(radio: radio)
    }

    /// Schedules markers over the span of a `net` event at row `row`, fed on `radio` (its
    /// `DeviceRadios.radioLink`), that started at `start` (already fed as a packet) and lasts
    /// `duration`. Call `feed(until: start, …)` first.
    mutating func add(
        row: Int, start: Nanoseconds, duration: Nanoseconds, direction: NetDirection, link: LinkKind, radio: LinkKind
    ) {
        guard duration > 0 else { return }
        let end = start + duration
        let fresh = Chain(next: min(start + step, end), end: end, row: row, direction: direction, link: link)
        switch radio {
        case .wifi: wifi = Self.merged(wifi, fresh)
        case .cellular: cellular = Self.merged(cellular, fresh)
        default: break
        }
    }

    /// A pending chain runs on to the later end; without one, the span starts its own.
    private static func merged(_ pending: Chain?, _ fresh: Chain) -> Chain {
        guard var chain = pending else { return fresh }
        chain.end = max(chain.end, fresh.end)
        return chain
    }

    /// Feeds every marker at or before `time` to the radios, earliest first (Wi-Fi's first at
    /// one instant).
    mutating func feed<Sink: RadioEnergySink>(until time: Nanoseconds, radios: inout DeviceRadios, into sink: inout Sink) {
        while true {
            let wifiNext = wifi.map(\.next) ?? .max
            let cellularNext = cellular.map(\.next) ?? .max
            let earliest = min(wifiNext, cellularNext)
            guard earliest <= time, earliest != .max else { return }
            if wifiNext == earliest {
                Self.feedNext(of: &wifi, step: step, radios: &radios, into: &sink)
            } else {
                Self.feedNext(of: &cellular, step: step, radios: &radios, into: &sink)
            }
        }
    }

    /// Feeds the chain's next marker and schedules the one after it, or ends the chain.
    private static func feedNext<Sink: RadioEnergySink>(
        of chain: inout Chain?, step: Nanoseconds, radios: inout DeviceRadios, into sink: inout Sink
    ) {
        guard var marker = chain else { return }
        radios.packet(RadioPacket(row: marker.row, time: marker.next, bytes: 0, direction: marker.direction), link: marker.link, into: &sink)
        if marker.next < marker.end {
            marker.next = min(marker.next + step, marker.end)
            chain = marker
        } else {
            chain = nil
        }
    }
}
