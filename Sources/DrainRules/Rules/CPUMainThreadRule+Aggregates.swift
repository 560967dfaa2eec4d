import DrainReport
import DrainTrace

extension CPUMainThreadRule {
    /// MetricKit: every hang diagnostic is an error, with its duration. The histogrammed hang
    /// time counts hangs in buckets starting at or above `hang_s` (an error) or, failing that,
    /// `long_slice_s` (a warning); a bucket straddling a threshold is not counted, since its
    /// samples may lie below it. O(diagnostics + buckets).
    public func evaluateAggregates(_ aggregates: MetricAggregates, _ context: RuleContext) -> RuleOutcome {
        var findings: [Finding] = []
        let hangThreshold = context[Self.hang], longThreshold = context[Self.longSlice]
        if !aggregates.hangs.isEmpty {
            let durations = aggregates.hangs.compactMap(\.durationS)
            let longest = durations.max()
            let evidence =
                [Evidence("hang diagnostics", Double(aggregates.hangs.count), unit: "hangs")]
                + durations.map { Evidence("hang duration", $0 * 1000, unit: "ms") }
            findings.append(
                Self.description.finding(
                    .error, title: "Main thread hang",
                    message: "MetricKit reports \(aggregates.hangs.count) hang(s) of the main thread\(longest.map { ", the longest \(fixed($0 * 1000, 0)) ms" } ?? "").",
                    evidence: evidence, timeRanges: context.aggregateWindow))
        }
        if let histogram = aggregates.hangTime {
            let hangs = histogram.count(atLeast: hangThreshold), long = histogram.count(atLeast: longThreshold)
            if long > 0 {
                let severity: Severity = hangs > 0 ? .error : .warning
                let threshold = hangs > 0 ? hangThreshold : longThreshold
                findings.append(
                    Self.description.finding(
                        severity, title: hangs > 0 ? "Main thread hangs (MetricKit histogram)" : "Long main-thread work (MetricKit histogram)",
                        message: "MetricKit's hang-time histogram holds \(hangs > 0 ? hangs : long) of \(histogram.count) hang(s) of at least \(fixed(threshold * 1000, 0)) ms\(histogram.maximumS.map { ", up to \(fixed($0 * 1000, 0)) ms" } ?? "").",
                        evidence: [
                            Evidence("hangs at or above threshold", Double(hangs > 0 ? hangs : long), unit: "hangs"),
                            Evidence("hangs in histogram", Double(histogram.count), unit: "hangs"),
                            Evidence("threshold", threshold * 1000, unit: "ms"),
                        ] + (histogram.maximumS.map { [Evidence("longest bucket end", $0 * 1000, unit: "ms")] } ?? []),
                        timeRanges: context.aggregateWindow))
            }
        }
        guard !findings.isEmpty || aggregates.hangTime != nil else {
            return .notApplicable("the MetricKit payloads hold no hang diagnostic and no hang-time histogram")
        }
        return .findings(findings)
    }
}
