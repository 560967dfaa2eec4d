import DrainModel
import DrainReport
import DrainTrace

/// CPU-TIMER-COALESCE: repeating timers that wake the CPU separately, and repeating timers
/// without tolerance.
///
/// A timer is a name and an interval: every `timer` event with `repeats` set and an interval
/// in `(0, max_period_s]` is a fire of the timer with that name and interval. Two checks:
/// - alignment: with at least two such timers, the fires as they happened need one wakeup per
///   group of fires within `same_wakeup_s`; aligned, each fire may move later by up to
///   `max_shift_share` of its interval (or its tolerance, when larger), and the fewest
///   wakeups that serve every fire is counted (`WakeupCoalescing`). Wakeups removed > 0 is
///   info; a share of the wakeups now above `warning_share` is a warning.
/// - tolerance: timers whose smallest recorded tolerance is zero (info).
/// O(n) in rows, O(t) memory for t distinct timers.
public struct CPUTimerCoalesceRule: Rule {
    static let maxPeriod = RuleParameter("max_period_s", default: 60, unit: "s", "repeating timers with an interval up to this are judged")
    static let warningShare = RuleParameter("warning_share", default: 0.3, unit: "fraction", "share of the timers' wakeups that alignment would remove above which the finding is a warning")
    static let sameWakeup = RuleParameter("same_wakeup_s", default: 0.001, unit: "s", "fires this close to the first fire of a group already share its wakeup")
    static let maxShiftShare = RuleParameter("max_shift_share", default: 0.5, unit: "fraction of the interval", "how much later alignment may move a fire: half an interval is the most any timer must move to meet another of the same interval")

    public static let description = RuleDescription(
        id: "CPU-TIMER-COALESCE",
        title: "Timers wake the CPU separately",
        area: .cpu,
        severity: .info,
        guidance: """
            Every timer fire wakes the CPU, and each wakeup pays the cost of leaving the idle \
            state. Timers that fire together share one wakeup, so periodic work should be lined \
            up on common moments, and each timer should allow a tolerance so that the system can \
            move its fire onto a wakeup that happens anyway.
            """,
        source: """
            PWR "coalesce work" (App Programming Guide for iOS, Reduce Your App's Power \
            Consumption)
            """,
        fix: "Fire periodic work from one timer or on aligned schedules, and give every repeating timer a tolerance (at least 10 % of its interval).",
        parameters: [maxPeriod, warningShare, sameWakeup, maxShiftShare],
        triggeringExamples: [
            Scenario("two 1 s timers half a second apart", expect: .warning) {
                var run = TimelineBuilder()
                for second in 0..<30 {
                    run.timer(Double(second), name: "clock", interval: 1, tolerance: 0.1)
                    run.timer(Double(second) + 0.5, name: "poll-status", interval: 1, tolerance: 0.1)
                }
                return run.build(end: 30)
            },
            Scenario("a 10 s refresh off the beat of a 1 s clock", expect: .info) {
                var run = TimelineBuilder()
                for second in 0..<60 { run.timer(Double(second), name: "clock", interval: 1, tolerance: 0.1) }
                for tick in 0..<6 { run.timer(Double(tick) * 10 + 0.3, name: "refresh", interval: 10, tolerance: 1) }
                return run.build(end: 60)
            },
            Scenario("one repeating timer with zero tolerance", expect: .info) {
                var run = TimelineBuilder()
                for second in 0..<20 { run.timer(Double(second) * 5, name: "heartbeat", interval: 5) }
                return run.build(end: 100)
            },
        ],
        nonTriggeringExamples: [
            Scenario("two timers that fire together, with tolerance") {
                var run = TimelineBuilder()
                for second in 0..<30 {
                    run.timer(Double(second), name: "clock", interval: 1, tolerance: 0.1)
                    if second.isMultiple(of: 5) { run.timer(Double(second), name: "save", interval: 5, tolerance: 0.5) }
                }
                return run.build(end: 30)
            },
            Scenario("a 5-minute timer with no tolerance") {
                var run = TimelineBuilder()
                for tick in 0..<4 { run.timer(Double(tick) * 300, name: "sync", interval: 300) }
                return run.build(end: 1200)
            },
            Scenario("no timers") {
                var run = TimelineBuilder()
                run.cpu(0, duration: 1, name: "work")
                return run.build(end: 5)
            },
        ])

