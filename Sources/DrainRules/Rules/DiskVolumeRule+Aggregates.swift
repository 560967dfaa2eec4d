import DrainReport
import DrainTrace

extension DiskVolumeRule {
    /// MetricKit: any disk-write exception is an error (the system reported the app), with
    /// the bytes each caused; the logical writes of the metric payloads are projected to a day
    /// from the payload windows and judged as the event writes are. O(exceptions).
    public func evaluateAggregates(_ aggregates: MetricAggregates, _ context: RuleContext) -> RuleOutcome {
        var findings: [Finding] = []
        let exceptions = aggregates.diskWriteExceptions
        if !exceptions.isEmpty {
            let caused = exceptions.compactMap(\.writesCausedBytes)
            let evidence =
                [Evidence("disk-write exceptions", Double(exceptions.count), unit: "exceptions")]
                + caused.map { Evidence("writes caused", $0, unit: "B") }
            let bytes = caused.isEmpty ? "" : " (writes caused: \(caused.map(ByteFormat.string).joined(separator: ", ")))"
            findings.append(
                Self.description.finding(
                    .error, title: "Disk-write exception",
                    message: "MetricKit reports \(exceptions.count) disk-write exception(s)\(bytes): the system saw the app write more than its daily limit.",
                    evidence: evidence, timeRanges: context.aggregateWindow))
        }
        guard let bytes = aggregates.logicalWriteBytes else {
            return findings.isEmpty ? .notApplicable("the MetricKit payloads report no logical writes and no disk-write exception") : .findings(findings)
        }
        let minimum = context[Self.minRun]
        guard let seconds = aggregates.metricSeconds, seconds > 0, seconds >= minimum else {
            guard findings.isEmpty else { return .findings(findings) }
            return .notApplicable("the MetricKit payload windows last \(fixed(aggregates.metricSeconds ?? 0, 1)) s, shorter than the \(fixed(minimum, 0)) s needed to project their writes to a day")
        }
        let projection = bytes * (Self.day / seconds)
        let warning = context[Self.warningBytesPerDay], limit = context[Self.limitBytesPerDay]
        guard projection > warning || projection > limit else { return .findings(findings) }
        let severity: Severity = projection > limit ? .error : .warning
        let threshold = severity == .error ? limit : warning
        findings.append(
            Self.description.finding(
                severity,
                message: "MetricKit logical writes of \(ByteFormat.string(bytes)) over \(fixed(seconds / 3600, 1)) h project to \(ByteFormat.string(projection)) a day, above \(severity == .error ? "the system's disk-write limit" : "the warning level") of \(ByteFormat.string(threshold)).",
                evidence: [
                    Evidence("logical writes", bytes, unit: "B"),
                    Evidence("payload window", seconds, unit: "s"),
                    Evidence("projection", projection, unit: "B/day"),
                    Evidence("threshold", threshold, unit: "B/day"),
                ],
                timeRanges: context.aggregateWindow))
        return .findings(findings)
    }
}
