import DrainReport
import DrainTrace

extension RuleDescription {
    /// A finding of this rule: id, area, fix, guidance and source come from the description.
    /// `subject` names what the finding is about (a host, a file, a timer…) and makes its key
    /// (`FindingKey`); leave it out for a finding about the whole run.
    func finding(
        _ severity: Severity, subject: String? = nil, title: String? = nil, message: String, evidence: [Evidence],
        energyJ: Double? = nil, timeRanges: [TimeRange]
    ) -> Finding {
        Finding(
            rule: id, area: area, severity: severity, title: title ?? self.title, message: message, evidence: evidence,
            energyJ: energyJ, timeRanges: timeRanges, fix: fix, guidance: guidance, source: source, subject: subject)
    }
}

extension TimeRange {
    /// A range between two timeline instants.
    init(from start: Nanoseconds, to end: Nanoseconds) {
        self.init(startS: Clock.seconds(start), endS: Clock.seconds(end))
    }
}
