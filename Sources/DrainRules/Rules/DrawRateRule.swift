import DrainModel
import DrainReport
import DrainTrace

/// DRAW-RATE: frames drawn without need.
///
/// Two checks over the `frame` events, each its own warning:
/// - unchanged frames: more than `max_unchanged_share` of the run's frames drawn while the
///   content had not changed (`changed` false);
/// - frame rate: the busiest half-open window of `rate_window_s` holds more than
///   `target_fps` × `rate_window_s` + 1 frames. The trace has no field for the app's declared
///   frame rate, so the target is a parameter; the one extra frame allows for a frame that
///   jitter pulls inside the window's edge, so a steady stream at the target never trips it.
/// O(n).
public struct DrawRateRule: Rule {
    static let maxUnchangedShare = RuleParameter("max_unchanged_share", default: 0.5, unit: "fraction", "share of frames drawn with unchanged content above which a warning is raised")
    static let targetFps = RuleParameter("target_fps", default: 60, unit: "frames/s", "the frame rate the app declares it needs (no trace field states it)")
    static let rateWindow = RuleParameter("rate_window_s", default: 1, unit: "s", "the sliding window the frame rate is measured over")

    public static let description = RuleDescription(
        id: "DRAW-RATE",
        title: "Frames drawn without need",
        area: .display,
        severity: .warning,
        guidance: """
            Every frame costs GPU and display work. Draw only when the content changes, and no \
            faster than the rate the content needs: redrawing an unchanged screen, or animating \
            above the target rate, spends energy on frames nobody sees differ.
            """,
        source: """
            PWR "do not draw to the screen faster than needed" (App Programming Guide for iOS, \
            Reduce Your App's Power Consumption)
            """,
        fix: "Redraw only when the content changes, and set the display link's preferred frame rate to what the content needs.",
        parameters: [maxUnchangedShare, targetFps, rateWindow],
        triggeringExamples: [
            Scenario("a static screen redrawn at 60 fps", expect: .warning) {
                var run = TimelineBuilder()
                for frame in 0..<300 { run.frame(Double(frame) / 60, changed: frame.isMultiple(of: 30)) }
                return run.build(end: 5)
            },
            Scenario("animation at 120 fps against a 60 fps target", expect: .warning) {
                var run = TimelineBuilder()
                for frame in 0..<240 { run.frame(Double(frame) / 120, changed: true) }
                return run.build(end: 2)
            },
        ],
        nonTriggeringExamples: [
            Scenario("an animation at 60 fps, every frame new") {
                var run = TimelineBuilder()
                for frame in 0..<300 { run.frame(Double(frame) / 60, changed: true) }
                return run.build(end: 5)
            },
            Scenario("no frames") {
                var run = TimelineBuilder()
                run.cpu(0, duration: 0.1)
                return run.build(end: 5)
            },
        ])

    public init() {}

    /// Keeps the frames' rows (4 bytes each) and the unchanged frames' count, energy and first
    /// and last times. O(events).
    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        let rows = timeline.rows(of: [.frame])
        var unchanged = 0
        var unchangedEnergy = 0.0
        var unchangedSpan: (first: Nanoseconds, last: Nanoseconds)?
        for frame in rows {
            let row = Int(frame)
            guard timeline.code[row] == 0 else { continue }
            unchanged += 1
            unchangedEnergy += context.priced.eventEnergy[row]
            unchangedSpan = (unchangedSpan?.first ?? timeline.time[row], timeline.time[row])
        }
        guard !rows.isEmpty else { return .notApplicable("the run records no frames") }
        let share = Double(unchanged) / Double(rows.count)
        let windowSeconds = context[Self.rateWindow]
        let target = context[Self.targetFps]
        var findings: [Finding] = []
        func time(_ index: Int) -> Nanoseconds { timeline.time[Int(rows[index])] }
        let window = DensestWindow.find(count: rows.count, length: context.span(Self.rateWindow), time: time)
        let peakFPS = windowSeconds > 0 ? Double(window?.count ?? 0) / windowSeconds : 0
        let common = [
            Evidence("frames", Double(rows.count), unit: "frames"),
            Evidence("unchanged frames", Double(unchanged), unit: "frames"),
            Evidence("unchanged share", share * 100, unit: "%"),
            Evidence("peak fps", peakFPS, unit: "frames/s"),
            Evidence("target fps", target, unit: "frames/s"),
        ]
        if share > context[Self.maxUnchangedShare], let unchangedSpan {
            findings.append(Self.description.finding(
                .warning, subject: "unchanged frames", title: "Unchanged frames redrawn",
                message: "\(unchanged) of \(rows.count) frames (\(fixed(share * 100, 1)) %) were drawn while the content had not changed.",
                evidence: common + [Evidence("max unchanged share", context[Self.maxUnchangedShare] * 100, unit: "%")],
                energyJ: unchangedEnergy, timeRanges: [TimeRange(from: unchangedSpan.first, to: unchangedSpan.last)]))
        }
        if let window, windowSeconds > 0, Double(window.count) > target * windowSeconds + 1 {
            findings.append(Self.description.finding(
                .warning, subject: "frame rate", title: "Frame rate above target",
                message: "\(window.count) frames within \(fixed(windowSeconds)) s (\(fixed(peakFPS, 1)) fps) from \(fixed(Clock.seconds(time(window.first)))) s, above the \(fixed(target, 0)) fps target.",
                evidence: common + [Evidence("frames in window", Double(window.count), unit: "frames"), Evidence("window", windowSeconds, unit: "s")],
                energyJ: window.range.reduce(0) { $0 + context.priced.eventEnergy[Int(rows[$1])] },
                timeRanges: [TimeRange(from: time(window.first), to: time(window.first + window.count - 1))]))
        }
        return .findings(findings)
    }
}
