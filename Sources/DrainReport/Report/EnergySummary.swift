public struct EnergySummary: Codable, Sendable, Equatable {
    public var totalJ: Double
    public var averageMw: Double
    public var mwh: Double
    public var batteryPctPerHour: Double
    /// Joules per category; every category of `EnergyCategory` is present.
    public var byCategory: [String: Double]

    public init(totalJ: Double, averageMw: Double, mwh: Double, batteryPctPerHour: Double, byCategory: [String: Double]) {
        self.totalJ = totalJ
        self.averageMw = averageMw
        self.mwh = mwh
        self.batteryPctPerHour = batteryPctPerHour
        self.byCategory = byCategory
    }

    enum CodingKeys: String, CodingKey {
        case averageMw = "average_mw"
        case batteryPctPerHour = "battery_pct_per_hour"
        case byCategory = "by_category"
        case mwh
        case totalJ = "total_j"
    }
}
