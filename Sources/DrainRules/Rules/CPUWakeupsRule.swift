import DrainModel
import DrainReport
import DrainTrace

/// CPU-WAKEUPS: the average wakeup rate of the foreground and of the background time of a
/// run, and the densest stretch against the system's wakeup limit.
///
/// A wakeup is every event the pricer charges one CPU wakeup for: a `wakeup` event, a timer
/// fire (`timer`) and a check for work (`poll`). Each state's rate is its wakeups divided by
/// the time spent in it; time before the first lifecycle event, and runs without lifecycle
/// events, count as foreground (the more lenient limit). O(n + w log s) for w wakeups and s
/// background stretches.
public struct CPUWakeupsRule: Rule {
    static let foregroundPerSecond = RuleParameter("foreground_per_s", default: 5, unit: "wakeups/s", "average foreground rate above which a warning is raised")
    static let backgroundPerSecond = RuleParameter("background_per_s", default: 1, unit: "wakeups/s", "average background rate above which a warning is raised")
    static let minState = RuleParameter("min_state_s", default: 1, unit: "s", "a state observed for less time than this is not rated: a rate over a shorter span is noise")
    static let limitPerSecond = RuleParameter("limit_per_s", default: 150, unit: "wakeups/s", "rate, sustained over limit_window_s, at which the system raises a wakeups resource exception (error)")
    static let limitWindow = RuleParameter("limit_window_s", default: 300, unit: "s", "the span over which limit_per_s is measured")

