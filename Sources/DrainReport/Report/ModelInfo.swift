/// The device model an analysis used.
public struct ModelInfo: Codable, Sendable, Equatable {
    public var name: String
    public var title: String
    /// `cellular` or `wifi`: the radio for traffic whose interface is not known.
    public var defaultLink: String
    /// `lte` or `umts`.
    public var cellular: String
    public var burstGapS: Double
    public var memoryLimitBytes: Double
    public var batteryWh: Double
    public var score90Mw: Double
    public var score50Mw: Double

    public init(
        name: String, title: String, defaultLink: String, cellular: String, burstGapS: Double,
        memoryLimitBytes: Double, batteryWh: Double, score90Mw: Double, score50Mw: Double
    ) {
        self.name = name
        self.title = title
        self.defaultLink = defaultLink
        self.cellular = cellular
        self.burstGapS = burstGapS
        self.memoryLimitBytes = memoryLimitBytes
        self.batteryWh = batteryWh
        self.score90Mw = score90Mw
        self.score50Mw = score50Mw
    }

    enum CodingKeys: String, CodingKey {
        case batteryWh = "battery_wh"
        case burstGapS = "burst_gap_s"
        case cellular
        case defaultLink = "default_link"
        case memoryLimitBytes = "memory_limit_bytes"
        case name
        case score50Mw = "score_50_mw"
        case score90Mw = "score_90_mw"
        case title
    }
}
