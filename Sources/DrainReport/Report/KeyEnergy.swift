/// Energy of one key within one category.
public struct KeyEnergy: Codable, Sendable, Equatable {
    public var category: String
    public var key: String
    public var energyJ: Double
    public var entries: Int

    public init(category: String, key: String, energyJ: Double, entries: Int) {
        self.category = category
        self.key = key
        self.energyJ = energyJ
        self.entries = entries
    }

    enum CodingKeys: String, CodingKey {
        case category
        case energyJ = "energy_j"
        case entries, key
    }
}
