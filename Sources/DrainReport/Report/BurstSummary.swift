/// One burst: a run of packets (or `net` events) on one radio with gaps shorter than the
/// model's burst gap, and the radio energy charged to it (promotion, transfer, tail).
public struct BurstSummary: Codable, Sendable, Equatable {
    public var link: String
    public var startS: Double
    public var endS: Double
    /// The endpoint that moved the most bytes in the burst.
    public var endpoint: String
    /// How many endpoints the burst's traffic went to.
    public var endpoints: Int
    public var bytesUp: Int64
    public var bytesDown: Int64
    /// `net` events in the burst (packets, or coalesced packet runs of a capture).
    public var events: Int
    public var energyJ: Double

    public init(
        link: String, startS: Double, endS: Double, endpoint: String, endpoints: Int, bytesUp: Int64, bytesDown: Int64,
        events: Int, energyJ: Double
    ) {
        self.link = link
        self.startS = startS
        self.endS = endS
        self.endpoint = endpoint
        self.endpoints = endpoints
        self.bytesUp = bytesUp
        self.bytesDown = bytesDown
        self.events = events
        self.energyJ = energyJ
    }

    enum CodingKeys: String, CodingKey {
        case bytesDown = "bytes_down"
        case bytesUp = "bytes_up"
        case endS = "end_s"
        case endpoint, endpoints
        case energyJ = "energy_j"
        case events, link
        case startS = "start_s"
    }
}
