/// A named number (or text) that tripped a rule.
public struct Evidence: Codable, Sendable, Equatable {
    public var name: String
    public var value: Double?
    public var text: String?
    public var unit: String?

    enum CodingKeys: String, CodingKey {
        case name, text, unit, value
    }

    public init(_ name: String, _ value: Double, unit: String? = nil) {
        self.name = name
        self.value = value
        self.text = nil
        self.unit = unit
    }

    public init(_ name: String, text: String) {
        self.name = name
        self.value = nil
        self.text = text
        self.unit = nil
    }
}
