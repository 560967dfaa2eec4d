/// A `mark` event of the run: a named point (or the start of a named span) that comparisons
/// can align runs at (`drain compare --align mark:NAME`).
public struct TimelineMark: Codable, Sendable, Equatable {
    public var timeS: Double
    public var name: String

    public init(timeS: Double, name: String) {
        self.timeS = timeS
        self.name = name
    }

    enum CodingKeys: String, CodingKey {
        case name
        case timeS = "time_s"
    }
}
