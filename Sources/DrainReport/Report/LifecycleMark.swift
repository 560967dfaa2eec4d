public struct LifecycleMark: Codable, Sendable, Equatable {
    public var timeS: Double
    public var state: String

    public init(timeS: Double, state: String) {
        self.timeS = timeS
        self.state = state
    }

    enum CodingKeys: String, CodingKey {
        case state
        case timeS = "time_s"
    }
}
