import DrainModel
import DrainReport
import DrainTrace

/// CPU-POLLING: a source that checks for work at a fixed short interval many times in a row.
///
/// `poll` events are grouped by source. Walking one source's polls in time order, a run goes
/// on while each gap to the next poll is positive, at most `max_interval_s`, and within
/// `interval_tolerance` (a fraction) of the mean gap of the run so far. A run of at least
/// `min_count` polls is a warning; it is an error when at least `min_count` of its polls fell
/// in the background. A shorter run of at least `info_count` polls is reported as info: the
/// pattern is polling, but this run did not go on long enough to be judged a habit (a loop
/// that found its work, or a short trace). A run that breaks short restarts at its last poll,
/// so the breaking gap can open a new run; a reported run keeps its last poll. One finding per source, with a
/// time range per run. O(n + p log s) for p polls and s background stretches.
public struct CPUPollingRule: Rule {
    static let maxInterval = RuleParameter("max_interval_s", default: 1, unit: "s", "the longest gap between checks that counts as polling")
    static let minCount = RuleParameter("min_count", default: 10, unit: "polls", "checks in a row that make a warning")
    static let infoCount = RuleParameter("info_count", default: 5, unit: "polls", "checks in a row, fewer than min_count, reported as info (half of min_count)")
    static let intervalTolerance = RuleParameter("interval_tolerance", default: 0.25, unit: "fraction", "how far a gap may stray from the run's mean gap and still be the same fixed interval")

    public static let description = RuleDescription(
        id: "CPU-POLLING",
        title: "Polling at a short fixed interval",
        area: .cpu,
        severity: .warning,
        guidance: """
            Checking for work on a short clock wakes the CPU whether or not anything changed, and \
            keeps it from staying idle. Let the system tell you when work arrives: run loop \
            sources, timers with tolerance for truly periodic work, or dispatch sources.
            """,
        source: """
            PWR "do not rely on polling; use run loops, timers, dispatch sources" (App Programming \
            Guide for iOS, Reduce Your App's Power Consumption)
            """,
        fix: "Wait on the event instead of checking for it: use a dispatch source, notification or blocking read without a timeout.",
        parameters: [maxInterval, minCount, infoCount, intervalTolerance],
        triggeringExamples: [
            Scenario("a socket checked every 100 ms", expect: .warning) {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                for check in 0..<20 { run.poll(1 + Double(check) * 0.1, source: "socket", interval: 0.1) }
                return run.build(end: 5)
            },
            Scenario("polling that goes on in the background", expect: .error) {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.lifecycle(1, .background)
                for check in 0..<21 { run.poll(Double(check) * 0.5, source: "queue", interval: 0.5) }
                return run.build(end: 12)
            },
            Scenario("checks every 200 ms with jitter", expect: .warning) {
                var run = TimelineBuilder()
                let jitter = [0.0, 0.02, -0.01, 0.015, -0.02, 0.01, 0.0, -0.015, 0.02, -0.01, 0.005, 0.0]
                for (check, offset) in jitter.enumerated() {
                    run.poll(Double(check) * 0.2 + offset + 0.05, source: "status", interval: 0.2)
                }
                return run.build(end: 3)
            },
            Scenario("nine checks in a row, then the work arrives", expect: .info) {
                var run = TimelineBuilder()
                for check in 0..<9 { run.poll(Double(check) * 0.1, source: "socket", interval: 0.1) }
                run.cpu(0.85, duration: 0.02, name: "handle message")
                return run.build(end: 2)
            },
        ],
        nonTriggeringExamples: [
            Scenario("checks every 2 s") {
                var run = TimelineBuilder()
                for check in 0..<30 { run.poll(Double(check) * 2, source: "socket", interval: 2) }
                return run.build(end: 60)
            },
            Scenario("four checks in a row") {
                var run = TimelineBuilder()
                for check in 0..<4 { run.poll(Double(check) * 0.1, source: "socket", interval: 0.1) }
                return run.build(end: 2)
            },
            Scenario("checks with no fixed interval") {
                var run = TimelineBuilder()
                var time = 0.0
                for check in 0..<30 {
                    run.poll(time, source: "input", interval: 0)
                    time += check.isMultiple(of: 2) ? 0.1 : 0.5
                }
                return run.build(end: 10)
            },
            Scenario("no polls recorded") {
                var run = TimelineBuilder()
                run.timer(0, name: "refresh", interval: 1)
                return run.build(end: 5)
            },
        ])

