/// A rule's outcome in one analysis.
public struct RuleResult: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case pass, info, warning, error
        case notApplicable = "not_applicable"
        case disabled
    }

    public var id: String
    public var area: GuidanceArea
    public var title: String
    public var status: Status
    /// Why the rule was not applicable or disabled.
    public var reason: String?

    enum CodingKeys: String, CodingKey {
        case area, id, reason, status, title
    }

    public init(id: String, area: GuidanceArea, title: String, status: Status, reason: String? = nil) {
        self.id = id
        self.area = area
        self.title = title
        self.status = status
        self.reason = reason
    }
}
