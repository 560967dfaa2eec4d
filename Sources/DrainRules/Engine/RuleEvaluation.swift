import DrainReport

/// What the rules made of one run: the findings, every rule's status and the thresholds in
/// force, ready for the report.
public struct RuleEvaluation: Sendable, Equatable {
    /// Sorted by severity (highest first), then rule catalogue order, then first time.
    public var findings: [Finding]
    /// One per rule of `RuleEngine.allRules`, in catalogue order.
    public var results: [RuleResult]
    /// Every parameter of every enabled rule, with where its value came from.
    public var thresholds: [ThresholdUsed]

    public init(findings: [Finding], results: [RuleResult], thresholds: [ThresholdUsed]) {
        self.findings = findings
        self.results = results
        self.thresholds = thresholds
    }
}
