import DrainTrace

/// A `RadioEnergySink` that keeps everything: for simulations outside pricing (what would this
/// traffic cost on Wi-Fi, or batched?) and for tests.
public struct RadioRecorder: RadioEnergySink, Sendable {
    /// Energy charged to one packet.
    public struct Charge: Sendable, Equatable {
        public var row: Int
        public var start: Nanoseconds
        public var duration: Nanoseconds
        public var joules: Double
    }

    public private(set) var segments: [RadioSegment] = []
    public private(set) var charges: [Charge] = []

    public init() {}

    public mutating func record(_ segment: RadioSegment) {
        segments.append(segment)
    }

    public mutating func charge(row: Int, start: Nanoseconds, duration: Nanoseconds, joules: Double) {
        charges.append(Charge(row: row, start: start, duration: duration, joules: joules))
    }

    /// Joules of all segments except idle ones: the energy the app caused.
    public var attributedJoules: Double {
        segments.reduce(0) { $0 + ($1.state == .idle ? 0 : $1.joules) }
    }

    /// Joules charged to packets; equal to `attributedJoules` up to rounding.
    public var chargedJoules: Double {
        charges.reduce(0) { $0 + $1.joules }
    }

    /// Joules charged to one row.
    public func joules(chargedTo row: Int) -> Double {
        charges.reduce(0) { $0 + ($1.row == row ? $1.joules : 0) }
    }
}
