import DrainReport
import DrainTrace

extension MemoryBackgroundRule {
    /// MetricKit: the average suspended memory against the peak memory, with the same
    /// thresholds as a background footprint against the foreground peak (above `max_share` of
    /// it and above `min_bytes`: a warning). O(1).
    public func evaluateAggregates(_ aggregates: MetricAggregates, _ context: RuleContext) -> RuleOutcome {
        guard let suspended = aggregates.averageSuspendedMemoryBytes, let peak = aggregates.peakMemoryBytes, peak > 0 else {
            return .notApplicable("the MetricKit payloads do not report both average suspended memory and peak memory")
        }
        let share = suspended / peak
        guard share > context[Self.maxShare], suspended > context[Self.minBytes] else { return .findings([]) }
        return .findings([
            Self.description.finding(
                .warning,
                message: "MetricKit's average suspended memory, \(ByteFormat.string(suspended)), is \(fixed(share * 100, 0)) % of the \(ByteFormat.string(peak)) peak: the app keeps most of its memory while suspended.",
                evidence: [
                    Evidence("average suspended memory", suspended, unit: "B"),
                    Evidence("peak memory", peak, unit: "B"),
                    Evidence("share of peak", share * 100, unit: "%"),
                    Evidence("suspended samples", Double(aggregates.suspendedMemorySamples ?? 0), unit: "samples"),
                ],
                timeRanges: context.aggregateWindow)
        ])
    }
}
