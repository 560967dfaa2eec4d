public struct RadioSummary: Codable, Sendable, Equatable {
    public struct StateTotal: Codable, Sendable, Equatable {
        public var link: String
        public var state: String
        public var timeS: Double
        public var energyJ: Double
        /// Whether this energy counts as the app's (idle radio power does not).
        public var attributed: Bool

        public init(link: String, state: String, timeS: Double, energyJ: Double, attributed: Bool) {
            self.link = link
            self.state = state
            self.timeS = timeS
            self.energyJ = energyJ
            self.attributed = attributed
        }

        enum CodingKeys: String, CodingKey {
            case attributed
            case energyJ = "energy_j"
            case link, state
            case timeS = "time_s"
        }
    }

    public var states: [StateTotal]
    public var promotions: Int
    /// Radio joules per kilobyte transferred, or `nil` without traffic.
    public var joulesPerKB: Double?
    /// Radio state changes over time for the HTML lane: [start_s, end_s, state] per segment,
    /// idle omitted.
    public var lane: [RadioLaneSegment]
    /// The bursts of network traffic, per radio, in time order (at most `burstLimit`).
    public var bursts: [BurstSummary]
    /// How many bursts the run had; more than `bursts.count` when the list was cut.
    public var burstCount: Int

    /// The most bursts a report lists.
    public static let burstLimit = 5_000

    public init(
        states: [StateTotal], promotions: Int, joulesPerKB: Double?, lane: [RadioLaneSegment], bursts: [BurstSummary] = [],
        burstCount: Int? = nil
    ) {
        self.states = states
        self.promotions = promotions
        self.joulesPerKB = joulesPerKB
        self.lane = lane
        self.bursts = bursts
        self.burstCount = burstCount ?? bursts.count
    }

    enum CodingKeys: String, CodingKey {
        case burstCount = "burst_count"
        case bursts
        case joulesPerKB = "j_per_kb"
        case lane, promotions, states
    }
}