    public static let description = RuleDescription(
        id: "CPU-WAKEUPS",
        title: "Frequent CPU wakeups",
        area: .cpu,
        severity: .warning,
        guidance: """
            Each wakeup takes the CPU out of its low-power idle state, and the cost of the exit and \
            re-entry is paid however little work the wakeup does. Do work when there is work to do \
            rather than checking on a clock, so the CPU can stay idle between real events.
            """,
        source: """
            PWR "avoid polling; schedule work as needed" (App Programming Guide for iOS, Reduce Your \
            App's Power Consumption); error limit: 150 wakeups/s over 300 s, the WAKEUPS resource \
            exception seen in Apple resource reports
            """,
        fix: "Replace periodic checks with event-driven callbacks (dispatch sources, notifications) and coalesce the timers that remain.",
        parameters: [foregroundPerSecond, backgroundPerSecond, minState, limitPerSecond, limitWindow],
        triggeringExamples: [
            Scenario("a 10 Hz timer in the foreground", expect: .warning) {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                for fire in 0..<100 { run.timer(Double(fire) * 0.1, name: "refresh", interval: 0.1) }
                return run.build(end: 10)
            },
            Scenario("wakeups every half second in the background", expect: .warning) {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.lifecycle(10, .background)
                for wake in 0..<40 { run.wakeup(10 + Double(wake) * 0.5, reason: "timer", source: "sync") }
                return run.build(end: 30)
            },
            Scenario("a wakeup storm over the system limit", expect: .error) {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                for wake in 0..<46_000 { run.wakeup(Double(wake) * 0.002, reason: "interrupt", source: "spin") }
                return run.build(end: 100)
            },
        ],
        nonTriggeringExamples: [
            Scenario("a 1 Hz timer in the foreground") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                for fire in 0..<60 { run.timer(Double(fire), name: "clock", interval: 1) }
                return run.build(end: 60)
            },
            Scenario("one wakeup every two seconds in the background") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.lifecycle(5, .background)
                for wake in 0..<20 { run.wakeup(5 + Double(wake) * 2, reason: "timer", source: "sync") }
                return run.build(end: 45)
            },
            Scenario("no wakeups recorded") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.cpu(1, duration: 0.5, name: "render")
                return run.build(end: 10)
            },
        ])

    public init() {}

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        let wakeups = timeline.rows(of: Self.wakeupKinds)
        guard !wakeups.isEmpty else {
            return .notApplicable("the run records no wakeups (no wakeup, timer or poll events)")
        }
        let track = context.lifecycleTrack
        // Rates are over the time the run was observed: time gaps count in neither state.
        let gaps = timeline.gaps
        let backgroundTime =
            track.backgroundTime(from: 0, to: timeline.end)
            - track.stretches.reduce(0) { $0 + gaps.overlap(from: $1.start, to: min($1.end, timeline.end)) }
        var foreground = Tally(name: "foreground", time: timeline.end - gaps.total - backgroundTime, sourceCount: timeline.strings.count)
        var background = Tally(name: "background", time: backgroundTime, sourceCount: timeline.strings.count)
        for wakeup in wakeups {
            let row = Int(wakeup)
            if track.isBackground(atRow: row) {
                background.add(row, context)
            } else {
                foreground.add(row, context)
            }
        }

        let minimumTime = context.span(Self.minState)
        func isRated(_ tally: Tally) -> Bool { tally.time > 0 && tally.time >= minimumTime }
        let rated = [foreground, background].filter(isRated)
        var findings: [Finding] = []
        let limits = [(foreground, context[Self.foregroundPerSecond]), (background, context[Self.backgroundPerSecond])]
        for (tally, limit) in limits where isRated(tally) && tally.rate > limit {
            findings.append(stateFinding(tally, limit: limit, rated: rated, track: track, timeline: timeline))
        }
        if let limitFinding = limitFinding(wakeups, context) { findings.append(limitFinding) }
        if findings.isEmpty, rated.isEmpty {
            return .notApplicable("neither foreground nor background lasted \(fixed(context[Self.minState], 1)) s, too short to rate")
        }
        return .findings(findings)
    }

    /// What the pricer charges a CPU wakeup for.
    static let wakeupKinds: EventKindSet = [.wakeup, .timer, .poll]

    /// What a wakeup is blamed on: a wakeup's source (else its reason), a timer's name, a poll's source.
    static func source(ofRow row: Int, _ timeline: Timeline) -> StringID {
        if timeline.kind[row] == .wakeup, timeline.label2[row] != 0 { return timeline.label2[row] }
        return timeline.label[row]
    }

    private func stateFinding(
        _ tally: Tally, limit: Double, rated: [Tally], track: LifecycleTrack, timeline: Timeline
    ) -> Finding {
        var evidence = [
            Evidence("state", text: tally.name),
            Evidence("wakeups", Double(tally.count), unit: "wakeups"),
            Evidence("time in state", Clock.seconds(tally.time), unit: "s"),
        ]
        for state in rated { evidence.append(Evidence("\(state.name) rate", state.rate, unit: "wakeups/s")) }
        evidence.append(Evidence("threshold", limit, unit: "wakeups/s"))
        evidence += Self.topSources(tally.sources, timeline)
        let ranges = tally.name == "background"
            ? track.stretches.map { TimeRange(from: $0.start, to: $0.end) }
            : Self.foregroundRanges(track, end: timeline.end)
        return Self.description.finding(
            .warning, subject: tally.name,
            message: "\(tally.count) wakeups in \(fixed(Clock.seconds(tally.time), 1)) s of \(tally.name): \(fixed(tally.rate)) per second, above \(fixed(limit)) per second.",
            evidence: evidence, energyJ: tally.energy, timeRanges: ranges)
    }

    /// The error finding when the densest `limit_window_s` holds more than `limit_per_s`
    /// wakeups per second on average.
    private func limitFinding(_ wakeups: [UInt32], _ context: RuleContext) -> Finding? {
        let timeline = context.timeline
        let windowSeconds = context[Self.limitWindow]
        let limitRate = context[Self.limitPerSecond]
        func time(_ index: Int) -> Nanoseconds { timeline.time[Int(wakeups[index])] }
        guard let window = DensestWindow.find(count: wakeups.count, length: context.span(Self.limitWindow), time: time),
              window.count > 0, Double(window.count) > limitRate * windowSeconds
        else { return nil }
        var tally = Tally(name: "window", time: context.span(Self.limitWindow), sourceCount: timeline.strings.count)
        for index in window.range { tally.add(Int(wakeups[index]), context) }
        let first = time(window.first), last = time(window.first + window.count - 1)
        let evidence = [
            Evidence("wakeups in window", Double(window.count), unit: "wakeups"),
            Evidence("window", windowSeconds, unit: "s"),
            Evidence("window rate", tally.rate, unit: "wakeups/s"),
            Evidence("limit", limitRate, unit: "wakeups/s"),
        ] + Self.topSources(tally.sources, timeline)
        return Self.description.finding(
            .error, subject: "system limit", title: "Wakeups over the system limit",
            message: "\(window.count) wakeups within \(fixed(windowSeconds, 0)) s (\(fixed(tally.rate)) per second); the system raises a wakeups resource exception above \(fixed(limitRate, 0)) per second sustained over \(fixed(windowSeconds, 0)) s.",
            evidence: evidence, energyJ: tally.energy, timeRanges: [TimeRange(from: first, to: last)])
    }

    /// The three sources with the most wakeups (ties by name), as evidence; `sources[id]` is
    /// the count of the source with string id `id`.
    static func topSources(_ sources: [Int], _ timeline: Timeline) -> [Evidence] {
        let named = sources.indices.filter { sources[$0] > 0 }
            .map { (name: timeline.name(StringID($0), or: "(unnamed)"), count: sources[$0]) }
        return named.sorted { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }
            .prefix(3)
            .map { Evidence("top source", text: "\($0.name): \($0.count) wakeups") }
    }

    /// The complement of the background stretches over `[0, end]`.
    static func foregroundRanges(_ track: LifecycleTrack, end: Nanoseconds) -> [TimeRange] {
        var ranges: [TimeRange] = []
        var cursor: Nanoseconds = 0
        for stretch in track.stretches {
            if stretch.start > cursor { ranges.append(TimeRange(from: cursor, to: stretch.start)) }
            cursor = stretch.end
        }
        if end > cursor { ranges.append(TimeRange(from: cursor, to: end)) }
        return ranges
    }

    /// Wakeups counted in one state (or window).
    private struct Tally {
        var name: String
        var time: Nanoseconds
        var count = 0
        var energy = 0.0
        /// Wakeups per source, indexed by string id: a dictionary cost a hash per wakeup.
        var sources: [Int]

        init(name: String, time: Nanoseconds, sourceCount: Int) {
            self.name = name
            self.time = time
            sources = [Int](repeating: 0, count: sourceCount)
        }

        var rate: Double { time > 0 ? Double(count) / Clock.seconds(time) : 0 }

        mutating func add(_ row: Int, _ context: RuleContext) {
            count += 1
            energy += context.priced.eventEnergy[row]
            sources[Int(CPUWakeupsRule.source(ofRow: row, context.timeline))] += 1
        }
    }
}
