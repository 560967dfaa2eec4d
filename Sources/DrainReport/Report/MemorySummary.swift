public struct MemorySummary: Codable, Sendable, Equatable {
    /// Highest footprint sampled, or `nil` when the inputs have no memory samples.
    public var peakBytes: Double?
    public var peakTimeS: Double?
    public var limitBytes: Double
    /// `peak_bytes / limit_bytes`.
    public var peakShareOfLimit: Double?
    public var samples: Int
    public var warnings: Int

    public init(peakBytes: Double?, peakTimeS: Double?, limitBytes: Double, peakShareOfLimit: Double?, samples: Int, warnings: Int) {
        self.peakBytes = peakBytes
        self.peakTimeS = peakTimeS
        self.limitBytes = limitBytes
        self.peakShareOfLimit = peakShareOfLimit
        self.samples = samples
        self.warnings = warnings
    }

    enum CodingKeys: String, CodingKey {
        case limitBytes = "limit_bytes"
        case peakBytes = "peak_bytes"
        case peakShareOfLimit = "peak_share_of_limit"
        case peakTimeS = "peak_time_s"
        case samples, warnings
    }
}
