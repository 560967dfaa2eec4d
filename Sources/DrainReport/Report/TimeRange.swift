public struct TimeRange: Codable, Sendable, Equatable {
    public var startS: Double
    public var endS: Double

    public init(startS: Double, endS: Double) {
        self.startS = startS
        self.endS = endS
    }

    enum CodingKeys: String, CodingKey {
        case endS = "end_s"
        case startS = "start_s"
    }
}
