public enum Severity: String, Codable, Sendable, CaseIterable, Comparable {
    case info, warning, error

    private var order: Int { self == .info ? 0 : (self == .warning ? 1 : 2) }
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.order < rhs.order }
}
