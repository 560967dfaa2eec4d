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
    /// link's radio segments as a replay of the priced run gives them (`RadioReplay`): the
    /// meter holds only the segments between the latest burst's end and the next burst.
    ///
    /// Segments are integrated over the window `[burst end, next burst start)`: promotion and
    /// idle time do not count (a burst that ends during its promotion has its tail start when
    /// the promotion ends); tail and FACH segments count at their own average power; connected
    /// segments (LTE continuous reception, DCH, Wi-Fi active) at the model's connected power,
    /// since no packet, hence no transfer energy, falls inside the window.
    /// O(rows + segments) over all bursts: one pass of the radios.
    public struct Meter {
        private var replay: RadioReplay
        /// Segments of the link the replay gave and the meter has not passed, oldest first
        /// from `first`.
        private var pending: LinkSegments
        private var first = 0
        private let connected: Double

        /// A meter of `link`'s tails in the priced run of `timeline` under `model`.
        public init(link: LinkKind, timeline: Timeline, model: DeviceModel) {
            replay = RadioReplay(timeline, model: model)
            pending = LinkSegments(link: link)
            connected = RadioTail.connectedPower(of: link, model: model)
        }

        /// The tail energy after `burst`, until `nextStart` (the next burst's start on the
        /// link, `.max` after the last).
        public mutating func energy(after burst: Burst, until nextStart: Nanoseconds) -> Double {
            func counts(_ segment: RadioSegment) -> Bool { segment.state != .idle && segment.state != .promotion }
            let windowStart = burst.end
            while let segment = segment(at: first), !counts(segment) || segment.end <= windowStart { first += 1 }
            dropPassed()
            var joules = 0.0
            var next = first
            while let segment = segment(at: next) {
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

        /// The link's segment at `index` (counting from the replay's first), replaying the run
        /// until it comes, and a few after it in the same pull; `nil` past the last.
        private mutating func segment(at index: Int) -> RadioSegment? {
            while index >= pending.end {
                guard replay.feed(into: &pending, while: { $0.end <= index + Self.segmentsPerPull }) else { return nil }
            }
            return pending.segments[index - pending.base]
        }

        /// Segments a pull from the replay adds beyond the one asked for.
        private static let segmentsPerPull = 64

        /// Gives back the room of the segments before `first`, once they are most of it.
        private mutating func dropPassed() {
            let passed = first - pending.base
            guard passed >= 1024, passed * 2 >= pending.segments.count else { return }
            pending.segments.removeFirst(passed)
            pending.base = first
        }
    }

    /// The segments of one link a replay gives, numbered from the first.
    private struct LinkSegments: RadioEnergySink {
        let link: LinkKind
        var segments: [RadioSegment] = []
        /// The number of the segment at `segments[0]`.
        var base = 0
        var end: Int { base + segments.count }

        mutating func record(_ segment: RadioSegment) {
            if segment.link == link { segments.append(segment) }
        }

        mutating func charge(row: Int, start: Nanoseconds, duration: Nanoseconds, joules: Double) {}
    }
}
