/// One rule parameter's value in force.
public struct ThresholdUsed: Codable, Sendable, Equatable {
    public var rule: String
    public var parameter: String
    public var value: Double
    public var unit: String
    /// `default`, `model` or `config`.
    public var origin: String

    enum CodingKeys: String, CodingKey {
        case origin, parameter, rule, unit, value
    }

    public init(rule: String, parameter: String, value: Double, unit: String, origin: String) {
        self.rule = rule
        self.parameter = parameter
        self.value = value
        self.unit = unit
        self.origin = origin
    }
}
