import DrainReport
import DrainTrace

extension NetCellularRule {
    /// MetricKit: the cellular bytes of the payloads (up and down) against
    /// `max_cellular_bytes`, with the Wi-Fi bytes and the cellular share as evidence. No
    /// radio energy is derived: byte totals say nothing about bursts and tails. O(1).
    public func evaluateAggregates(_ aggregates: MetricAggregates, _ context: RuleContext) -> RuleOutcome {
        guard let cellular = aggregates.cellularBytes, let total = aggregates.transferBytes else {
            return .notApplicable("the MetricKit payloads report no cellular transfer")
        }
        let limit = context[Self.maxCellularBytes]
        guard cellular > limit else { return .findings([]) }
        let share = total > 0 ? cellular / total : 0
        return .findings([
            Self.description.finding(
                .warning,
                message: "MetricKit reports \(ByteFormat.string(cellular)) over cellular (\(fixed(share * 100, 0)) % of all transfers), above \(ByteFormat.string(limit)).",
                evidence: [
                    Evidence("cellular bytes", cellular, unit: "B"),
                    Evidence("Wi-Fi bytes", total - cellular, unit: "B"),
                    Evidence("cellular share", share * 100, unit: "%"),
                    Evidence("threshold", limit, unit: "B"),
                ],
                timeRanges: context.aggregateWindow)
        ])
    }
}
