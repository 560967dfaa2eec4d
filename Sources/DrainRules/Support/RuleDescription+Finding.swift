import DrainReport
import DrainTrace

extension RuleDescription {
    /// A finding of this rule: id, area, fix, guidance and source come from the description.
    func finding(
        _ severity: Severity, title: String? = nil, message: String, evidence: [Evidence], energyJ: Double? = nil,
        timeRanges: [TimeRange]
    ) -> Finding {
        Finding(
            rule: id, area: area, severity: severity, title: title ?? self.title, message: message, evidence: evidence,
            energyJ: energyJ, timeRanges: timeRanges, fix: fix, guidance: guidance, source: source)
    }
}

extension TimeRange {
    /// A range between two timeline instants.
    init(from start: Nanoseconds, to end: Nanoseconds) {
        self.init(startS: Clock.seconds(start), endS: Clock.seconds(end))
    }
}