    public init() {}

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        let track = context.lifecycleTrack
        let limits = Limits(
            maxGap: context.span(Self.maxInterval),
            minCount: context.count(Self.minCount),
            infoCount: context.count(Self.infoCount),
            tolerance: context[Self.intervalTolerance])
        var sources: [StringID: SourceRuns] = [:]
        var polls = 0
        for row in 0..<timeline.count where timeline.kind[row] == .poll {
            polls += 1
            let poll = Poll(
                time: timeline.time[row], background: track.isBackground(atRow: row),
                energy: context.priced.eventEnergy[row])
            sources[timeline.label[row], default: SourceRuns()].add(poll, limits)
        }
        guard polls > 0 else { return .notApplicable("the run records no poll events") }
        var flagged: [(source: StringID, runs: [Run])] = []
        for (source, var state) in sources {
            state.finish(limits)
            if !state.flagged.isEmpty { flagged.append((source, state.flagged)) }
        }
        flagged.sort { $0.runs[0].first < $1.runs[0].first || $0.runs[0].first == $1.runs[0].first && $0.source < $1.source }
        return .findings(flagged.map { finding(source: timeline.name($0.source, or: "(unnamed source)"), runs: $0.runs, limits) })
    }

    private func finding(source: String, runs: [Run], _ limits: Limits) -> Finding {
        let polls = runs.reduce(0) { $0 + $1.count }
        let gaps = runs.reduce(0) { $0 + $1.count - 1 }
        let gapTime = runs.reduce(Nanoseconds(0)) { $0 + $1.gapSum }
        let interval = Clock.seconds(gapTime) / Double(max(1, gaps))
        let backgroundPolls = runs.reduce(0) { $0 + $1.backgroundCount }
        let energy = runs.reduce(0) { $0 + $1.energy }
        let inBackground = runs.contains { $0.backgroundCount >= limits.minCount }
        let habitual = runs.contains { $0.count >= limits.minCount }
        let evidence = [
            Evidence("source", text: source),
            Evidence("interval", interval, unit: "s"),
            Evidence("polls", Double(polls), unit: "polls"),
            Evidence("runs", Double(runs.count), unit: "runs"),
            Evidence("longest run", Double(runs.map(\.count).max() ?? 0), unit: "polls"),
            Evidence("background polls", Double(backgroundPolls), unit: "polls"),
        ]
        let place = inBackground ? ", in the background" : ""
        let short = habitual ? "" : ": fixed-interval polling, in runs shorter than the \(limits.minCount) checks that make a warning"
        return Self.description.finding(
            inBackground ? .error : habitual ? .warning : .info, subject: source,
            message: "\(source) was checked \(polls) times every \(fixed(interval, 3)) s in \(runs.count) run(s)\(place)\(short).",
            evidence: evidence, energyJ: energy,
            timeRanges: runs.map { TimeRange(from: $0.first, to: $0.last) })
    }

    private struct Limits {
        var maxGap: Nanoseconds
        var minCount: Int
        var infoCount: Int
        var tolerance: Double

        /// The shortest run that is reported at all.
        var reportedCount: Int { min(minCount, infoCount) }
    }

    private struct Poll {
        var time: Nanoseconds
        var background: Bool
        var energy: Double
    }

    /// Consecutive checks of one source at one fixed interval.
    private struct Run {
        var first: Nanoseconds
        var last: Nanoseconds
        var count: Int
        var gapSum: Nanoseconds
        var backgroundCount: Int
        var energy: Double

        init(_ poll: Poll) {
            first = poll.time
            last = poll.time
            count = 1
            gapSum = 0
            backgroundCount = poll.background ? 1 : 0
            energy = poll.energy
        }

        /// Whether `gap` continues the run's fixed interval.
        func continues(gap: Nanoseconds, _ limits: Limits) -> Bool {
            guard gap > 0, gap <= limits.maxGap else { return false }
            guard count > 1 else { return true }
            let mean = Double(gapSum) / Double(count - 1)
            return abs(Double(gap) - mean) <= limits.tolerance * mean
        }

        mutating func append(_ poll: Poll) {
            gapSum += poll.time - last
            last = poll.time
            count += 1
            if poll.background { backgroundCount += 1 }
            energy += poll.energy
        }
    }

    /// The runs of one source: the current one, the poll before it, and those flagged.
    private struct SourceRuns {
        var current: Run?
        var previous: Poll?
        var flagged: [Run] = []

        mutating func add(_ poll: Poll, _ limits: Limits) {
            defer { previous = poll }
            guard var run = current, let previous else {
                current = Run(poll)
                return
            }
            let gap = poll.time - run.last
            if run.continues(gap: gap, limits) {
                run.append(poll)
                current = run
                return
            }
            if run.count >= limits.reportedCount {
                flagged.append(run)
                current = Run(poll)
            } else {
                var restarted = Run(previous)
                if restarted.continues(gap: gap, limits) { restarted.append(poll) } else { restarted = Run(poll) }
                current = restarted
            }
        }

        mutating func finish(_ limits: Limits) {
            if let run = current, run.count >= limits.reportedCount { flagged.append(run) }
            current = nil
        }
    }
}
