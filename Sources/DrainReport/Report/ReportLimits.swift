/// How one list of a report was cut.
public struct ListLimit: Codable, Sendable, Equatable {
    /// The most rows the report lists, or `nil` when the list is never cut.
    public var limit: Int?
    /// How many rows there were before the cut.
    public var total: Int

    public init(limit: Int?, total: Int) {
        self.limit = limit
        self.total = total
    }

    /// Whether rows were left out.
    public var isTruncated: Bool { limit.map { total > $0 } ?? false }
}

/// The limits applied to every list of a report that can be cut. A key missing from a list
/// whose `total` is within its `limit` is absent from the run; a key missing from a cut list
/// may only be below the last row listed.
public struct ReportLimits: Codable, Sendable, Equatable {
    /// `breakdown` rows per category (the costliest keys of each), by category name.
    public var breakdown: [String: ListLimit]
    /// `endpoints`: the costliest, by radio energy.
    public var endpoints: ListLimit
    /// `radio.bursts`.
    public var bursts: ListLimit
    /// `radio.lane` segments.
    public var radioLane: ListLimit
    /// `timeline.lifecycle` marks.
    public var lifecycle: ListLimit
    /// `timeline.marks`.
    public var marks: ListLimit
    /// `threads`.
    public var threads: ListLimit

    public init(
        breakdown: [String: ListLimit] = [:], endpoints: ListLimit = ListLimit(limit: nil, total: 0),
        bursts: ListLimit = ListLimit(limit: nil, total: 0), radioLane: ListLimit = ListLimit(limit: nil, total: 0),
        lifecycle: ListLimit = ListLimit(limit: nil, total: 0), marks: ListLimit = ListLimit(limit: nil, total: 0),
        threads: ListLimit = ListLimit(limit: nil, total: 0)
    ) {
        self.breakdown = breakdown
        self.endpoints = endpoints
        self.bursts = bursts
        self.radioLane = radioLane
        self.lifecycle = lifecycle
        self.marks = marks
        self.threads = threads
    }

    enum CodingKeys: String, CodingKey {
        case breakdown, bursts, endpoints, lifecycle, marks
        case radioLane = "radio_lane"
        case threads
    }
}
