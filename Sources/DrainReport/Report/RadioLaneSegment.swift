public struct RadioLaneSegment: Codable, Sendable, Equatable {
    public var link: String
    public var state: String
    public var startS: Double
    public var endS: Double

    public init(link: String, state: String, startS: Double, endS: Double) {
        self.link = link
        self.state = state
        self.startS = startS
        self.endS = endS
    }

    enum CodingKeys: String, CodingKey {
        case endS = "end_s"
        case link
        case startS = "start_s"
        case state
    }
}
