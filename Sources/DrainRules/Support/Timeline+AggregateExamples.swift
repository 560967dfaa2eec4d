import DrainTrace

extension Timeline {
    /// A run of MetricKit aggregates only, for rule examples: one metric payload whose window
    /// starts at 2024-01-01 00:00 UTC and lasts `seconds`, filled in by `fill`.
    static func metricKit(seconds: Double = 86_400, _ fill: (inout MetricAggregates) -> Void) -> Timeline {
        var aggregates = MetricAggregates()
        aggregates.metricPayloads = 1
        let start: Int64 = 1_704_067_200 * Clock.nanosecondsPerSecond
        aggregates.windowStart = start
        aggregates.windowEnd = start + Clock.nanoseconds(seconds)
        aggregates.metricSeconds = seconds
        fill(&aggregates)
        var timeline = Timeline()
        timeline.aggregates = aggregates
        timeline.wallClockStart = start
        timeline.end = Clock.nanoseconds(seconds)
        return timeline
    }
}
