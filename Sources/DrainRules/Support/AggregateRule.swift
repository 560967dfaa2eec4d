import DrainReport
import DrainTrace

/// A rule that can also judge MetricKit aggregates (totals over a window), not only a
/// timeline of events. The engine finds every other rule not applicable on a run that is
/// aggregates only (`Timeline.isAggregatesOnly`), with `RuleContext.needsTimelineReason`.
///
/// A conforming rule writes the two judgements; `evaluate` combines them.
public protocol AggregateRule: Rule {
    /// The verdict on the run's events (possibly none: the verdict then says why).
    func evaluateEvents(_ context: RuleContext) -> RuleOutcome
    /// The verdict on the run's MetricKit totals.
    func evaluateAggregates(_ aggregates: MetricAggregates, _ context: RuleContext) -> RuleOutcome
}

extension AggregateRule {
    /// Both verdicts in one (`RuleOutcome.combining`): the aggregates are judged only when
    /// the run has some.
    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        .combining(
            events: evaluateEvents(context), aggregates: context.timeline.aggregates.map { evaluateAggregates($0, context) },
            hasEvents: !context.timeline.isEmpty)
    }
}

extension RuleContext {
    /// Why a rule that needs events does not apply to MetricKit payloads.
    public static let needsTimelineReason = "needs a timeline of events; MetricKit payloads are aggregates"
}

extension RuleOutcome {
    /// One verdict from the verdict on the events and the verdict on the aggregates (nil
    /// when the run has none): findings of both are kept; when neither has findings, the
    /// events' reason wins if the run has events, the aggregates' otherwise.
    static func combining(events: RuleOutcome, aggregates: RuleOutcome?, hasEvents: Bool) -> RuleOutcome {
        guard let aggregates else { return events }
        switch (events, aggregates) {
        case let (.findings(lhs), .findings(rhs)): return .findings(lhs + rhs)
        case (.findings, .notApplicable): return events
        case (.notApplicable, .findings): return aggregates
        case (.notApplicable, .notApplicable): return hasEvents ? events : aggregates
        }
    }
}

extension RuleContext {
    /// The span MetricKit totals cover, on the timeline's clock: the payload window placed by
    /// its wall-clock start when both are known, clipped to the run, else the whole run (also
    /// when the window lies outside a traced run). A finding from aggregates can say no more
    /// precisely when it happened.
    var aggregateWindow: [TimeRange] {
        let timeline = self.timeline
        if let aggregates = timeline.aggregates, let start = aggregates.windowStart, let end = aggregates.windowEnd,
            let origin = timeline.wallClockStart, end >= start
        {
            let from = max(0, start - origin), to = min(timeline.end, end - origin)
            if from <= to { return [TimeRange(from: from, to: to)] }
        }
        return [TimeRange(from: 0, to: timeline.end)]
    }
}
