/// One per-run figure of `Report.metrics`.
public struct ReportMetric: Codable, Sendable, Equatable {
    /// The figure over the whole run, in `unit`.
    public var value: Double
    /// `J`, `mW`, `%/h`, `/s`, `s`, `B` or `count`.
    public var unit: String
    /// `value` per hour of the run's active duration, for additive figures (energy, counts,
    /// bytes, seconds); `nil` for rates and levels (power, memory), and for a run of no
    /// duration.
    public var perHour: Double?

    public init(value: Double, unit: String, perHour: Double? = nil) {
        self.value = value
        self.unit = unit
        self.perHour = perHour
    }

    enum CodingKeys: String, CodingKey {
        case perHour = "per_hour"
        case unit, value
    }
}
