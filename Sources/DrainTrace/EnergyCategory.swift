/// The categories that energy is reported in (the JSON report's `energy.by_category` keys).
///
/// Raw values are stable: they index the ledger's `category` column and aggregation results.
public enum EnergyCategory: UInt8, CaseIterable, Sendable, Codable, Comparable {
    case cpu = 0, radio, disk, polling, display, location, sensors

    /// The number of categories; aggregation results are arrays of this length.
    public static let count = allCases.count

    /// The report's name for the category.
    public var name: String {
        switch self {
        case .cpu: "cpu"
        case .radio: "radio"
        case .disk: "disk"
        case .polling: "polling"
        case .display: "display"
        case .location: "location"
        case .sensors: "sensors"
        }
    }

    public static func < (lhs: EnergyCategory, rhs: EnergyCategory) -> Bool { lhs.rawValue < rhs.rawValue }
}
