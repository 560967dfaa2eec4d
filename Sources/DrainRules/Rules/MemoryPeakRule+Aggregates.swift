import DrainReport
import DrainTrace

extension MemoryPeakRule {
    /// MetricKit: the payloads' peak memory against the model's limit, judged as a sampled
    /// peak is. Exits for `MemoryResourceLimit` are evidence, and make the finding an error:
    /// the system did terminate the app for its memory. O(exit reasons).
    public func evaluateAggregates(_ aggregates: MetricAggregates, _ context: RuleContext) -> RuleOutcome {
        let limit = context.model.memory.limitBytes.value
        let limitExits = aggregates.exits("MemoryResourceLimit")?.total ?? 0
        guard aggregates.peakMemoryBytes != nil || limitExits > 0 else {
            return .notApplicable("the MetricKit payloads report no peak memory and no memory-limit exit")
        }
        let peak = aggregates.peakMemoryBytes
        let share = limit > 0 ? peak.map { $0 / limit } : nil
        var severity: Severity?
        if limitExits > 0 || (share ?? 0) > context[Self.errorShare] {
            severity = .error
        } else if (share ?? 0) > context[Self.warningShare] {
            severity = .warning
        }
        guard let severity else { return .findings([]) }
        var evidence = [Evidence("limit", limit, unit: "B"), Evidence("memory-limit exits", Double(limitExits), unit: "exits")]
        if let peak, let share {
            evidence.insert(contentsOf: [Evidence("peak", peak, unit: "B"), Evidence("share of limit", share * 100, unit: "%")], at: 0)
        }
        let peakText = peak.map { "MetricKit peak memory \(ByteFormat.string($0)) is \(fixed((share ?? 0) * 100, 1)) % of the \(ByteFormat.string(limit)) limit of \(context.model.name)" }
            ?? "MetricKit reports no peak memory"
        let exitText = limitExits > 0 ? "; the system ended the app \(limitExits) time(s) for exceeding its memory limit" : ""
        return .findings([Self.description.finding(severity, message: peakText + exitText + ".", evidence: evidence, timeRanges: context.aggregateWindow)])
    }
}
