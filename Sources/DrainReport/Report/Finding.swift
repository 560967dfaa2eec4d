/// One broken piece of guidance, with the evidence, the energy it cost and the fix.
public struct Finding: Codable, Sendable, Equatable {
    /// The `GUIDANCE.md` rule id.
    public var rule: String
    public var area: GuidanceArea
    public var severity: Severity
    public var title: String
    /// One sentence with the numbers that matter.
    public var message: String
    public var evidence: [Evidence]
    /// Energy attributed to the pattern, joules, where one can be attributed.
    public var energyJ: Double?
    public var timeRanges: [TimeRange]
    public var fix: String
    /// The guidance text and its source.
    public var guidance: String
    public var source: String
    /// What the finding is about — a host, a file, a timer, a thread — as the rule named it,
    /// or `nil` when the finding concerns the run as a whole.
    public var subject: String?
    /// The rule id and the normalised subject (`FindingKey`): the same problem in two runs
    /// has the same key, so gates and comparisons match findings across runs by it.
    public var key: String

    public init(
        rule: String, area: GuidanceArea, severity: Severity, title: String, message: String, evidence: [Evidence],
        energyJ: Double?, timeRanges: [TimeRange], fix: String, guidance: String, source: String, subject: String? = nil
    ) {
        self.subject = subject
        self.key = FindingKey.key(rule: rule, subject: subject)
        self.rule = rule
        self.area = area
        self.severity = severity
        self.title = title
        self.message = message
        self.evidence = evidence
        self.energyJ = energyJ
        self.timeRanges = timeRanges
        self.fix = fix
        self.guidance = guidance
        self.source = source
    }

    enum CodingKeys: String, CodingKey {
        case area
        case energyJ = "energy_j"
        case evidence, fix, guidance, key, message, rule, severity, source, subject
        case timeRanges = "time_ranges"
        case title
    }
}