    public init() {}

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        let maximumPeriod = context.span(Self.maxPeriod)
        let sameWakeup = context.span(Self.sameWakeup)
        let shiftShare = context[Self.maxShiftShare]
        var index: [TimerKey: Int] = [:]
        var timers: [(key: TimerKey, tally: TimerTally)] = []
        // Rows come in time order, so both sets of windows are counted as they come.
        var now = WakeupCoalescing()
        var aligned = WakeupCoalescing()
        var timerEvents = 0
        for row in 0..<timeline.count where timeline.kind[row] == .timer {
            timerEvents += 1
            let period = timeline.duration[row]
            guard timeline.code[row] == 1, period > 0, period <= maximumPeriod else { continue }
            let key = TimerKey(name: timeline.label[row], period: period)
            let position = index[key] ?? timers.count
            if position == timers.count {
                index[key] = position
                timers.append((key, TimerTally()))
            }
            timers[position].tally.add(row, context)
            let time = timeline.time[row]
            // The tolerance comes from the trace and the share from the configuration:
            // clamp both as parameter spans are clamped, so no value can overflow the clock.
            let tolerance = Self.clampedSpan(timeline.value[row])
            let shift = max(sameWakeup, tolerance, Self.clampedSpan(Clock.seconds(period) * shiftShare))
            now.add(start: time, end: time.plus(sameWakeup))
            aligned.add(start: time, end: time.plus(shift))
        }
        guard timerEvents > 0 else { return .notApplicable("the run records no timer fires") }
        var findings: [Finding] = []
        if timers.count >= 2 {
            if aligned.wakeups < now.wakeups {
                findings.append(alignmentFinding(timers, now: now.wakeups, aligned: aligned.wakeups, context))
            }
        }
        let rigid = timers.filter { $0.tally.tolerance == 0 }
        if !rigid.isEmpty { findings.append(toleranceFinding(rigid, context)) }
        return .findings(findings)
    }

    private func alignmentFinding(
        _ timers: [(key: TimerKey, tally: TimerTally)], now: Int, aligned: Int, _ context: RuleContext
    ) -> Finding {
        let removed = now - aligned
        let share = Double(removed) / Double(now)
        let limit = context[Self.warningShare]
        let fires = timers.reduce(0) { $0 + $1.tally.fires }
        var evidence = [
            Evidence("timers", Double(timers.count), unit: "timers"),
            Evidence("fires", Double(fires), unit: "fires"),
            Evidence("wakeups now", Double(now), unit: "wakeups"),
            Evidence("wakeups aligned", Double(aligned), unit: "wakeups"),
            Evidence("wakeups removed", Double(removed), unit: "wakeups"),
            Evidence("removed share", share * 100, unit: "%"),
            Evidence("warning share", limit * 100, unit: "%"),
            Evidence("saving", Double(removed) * context.model.cpu.wakeupJ.value, unit: "J"),
        ]
        evidence += Self.timerTexts(timers, context.timeline)
        return Self.description.finding(
            share > limit ? .warning : .info, subject: "alignment", title: "Timers fire at unaligned times",
            message: "\(timers.count) repeating timers fired \(fires) times in \(now) separate wakeups; aligned, \(aligned) wakeups would serve them (\(removed) fewer, \(fixed(share * 100, 1)) %).",
            evidence: evidence, energyJ: timers.reduce(0) { $0 + $1.tally.energy },
            timeRanges: [Self.range(of: timers)])
    }

    private func toleranceFinding(_ timers: [(key: TimerKey, tally: TimerTally)], _ context: RuleContext) -> Finding {
        let fires = timers.reduce(0) { $0 + $1.tally.fires }
        let evidence = [
            Evidence("timers without tolerance", Double(timers.count), unit: "timers"),
            Evidence("fires", Double(fires), unit: "fires"),
        ] + Self.timerTexts(timers, context.timeline)
        let names = timers.prefix(3).map { context.timeline.name($0.key.name, or: "(unnamed timer)") }.joined(separator: ", ")
        return Self.description.finding(
            .info, subject: "tolerance", title: "Repeating timers without tolerance",
            message: "\(timers.count) repeating timer(s) (\(names)) fired \(fires) times with zero tolerance, so the system cannot move their fires onto other wakeups.",
            evidence: evidence, energyJ: timers.reduce(0) { $0 + $1.tally.energy },
            timeRanges: [Self.range(of: timers)])
    }

    /// Seconds as a span, clamped to `[0, Clock.longestSpanSeconds]` (NaN reads as 0).
    private static func clampedSpan(_ seconds: Double) -> Nanoseconds {
        guard seconds > 0 else { return 0 }
        return Clock.nanoseconds(min(seconds, Clock.longestSpanSeconds))
    }

    /// Up to five timers, most fires first: `name: every P s, tolerance T s, N fires`.
    private static func timerTexts(_ timers: [(key: TimerKey, tally: TimerTally)], _ timeline: Timeline) -> [Evidence] {
        timers.sorted { $0.tally.fires != $1.tally.fires ? $0.tally.fires > $1.tally.fires : $0.tally.first < $1.tally.first }
            .prefix(5)
            .map { key, tally in
                let name = timeline.name(key.name, or: "(unnamed timer)")
                return Evidence(
                    "timer",
                    text: "\(name): every \(fixed(Clock.seconds(key.period), 3)) s, tolerance \(fixed(tally.tolerance, 3)) s, \(tally.fires) fires")
            }
    }

    private static func range(of timers: [(key: TimerKey, tally: TimerTally)]) -> TimeRange {
        TimeRange(from: timers.map(\.tally.first).min() ?? 0, to: timers.map(\.tally.last).max() ?? 0)
    }

    /// A timer: its name and interval (a timer rescheduled with another interval is another timer).
    private struct TimerKey: Hashable {
        var name: StringID
        var period: Nanoseconds
    }

    private struct TimerTally {
        var fires = 0
        var energy = 0.0
        /// The smallest tolerance recorded on the timer's fires, seconds.
        var tolerance = Double.infinity
        var first: Nanoseconds = .max
        var last: Nanoseconds = .min

        mutating func add(_ row: Int, _ context: RuleContext) {
            fires += 1
            energy += context.priced.eventEnergy[row]
            let recorded = max(0, context.timeline.value[row])
            tolerance = min(tolerance, recorded)
            first = min(first, context.timeline.time[row])
            last = max(last, context.timeline.time[row])
        }
    }
}
