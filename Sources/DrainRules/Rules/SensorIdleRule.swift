import DrainModel
import DrainReport
import DrainTrace

/// SENSOR-IDLE: motion sensors left running.
///
/// `sensor` events are paired per kind as the pricer pairs them: a start opens a session (a
/// second start of an open kind is ignored), a stop closes it, a stop with nothing open is
/// ignored, and a session still open at the end lasts to the end. A session longer than
/// `max_on_s`, or still running more than `background_grace_s` after the app entered the
/// background, is a warning, one finding per session. O(n + k log s) for k sessions and s
/// background stretches.
public struct SensorIdleRule: Rule {
    static let maxOn = RuleParameter("max_on_s", default: 300, unit: "s", "sensor sessions longer than this are a warning (5 minutes)")
    static let backgroundGrace = RuleParameter("background_grace_s", default: 5, unit: "s", "time after entering the background within which sensors must be stopped (the time an app has to finish its background transition)")

    public static let description = RuleDescription(
        id: "SENSOR-IDLE",
        title: "Motion sensors left on",
        area: .display,
        severity: .warning,
        guidance: """
            The accelerometer, gyroscope and motion services draw power for as long as updates \
            are on, whether or not the app uses them. Start updates when a feature needs them, \
            stop them as soon as it does not, and always when the app leaves the foreground.
            """,
        source: """
            PWR "disable accelerometer events when not needed" (App Programming Guide for iOS, \
            Reduce Your App's Power Consumption)
            """,
        fix: "Stop sensor updates as soon as the feature using them is done and when the app enters the background, and use the lowest update rate that works.",
        parameters: [maxOn, backgroundGrace],
        triggeringExamples: [
            Scenario("the accelerometer on for 10 minutes", expect: .warning) {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.sensor(5, kind: "accelerometer", .start, rateHz: 50)
                run.sensor(605, kind: "accelerometer", .stop)
                return run.build(end: 700)
            },
            Scenario("the gyroscope still on in the background", expect: .warning) {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.sensor(1, kind: "gyro", .start, rateHz: 100)
                run.lifecycle(30, .background)
                run.sensor(60, kind: "gyro", .stop)
                return run.build(end: 90)
            },
        ],
        nonTriggeringExamples: [
            Scenario("motion updates for one minute, stopped") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.sensor(10, kind: "motion", .start, rateHz: 60)
                run.sensor(70, kind: "motion", .stop)
                run.lifecycle(100, .background)
                return run.build(end: 200)
            },
            Scenario("stopped a second after entering the background") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.sensor(10, kind: "accelerometer", .start, rateHz: 30)
                run.lifecycle(40, .background)
                run.sensor(41, kind: "accelerometer", .stop)
                return run.build(end: 100)
            },
            Scenario("no sensors") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                return run.build(end: 100)
            },
        ])

    public init() {}

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        var open: [StringID: Int] = [:]
        var sessions: [Session] = []
        var events = 0
        for row in 0..<timeline.count where timeline.kind[row] == .sensor {
            events += 1
            let kind = timeline.label[row]
            if timeline.code[row] == Action.start.rawValue {
                if open[kind] == nil { open[kind] = row }
            } else if let start = open.removeValue(forKey: kind) {
                sessions.append(Session(startRow: start, end: timeline.time[row], stopped: true))
            }
        }
        guard events > 0 else { return .notApplicable("the run records no sensor events") }
        for start in open.values { sessions.append(Session(startRow: start, end: timeline.end, stopped: false)) }
        sessions.sort { $0.startRow < $1.startRow }
        let track = context.lifecycleTrack
        let longest = context.span(Self.maxOn), grace = context.span(Self.backgroundGrace)
        return .findings(sessions.compactMap { session in
            let start = timeline.time[session.startRow]
            let late = track.stretches(spanning: start, to: session.end, pastGrace: grace)
            let long = session.end - start > longest
            guard long || !late.isEmpty else { return nil }
            return finding(session, long: long, late: late, track: track, context)
        })
    }

    private func finding(_ session: Session, long: Bool, late: [Int], track: LifecycleTrack, _ context: RuleContext) -> Finding {
        let timeline = context.timeline
        let kind = timeline.name(timeline.label[session.startRow], or: "(unnamed sensor)")
        let start = timeline.time[session.startRow]
        let duration = Clock.seconds(session.end - start)
        let background = Clock.seconds(track.backgroundTime(from: start, to: session.end))
        let rate = timeline.value[session.startRow]
        var evidence = [Evidence("sensor", text: kind)]
        if rate > 0 { evidence.append(Evidence("rate", rate, unit: "Hz")) }
        evidence += [
            Evidence("started", Clock.seconds(start), unit: "s"),
            session.stopped
                ? Evidence("stopped", Clock.seconds(session.end), unit: "s")
                : Evidence("stopped", text: "still on when the run ended"),
            Evidence("duration", duration, unit: "s"),
            Evidence("time in background", background, unit: "s"),
            Evidence("max on", context[Self.maxOn], unit: "s"),
        ]
        var reasons: [String] = []
        if long { reasons.append("on for \(fixed(duration, 1)) s, longer than \(fixed(context[Self.maxOn], 0)) s") }
        if !late.isEmpty { reasons.append("on for \(fixed(background, 1)) s in the background") }
        return Self.description.finding(
            .warning, subject: kind,
            message: "The \(kind) sensor was \(reasons.joined(separator: " and ")) (started at \(fixed(Clock.seconds(start))) s).",
            evidence: evidence, energyJ: context.priced.eventEnergy[session.startRow],
            timeRanges: [TimeRange(from: start, to: session.end)])
    }

    private struct Session {
        /// The row of the start event, which the pricer charges the session's energy to.
        var startRow: Int
        var end: Nanoseconds
        var stopped: Bool
    }
}
