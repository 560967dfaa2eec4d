import DrainModel
import DrainReport
import DrainTrace

/// CPU-FRAGMENTED: work done in many tiny CPU episodes.
///
/// Every `cpu` event is an episode. Over the half-open windows `[t, t + window_s)` that start
/// at an episode, a window is fragmented when it holds at least `min_episodes` episodes and
/// its median episode is shorter than `max_median_ms`. The median is the middle episode by
/// duration (the upper middle for an even count), so the test is that more than half the
/// episodes are shorter, which two pointers check for every window in O(n). The fragmented
/// window with the most episodes (the earliest on a tie) is reported.
public struct CPUFragmentedRule: Rule {
    static let minEpisodes = RuleParameter("min_episodes", default: 100, unit: "episodes", "CPU episodes within one window that make it busy enough to judge")
    static let window = RuleParameter("window_s", default: 60, unit: "s", "the sliding window episodes are counted in (a minute)")
    static let maxMedian = RuleParameter("max_median_ms", default: 2, unit: "ms", "a window whose median episode is shorter than this is fragmented")

    public static let description = RuleDescription(
        id: "CPU-FRAGMENTED",
        title: "Work done in tiny chunks",
        area: .cpu,
        severity: .info,
        guidance: """
            The CPU pays to wake up and to ramp its clock for every piece of work, so work done \
            in one go costs less than the same work spread over many small chunks. Batch small \
            units of work and run them together instead of one at a time as they arrive.
            """,
        source: """
            PWR "doing work in one go costs less than small chunks over a long time" (App \
            Programming Guide for iOS, Reduce Your App's Power Consumption)
            """,
        fix: "Queue small units of work and process them in batches, on one timer or when enough has accumulated.",
        parameters: [minEpisodes, window, maxMedian],
        triggeringExamples: [
            Scenario("150 slices of half a millisecond in a minute", expect: .info) {
                var run = TimelineBuilder()
                for slice in 0..<150 { run.cpu(Double(slice) * 0.4, duration: 0.0005, name: "handle-message") }
                return run.build(end: 60)
            },
        ],
        nonTriggeringExamples: [
            Scenario("150 slices of 5 ms in a minute") {
                var run = TimelineBuilder()
                for slice in 0..<150 { run.cpu(Double(slice) * 0.4, duration: 0.005, name: "render") }
                return run.build(end: 60)
            },
            Scenario("tiny slices, 60 a minute") {
                var run = TimelineBuilder()
                for slice in 0..<180 { run.cpu(Double(slice), duration: 0.0005, name: "tick") }
                return run.build(end: 180)
            },
            Scenario("no CPU slices") {
                var run = TimelineBuilder()
                run.wakeup(1, reason: "timer")
                return run.build(end: 5)
            },
        ])

    public init() {}

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        let rows = timeline.rows(of: [.cpu])
        guard !rows.isEmpty else { return .notApplicable("the run records no CPU slices") }
        let window = context.span(Self.window)
        let minimum = context.count(Self.minEpisodes)
        let short = Clock.nanoseconds(min(max(0, context[Self.maxMedian]) / 1000, Clock.longestSpanSeconds))
        var best: Range<Int>?
        var end = 0
        var shortInWindow = 0
        for start in rows.indices {
            if end < start {
                end = start
                shortInWindow = 0
            }
            while end < rows.count, timeline.time[Int(rows[end])] - timeline.time[Int(rows[start])] < window {
                if timeline.duration[Int(rows[end])] < short { shortInWindow += 1 }
                end += 1
            }
            let count = end - start
            if count >= max(1, minimum), 2 * shortInWindow > count, count > best?.count ?? 0 { best = start..<end }
            if timeline.duration[Int(rows[start])] < short, end > start { shortInWindow -= 1 }
        }
        guard let best else { return .findings([]) }
        return .findings([finding(rows[best].map(Int.init), allRows: rows, short: short, context)])
    }

    private func finding(_ window: [Int], allRows: [UInt32], short: Nanoseconds, _ context: RuleContext) -> Finding {
        let timeline = context.timeline
        let durations = window.map { timeline.duration[$0] }.sorted()
        let median = durations[durations.count / 2]
        let shortCount = durations.prefix { $0 < short }.count
        let cpuTime = durations.reduce(0.0) { $0 + Clock.seconds(max(0, $1)) }
        let runTime = allRows.reduce(0.0) { $0 + Clock.seconds(max(0, timeline.duration[Int($1)])) }
        let windowSeconds = context[Self.window]
        let evidence = [
            Evidence("episodes in window", Double(window.count), unit: "episodes"),
            Evidence("window", windowSeconds, unit: "s"),
            Evidence("median duration", Clock.seconds(median) * 1000, unit: "ms"),
            Evidence("short episodes", Double(shortCount), unit: "episodes"),
            Evidence("CPU time in window", cpuTime, unit: "s"),
            Evidence("episodes in run", Double(allRows.count), unit: "episodes"),
            Evidence("CPU time in run", runTime, unit: "s"),
        ]
        let first = timeline.time[window[0]]
        let last = window.map { timeline.time[$0] + max(0, timeline.duration[$0]) }.max() ?? first
        return Self.description.finding(
            .info,
            message: "\(window.count) CPU episodes within \(fixed(windowSeconds, 0)) s from \(fixed(Clock.seconds(first))) s, with a median of \(fixed(Clock.seconds(median) * 1000, 3)) ms: the work is spread over many tiny chunks.",
            evidence: evidence, energyJ: window.reduce(0) { $0 + context.priced.eventEnergy[$1] },
            timeRanges: [TimeRange(from: first, to: last)])
    }
}
