import DrainModel
import DrainReport
import DrainTrace

/// CPU-LAUNCH: the time from process start to the first `active` state.
///
/// A launch starts at the run's first event, or at a `not_running` lifecycle event (a
/// relaunch: the last one before the next `active`), and ends at the next `active` event. A
/// launch into the background (a `background` or `suspended` state before `active`) is not
/// judged: its time to `active` depends on when the user opens the app. Launch longer than
/// `warning_s` is a warning, longer than `error_s` an error. O(n).
public struct CPULaunchRule: Rule {
    static let warningDuration = RuleParameter("warning_s", default: 2, unit: "s", "launches longer than this are a warning")
    static let errorDuration = RuleParameter("error_s", default: 5, unit: "s", "launches longer than this are an error: the system may terminate the app")

    public static let description = RuleDescription(
        id: "CPU-LAUNCH",
        title: "Slow launch",
        area: .cpu,
        severity: .warning,
        guidance: """
            Users wait for the first screen, and the system terminates an app that takes too long \
            to launch. Do as little as possible before the interface appears: load only what the \
            first screen needs, and defer or move the rest off the main thread.
            """,
        source: """
            FG "What to Do at Launch Time" (Strategies for Handling App State Transitions); MAIN \
            "Move Work off the Main Thread" (App Programming Guide for iOS)
            """,
        fix: "Show the first screen before loading anything it does not need, and move the remaining setup off the main thread or after launch.",
        parameters: [warningDuration, errorDuration],
        triggeringExamples: [
            Scenario("3 s from start to active", expect: .warning) {
                var run = TimelineBuilder()
                run.lifecycle(0, .inactive)
                run.cpu(0.1, duration: 2.5, name: "load-database", thread: "main")
                run.lifecycle(3, .active)
                return run.build(end: 10)
            },
            Scenario("a relaunch taking 6 s", expect: .error) {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.lifecycle(20, .notRunning)
                run.cpu(20.5, duration: 5, name: "migrate", thread: "main")
                run.lifecycle(26, .active)
                return run.build(end: 30)
            },
        ],
        nonTriggeringExamples: [
            Scenario("active after 0.8 s") {
                var run = TimelineBuilder()
                run.cpu(0, duration: 0.5, name: "setup", thread: "main")
                run.lifecycle(0.8, .active)
                return run.build(end: 10)
            },
            Scenario("a launch into the background") {
                var run = TimelineBuilder()
                run.lifecycle(0, .background)
                run.lifecycle(60, .active)
                return run.build(end: 70)
            },
            Scenario("no lifecycle events") {
                var run = TimelineBuilder()
                run.cpu(0, duration: 3)
                return run.build(end: 10)
            },
        ])

    public init() {}

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        guard !timeline.isEmpty else { return .notApplicable("the run is empty") }
        var start: Launch.Start? = Launch.Start(row: 0, time: timeline.time[0], relaunch: false)
        var launches: [Launch] = []
        for row in 0..<timeline.count where timeline.kind[row] == .lifecycle {
            switch LifecycleState(rawValue: timeline.code[row]) {
            case .notRunning:
                start = Launch.Start(row: row, time: timeline.time[row], relaunch: true)
            case .background, .suspended:
                start = nil
            case .active:
                if let begun = start { launches.append(Launch(start: begun, endRow: row, end: timeline.time[row])) }
                start = nil
            case .inactive, nil:
                continue
            }
        }
        guard !launches.isEmpty else {
            return .notApplicable("the run has no launch to judge: no foreground launch reaches an active lifecycle event")
        }
        let warning = context.span(Self.warningDuration), error = context.span(Self.errorDuration)
        let main = timeline.mainThreadID
        return .findings(launches.compactMap { launch in
            let duration = launch.end - launch.start.time
            guard duration > warning else { return nil }
            return finding(launch, severity: duration > error ? .error : .warning, main: main, context)
        })
    }

    private func finding(_ launch: Launch, severity: Severity, main: StringID?, _ context: RuleContext) -> Finding {
        let timeline = context.timeline
        var energy = 0.0
        var mainSlices: [Int] = []
        var mainTime = 0.0
        var mainIO = 0
        for row in launch.start.row..<launch.endRow {
            if BackgroundTimeRule.activityKinds.contains(timeline.kind[row]) { energy += context.priced.eventEnergy[row] }
            guard let main, timeline.thread[row] == main else { continue }
            switch timeline.kind[row] {
            case .cpu:
                mainSlices.append(row)
                mainTime += Clock.seconds(max(0, timeline.duration[row]))
            case .net, .disk:
                mainIO += 1
            default:
                continue
            }
        }
        let duration = Clock.seconds(launch.end - launch.start.time)
        var evidence = [
            Evidence("launch duration", duration, unit: "s"),
            Evidence("launch start", Clock.seconds(launch.start.time), unit: "s"),
            Evidence("started by", text: launch.start.relaunch ? "not_running" : "first event of the run"),
            Evidence("first active", Clock.seconds(launch.end), unit: "s"),
            Evidence("threshold", context[severity == .error ? Self.errorDuration : Self.warningDuration], unit: "s"),
            Evidence("main-thread CPU time", mainTime, unit: "s"),
            Evidence("main-thread slices", Double(mainSlices.count), unit: "slices"),
            Evidence("main-thread I/O", Double(mainIO), unit: "events"),
        ]
        let longest = mainSlices.sorted { timeline.duration[$0] != timeline.duration[$1] ? timeline.duration[$0] > timeline.duration[$1] : $0 < $1 }
        evidence += longest.prefix(3).map { row in
            let name = timeline.name(timeline.label[row], or: "(unnamed slice)")
            return Evidence("slice", text: "\(name): \(fixed(Clock.seconds(timeline.duration[row]) * 1000, 1)) ms")
        }
        let kind = launch.start.relaunch ? "Relaunch" : "Launch"
        return Self.description.finding(
            severity,
            message: "\(kind) took \(fixed(duration)) s from \(fixed(Clock.seconds(launch.start.time))) s to the first active state, above \(fixed(context[severity == .error ? Self.errorDuration : Self.warningDuration], 0)) s; the main thread worked \(fixed(mainTime)) s of it.",
            evidence: evidence, energyJ: energy, timeRanges: [TimeRange(from: launch.start.time, to: launch.end)])
    }

    private struct Launch {
        struct Start {
            var row: Int
            var time: Nanoseconds
            /// Started at a `not_running` event rather than at the run's first event.
            var relaunch: Bool
        }

        var start: Start
        var endRow: Int
        var end: Nanoseconds
    }
}
