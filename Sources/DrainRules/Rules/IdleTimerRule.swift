import DrainModel
import DrainReport
import DrainTrace

/// IDLE-TIMER: the screen kept awake for long.
///
/// `idle_timer` events with `disabled` true open a span (a second one while open is
/// ignored); one with `disabled` false closes it; a span still open at the end lasts to the
/// end. The idle timer only acts while the app is in the foreground, so a span is measured
/// by its foreground time; above `max_disabled_s` it is an info finding, one per span. O(n +
/// k log s) for k spans and s background stretches.
public struct IdleTimerRule: Rule {
    static let maxDisabled = RuleParameter("max_disabled_s", default: 600, unit: "s", "foreground time with the idle timer disabled above which a finding is raised (10 minutes)")

    public static let description = RuleDescription(
        id: "IDLE-TIMER",
        title: "Idle timer disabled for long",
        area: .display,
        severity: .info,
        guidance: """
            With the idle timer disabled the screen never dims or locks on its own, and the \
            display is among the largest consumers of power. Disable it only while the user \
            watches without touching (video, navigation, a game), and enable it again as soon \
            as that ends.
            """,
        source: """
            PWR "leave idleTimerDisabled false when you can" (App Programming Guide for iOS, \
            Reduce Your App's Power Consumption)
            """,
        fix: "Set idleTimerDisabled back to false as soon as the user no longer needs the screen kept on.",
        parameters: [maxDisabled],
        triggeringExamples: [
            Scenario("the idle timer disabled for 15 minutes", expect: .info) {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.idleTimer(10, disabled: true)
                run.idleTimer(910, disabled: false)
                return run.build(end: 1000)
            },
            Scenario("disabled until the run ends", expect: .info) {
                var run = TimelineBuilder()
                run.idleTimer(0, disabled: true)
                return run.build(end: 700)
            },
        ],
        nonTriggeringExamples: [
            Scenario("disabled for a 5-minute video") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.idleTimer(30, disabled: true)
                run.idleTimer(330, disabled: false)
                return run.build(end: 400)
            },
            Scenario("disabled 15 minutes, 10 of them in the background") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.idleTimer(0, disabled: true)
                run.lifecycle(100, .background)
                run.lifecycle(700, .active)
                run.idleTimer(900, disabled: false)
                return run.build(end: 1000)
            },
            Scenario("no idle-timer events") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                return run.build(end: 1000)
            },
        ])

    public init() {}

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        var spans: [(start: Nanoseconds, end: Nanoseconds, enabled: Bool)] = []
        var disabledSince: Nanoseconds?
        var events = 0
        for row in 0..<timeline.count where timeline.kind[row] == .idleTimer {
            events += 1
            if timeline.code[row] != 0 {
                if disabledSince == nil { disabledSince = timeline.time[row] }
            } else if let start = disabledSince {
                spans.append((start, timeline.time[row], true))
                disabledSince = nil
            }
        }
        guard events > 0 else { return .notApplicable("the run records no idle-timer events") }
        if let start = disabledSince { spans.append((start, timeline.end, false)) }
        let track = context.lifecycleTrack
        let limit = context.span(Self.maxDisabled)
        return .findings(spans.compactMap { span in
            let foreground = span.end - span.start - track.backgroundTime(from: span.start, to: span.end)
            guard foreground > limit else { return nil }
            let evidence = [
                Evidence("duration", Clock.seconds(foreground), unit: "s in the foreground"),
                Evidence("span", Clock.seconds(span.end - span.start), unit: "s"),
                Evidence("disabled", Clock.seconds(span.start), unit: "s"),
                span.enabled
                    ? Evidence("enabled", Clock.seconds(span.end), unit: "s")
                    : Evidence("enabled", text: "still disabled when the run ended"),
                Evidence("threshold", context[Self.maxDisabled], unit: "s"),
            ]
            return Self.description.finding(
                .info,
                message: "The idle timer was disabled from \(fixed(Clock.seconds(span.start))) s for \(fixed(Clock.seconds(foreground), 0)) s of foreground time, above \(fixed(context[Self.maxDisabled], 0)) s.",
                evidence: evidence, timeRanges: [TimeRange(from: span.start, to: span.end)])
        })
    }
}
