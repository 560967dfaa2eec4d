import DrainTrace

/// The radio tail: how long a radio of the model stays up after its last packet, and what that
/// costs after each burst of a priced run.
public enum RadioTail {
    /// How long the radio carrying `radioLink` (`.wifi` or `.cellular`) stays out of idle after
    /// its last packet, from the model: LTE inactivity timer + short DRX + long DRX (also for
    /// NR NSA, whose LTE anchor's tail ends the connection); UMTS DCH timer + FACH timer; Wi-Fi
    /// `tail_s`. `nil` for links without a radio.
    public static func length(of radioLink: LinkKind, model: DeviceModel) -> Nanoseconds? {
        switch radioLink {
        case .wifi:
            return Clock.nanoseconds(model.radio.wifi.tailS.value)
        case .cellular:
            switch model.radio.cellular {
            case .lte, .nrNsa:
                guard let lte = model.radio.lte else { return nil }
                return Clock.nanoseconds(lte.inactivityS.value + lte.shortDrxS.value + lte.longDrxS.value)
            case .umts:
                guard let umts = model.radio.umts else { return nil }
                return Clock.nanoseconds(umts.dchTailS.value + umts.fachTailS.value)
            }
        default:
            return nil
        }
    }

    /// The power of the radio's connected state (LTE β, NR NSA's NR connected power, UMTS
    /// DCH, Wi-Fi active), watts.
    public static func connectedPower(of radioLink: LinkKind, model: DeviceModel) -> Double {
        switch radioLink {
        case .wifi: model.radio.wifi.activeW.value
        case .cellular:
            switch model.radio.cellular {
            case .lte: model.radio.lte?.connectedW.value ?? 0
            case .umts: model.radio.umts?.dchW.value ?? 0
            case .nrNsa: model.radio.nr?.connectedW.value ?? 0
            }
        default: 0
        }
    }

    /// The tail energy after each burst of one radio link, given one at a time in time order,
    /// so that a caller need not keep the bursts: the joules the radio spent from the end of
    /// the burst until the next burst on that link began or the radio went idle, read from the
    /// priced run's radio segments.
    ///
    /// Segments are integrated over the window `[burst end, next burst start)`: promotion and
    /// idle time do not count (a burst that ends during its promotion has its tail start when
    /// the promotion ends); tail and FACH segments count at their own average power; connected
    /// segments (LTE continuous reception, DCH, Wi-Fi active) at the model's connected power,
    /// since no packet, hence no transfer energy, falls inside the window.
    /// O(bursts + segments of the link) over all bursts.
    public struct Meter {
        private let segments: RadioSegments
        /// The link's segments are `segments[first..<end]` (they lie together, in time order:
        /// `RadioActivity.segments`), read in place, not copied out; `first` moves past those
        /// that ended before the latest burst.
        private var first: Int
        private let end: Int
        private let connected: Double

        public init(link: LinkKind, radio: RadioActivity, model: DeviceModel) {
            segments = radio.segments
            end = segments.lastIndex { $0.link == link }.map { $0 + 1 } ?? 0
            first = segments[..<end].firstIndex { $0.link == link } ?? end
            connected = RadioTail.connectedPower(of: link, model: model)
        }

        /// The tail energy after `burst`, until `nextStart` (the next burst's start on the
        /// link, `.max` after the last).
        public mutating func energy(after burst: Burst, until nextStart: Nanoseconds) -> Double {
            func counts(_ segment: RadioSegment) -> Bool { segment.state != .idle && segment.state != .promotion }
            let windowStart = burst.end
            while first < end, !counts(segments[first]) || segments[first].end <= windowStart { first += 1 }
            var joules = 0.0
            var next = first
            while next < end {
                let segment = segments[next]
                next += 1
                guard counts(segment) else { continue }
                guard segment.start < nextStart else { break }
                let overlap = min(segment.end, nextStart) - max(segment.start, windowStart)
                if overlap > 0 {
                    let power =
                        segment.state == .active
                        ? connected : segment.joules / Clock.seconds(segment.end - segment.start)
                    joules += Clock.seconds(overlap) * power
                }
            }
            return joules
        }
    }
}
