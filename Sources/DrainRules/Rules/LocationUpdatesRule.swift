import DrainModel
import DrainReport
import DrainTrace

/// LOC-UPDATES: location updates left running, too precise, or in the background.
///
/// `location` events form sessions as the pricer reads them: a start with nothing running
/// begins a session, a start while running reconfigures it (a new accuracy and filter from
/// then on, same session), any other action ends it, and a session still running at the end
/// lasts to the end. One warning per session that
/// - runs longer than `max_on_s`, or
/// - at some point asks for best accuracy (`accuracy_m` ≤ `best_accuracy_m`; 0 and Core
///   Location's negative "best" values count) with no distance filter (`distance_filter_m`
///   ≤ 0). The guidance allows this for navigation, but no trace field says the app is
///   navigating, so every such session is flagged; or
/// - is still running more than `background_grace_s` after the app entered the background.
/// O(n + k log s) for k sessions and s background stretches.
public struct LocationUpdatesRule: Rule {
    static let maxOn = RuleParameter("max_on_s", default: 600, unit: "s", "location sessions longer than this are a warning (10 minutes)")
    static let bestAccuracyM = RuleParameter("best_accuracy_m", default: 5, unit: "m", "a requested accuracy at or below this (0 and negative values included) is best accuracy")
    static let backgroundGrace = RuleParameter("background_grace_s", default: 5, unit: "s", "time after entering the background within which updates must be stopped (the time an app has to finish its background transition)")

    public static let description = RuleDescription(
        id: "LOC-UPDATES",
        title: "Location updates left on or too precise",
        area: .display,
        severity: .warning,
        guidance: """
            Location updates keep the GPS and radios working; the finer the accuracy and the \
            more often updates come, the more they cost. Ask for the coarsest accuracy that \
            works, set a distance filter, and stop updates as soon as the app has what it \
            needs, especially in the background.
            """,
        source: """
            PWR "disable location updates as soon as you can; set distance filter and accuracy" \
            (App Programming Guide for iOS, Reduce Your App's Power Consumption)
            """,
        fix: "Stop location updates once a fix is good enough, request a coarser accuracy with a distance filter, and use significant-change or visit monitoring in the background.",
        parameters: [maxOn, bestAccuracyM, backgroundGrace],
        triggeringExamples: [
            Scenario("best accuracy without a distance filter", expect: .warning) {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.location(10, .start, accuracyMeters: -1, distanceFilterMeters: -1)
                run.location(70, .stop)
                return run.build(end: 100)
            },
            Scenario("100 m updates running for 15 minutes", expect: .warning) {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.location(0, .start, accuracyMeters: 100, distanceFilterMeters: 50)
                run.location(900, .stop)
                return run.build(end: 1000)
            },
            Scenario("updates continuing in the background", expect: .warning) {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.location(5, .start, accuracyMeters: 100, distanceFilterMeters: 100)
                run.lifecycle(60, .background)
                return run.build(end: 200)
            },
        ],
        nonTriggeringExamples: [
            Scenario("a 10 m fix with a filter, stopped after two minutes") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.location(10, .start, accuracyMeters: 10, distanceFilterMeters: 20)
                run.location(130, .stop)
                run.lifecycle(200, .background)
                return run.build(end: 300)
            },
            Scenario("best accuracy with a distance filter") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.location(10, .start, accuracyMeters: 0, distanceFilterMeters: 10)
                run.location(100, .stop)
                return run.build(end: 120)
            },
            Scenario("no location updates") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                return run.build(end: 100)
            },
        ])

    public init() {}

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        var sessions: [Session] = []
        var open: Session?
        var events = 0
        for row in 0..<timeline.count where timeline.kind[row] == .location {
            events += 1
            if timeline.code[row] == Action.start.rawValue {
                if open == nil { open = Session(start: timeline.time[row]) }
                open?.configurations.append(row)
            } else if var session = open {
                session.end = timeline.time[row]
                session.stopped = true
                sessions.append(session)
                open = nil
            }
        }
        guard events > 0 else { return .notApplicable("the run records no location events") }
        if var session = open {
            session.end = timeline.end
            sessions.append(session)
        }
        let track = context.lifecycleTrack
        let longest = context.span(Self.maxOn), grace = context.span(Self.backgroundGrace)
        let best = context[Self.bestAccuracyM]
        return .findings(sessions.compactMap { session in
            let precise = session.configurations.first { timeline.value[$0] <= best && timeline.value2[$0] <= 0 }
            let late = track.stretches(spanning: session.start, to: session.end, pastGrace: grace)
            let long = session.end - session.start > longest
            guard long || precise != nil || !late.isEmpty else { return nil }
            return finding(session, long: long, precise: precise, inBackground: !late.isEmpty, track: track, context)
        })
    }

    private func finding(
        _ session: Session, long: Bool, precise: Int?, inBackground: Bool, track: LifecycleTrack, _ context: RuleContext
    ) -> Finding {
        let timeline = context.timeline
        let shown = precise ?? session.configurations[0]
        let duration = Clock.seconds(session.end - session.start)
        let background = Clock.seconds(track.backgroundTime(from: session.start, to: session.end))
        var reasons: [String] = []
        if long { reasons.append("ran \(fixed(duration, 1)) s, longer than \(fixed(context[Self.maxOn], 0)) s") }
        if precise != nil { reasons.append("asked for best accuracy with no distance filter") }
        if inBackground { reasons.append("ran \(fixed(background, 1)) s in the background") }
        let evidence = [
            Evidence("duration", duration, unit: "s"),
            Evidence("started", Clock.seconds(session.start), unit: "s"),
            session.stopped
                ? Evidence("stopped", Clock.seconds(session.end), unit: "s")
                : Evidence("stopped", text: "still running when the run ended"),
            Evidence("accuracy", timeline.value[shown], unit: "m"),
            Evidence("distance filter", timeline.value2[shown], unit: "m"),
            Evidence("configurations", Double(session.configurations.count), unit: "starts"),
            Evidence("time in background", background, unit: "s"),
            Evidence("reasons", text: reasons.joined(separator: "; ")),
        ]
        return Self.description.finding(
            .warning,
            message: "Location updates started at \(fixed(Clock.seconds(session.start))) s \(reasons.joined(separator: ", and ")).",
            evidence: evidence, energyJ: session.configurations.reduce(0) { $0 + context.priced.eventEnergy[$1] },
            timeRanges: [TimeRange(from: session.start, to: session.end)])
    }

    private struct Session {
        var start: Nanoseconds
        var end: Nanoseconds = 0
        var stopped = false
        /// The start events of the session (the first, then reconfigurations); the pricer
        /// charges each configuration's energy to its start event.
        var configurations: [Int] = []

        init(start: Nanoseconds) {
            self.start = start
        }
    }
}
