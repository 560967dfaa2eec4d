public struct Scores: Codable, Sendable, Equatable {
    /// 0–100 from average power on the model's log-normal curve, or `nil` when the run has no
    /// events to price (MetricKit aggregates only).
    public var energy: Double?
    /// Mean of the applicable areas, or `nil` when no rule had data.
    public var guidance: Double?
    /// Area name → 0–100, for areas where at least one rule had data.
    public var areas: [String: Double]

    enum CodingKeys: String, CodingKey {
        case areas, energy, guidance
    }

    public init(energy: Double?, guidance: Double?, areas: [String: Double]) {
        self.energy = energy
        self.guidance = guidance
        self.areas = areas
    }
}
