import DrainModel
import DrainReport
import DrainTrace

/// LIFE-BACKGROUND-TIME: work in the background must be short and covered by a task.
///
/// Three checks, each an error:
/// - unprotected work: activity (`cpu`, `wakeup`, `timer`, `poll`, `net`, `disk`, `gpu`,
///   `frame` events) in a background stretch that ends more than `grace_s` after the stretch
///   began, while no background task is open; one finding per stretch;
/// - a long task: a background task open for more than `max_task_s` of background time (its
///   span from begin to end, expiry or the end of the run, intersected with the background
///   stretches; the whole span when the run has no lifecycle events at all);
/// - an expired task: a task that the system expired instead of the app ending it.
/// A task is one finding, expired or long. O(n + t log s) for t tasks and s stretches.
public struct BackgroundTimeRule: Rule {
    static let grace = RuleParameter("grace_s", default: 5, unit: "s", "time after entering the background during which work needs no task")
    static let maxTask = RuleParameter("max_task_s", default: 30, unit: "s", "background time a background task may run")

    public static let description = RuleDescription(
        id: "LIFE-BACKGROUND-TIME",
        title: "Background work outlives its time",
        area: .lifecycle,
        severity: .error,
        guidance: """
            After moving to the background an app has a few seconds to save state and stop. Work \
            that must go on belongs in a background task, which has to be short and ended by the \
            app; a task the system has to expire, or work with no task at all, gets the app killed.
            """,
        source: """
            BG "finish quickly; end background tasks" (Preparing your UI to run in the background; \
            Background Execution → Executing Finite-Length Tasks)
            """,
        fix: "Wrap background work in a background task, end the task as soon as the work is done, and stop work from the expiration handler.",
        parameters: [grace, maxTask],
        triggeringExamples: [
            Scenario("an upload 10 s after entering the background with no task", expect: .error) {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.lifecycle(2, .background)
                run.net(12, .tx, bytes: 200_000, host: "api.example.com")
                run.cpu(12, duration: 0.3, name: "encode")
                return run.build(end: 20)
            },
            Scenario("a background task running 45 s", expect: .error) {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.lifecycle(1, .background)
                run.backgroundTask(1, .start, id: "sync")
                for second in 0..<45 { run.cpu(1 + Double(second), duration: 0.1, name: "sync") }
                run.backgroundTask(46, .stop, id: "sync")
                return run.build(end: 50)
            },
            Scenario("a background task that expires", expect: .error) {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.lifecycle(1, .background)
                run.backgroundTask(1.5, .start, id: "upload")
                run.backgroundTask(25, .expire, id: "upload")
                return run.build(end: 30)
            },
        ],
        nonTriggeringExamples: [
            Scenario("work in a task that ends after 20 s") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.lifecycle(1, .background)
                run.backgroundTask(1, .start, id: "save")
                run.disk(10, .write, bytes: 50_000, path: "/data/state.plist")
                run.backgroundTask(21, .stop, id: "save")
                run.lifecycle(22, .suspended)
                return run.build(end: 40)
            },
            Scenario("state saved within the grace period") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.lifecycle(3, .background)
                run.disk(4, .write, bytes: 10_000, path: "/data/state.plist")
                run.cpu(7, duration: 0.5, name: "save")
                run.lifecycle(8.5, .suspended)
                return run.build(end: 30)
            },
            Scenario("an app that stays in the foreground") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.cpu(5, duration: 1)
                return run.build(end: 10)
            },
        ])

    /// Event kinds that count as the app doing work.
    static let activityKinds: EventKindSet = [.cpu, .wakeup, .timer, .poll, .net, .disk, .gpu, .frame]

    public init() {}

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        let track = context.lifecycleTrack
        let grace = context.span(Self.grace)
        let maximum = context.span(Self.maxTask)
        // Findings are merged as they are made: a run of days repeats the same few findings thousands of times
        // (one per task or background stretch).
        var merger = FindingMerger<Nanoseconds>()
        func offer(_ task: BackgroundTask) {
            let span = task.begin.map { task.end - $0 }
            let background = task.begin.map { track.isEmpty ? task.end - $0 : track.backgroundTime(from: $0, to: task.end) }
            guard task.ending == .expired || (background ?? 0) > maximum else { return }
            merger.add(taskFinding(task, span: span, background: background, context), at: task.begin ?? task.end)
        }
        // Rows come in time order, so the stretches' unprotected work does too: one stretch at a time.
        var unprotected: (stretch: Int, activity: Activity)?
        func closeUnprotected() {
            guard let (stretch, activity) = unprotected else { return }
            merger.add(unprotectedFinding(activity, since: track.stretches[stretch].start, context), at: activity.first)
        }
        var open: [StringID: Nanoseconds] = [:]
        var taskEvents = 0
        for row in 0..<timeline.count {
            let kind = timeline.kind[row]
            let time = timeline.time[row]
            if kind == .backgroundTask {
                taskEvents += 1
                let id = timeline.label2[row]
                switch Action(rawValue: timeline.code[row]) {
                case .start:
                    if open[id] == nil { open[id] = time }
                case .stop:
                    if let begin = open.removeValue(forKey: id) { offer(BackgroundTask(id: id, begin: begin, end: time, ending: .ended)) }
                case .expire:
                    offer(BackgroundTask(id: id, begin: open.removeValue(forKey: id), end: time, ending: .expired))
                case nil:
                    continue
                }
            } else if Self.activityKinds.contains(kind), open.isEmpty, let stretch = track.stretch(atRow: row) {
                let end = time + max(0, timeline.duration[row])
                guard end > track.stretches[stretch].start + grace else { continue }
                if unprotected?.stretch != stretch {
                    closeUnprotected()
                    unprotected = (stretch, Activity(first: time))
                }
                unprotected!.activity.add(kind, end: end, energy: context.priced.eventEnergy[row])
            }
        }
        guard !track.stretches.isEmpty || taskEvents > 0 else {
            return .notApplicable("the run never enters the background and has no background tasks")
        }
        closeUnprotected()
        for (id, begin) in open { offer(BackgroundTask(id: id, begin: begin, end: timeline.end, ending: .openAtEnd)) }
        return .findings(merger.findings())
    }

    private func unprotectedFinding(_ activity: Activity, since start: Nanoseconds, _ context: RuleContext) -> Finding {
        let kinds = activity.kinds.nonZero
            .map { "\($0.kind.traceName) \($0.count)" }.joined(separator: ", ")
        let until = Clock.seconds(activity.last - start)
        let evidence = [
            Evidence("entered background", Clock.seconds(start), unit: "s"),
            Evidence("work until", until, unit: "s after background"),
            Evidence("events", Double(activity.count), unit: "events"),
            Evidence("event kinds", text: kinds),
            Evidence("grace", context[Self.grace], unit: "s"),
        ]
        return Self.description.finding(
            .error, subject: "work without a task", title: "Background work without a background task",
            message: "Work went on until \(fixed(until, 1)) s after entering the background at \(fixed(Clock.seconds(start))) s, past the \(fixed(context[Self.grace], 0)) s grace, with no background task open (\(activity.count) events: \(kinds)).",
            evidence: evidence, energyJ: activity.energy, timeRanges: [TimeRange(from: activity.first, to: activity.last)])
    }

    private func taskFinding(_ task: BackgroundTask, span: Nanoseconds?, background: Nanoseconds?, _ context: RuleContext) -> Finding {
        let name = context.timeline.name(task.id, or: "(unnamed task)")
        var evidence = [Evidence("task", text: name)]
        if let begin = task.begin { evidence.append(Evidence("began", Clock.seconds(begin), unit: "s")) }
        evidence.append(Evidence(task.ending.evidenceName, Clock.seconds(task.end), unit: "s"))
        if let span { evidence.append(Evidence("duration", Clock.seconds(span), unit: "s")) }
        if let background { evidence.append(Evidence("background time", Clock.seconds(background), unit: "s")) }
        evidence.append(Evidence("task limit", context[Self.maxTask], unit: "s"))
        let message: String
        let title: String
        switch task.ending {
        case .expired:
            title = "Background task expired"
            let lasted = span.map { " after \(fixed(Clock.seconds($0), 1)) s" } ?? ""
            message = "Background task \(name) expired at \(fixed(Clock.seconds(task.end))) s\(lasted) instead of being ended by the app."
        case .ended, .openAtEnd:
            title = "Background task too long"
            let state = task.ending == .openAtEnd ? " and was still open when the run ended" : ""
            message = "Background task \(name) ran \(fixed(Clock.seconds(background ?? 0), 1)) s in the background, over the \(fixed(context[Self.maxTask], 0)) s limit\(state)."
        }
        return Self.description.finding(
            .error, subject: name, title: title, message: message, evidence: evidence,
            timeRanges: [TimeRange(from: task.begin ?? task.end, to: task.end)])
    }

    private struct BackgroundTask {
        enum Ending {
            case ended, expired, openAtEnd

            var evidenceName: String {
                switch self {
                case .ended: "ended"
                case .expired: "expired"
                case .openAtEnd: "run ended"
                }
            }
        }

        var id: StringID
        /// `nil` for a task that expired without a recorded begin.
        var begin: Nanoseconds?
        var end: Nanoseconds
        var ending: Ending
    }

    /// Unprotected work in one background stretch.
    private struct Activity {
        var first: Nanoseconds
        var last: Nanoseconds = .min
        var count = 0
        var energy = 0.0
        var kinds = EventKindCounts()

        init(first: Nanoseconds) {
            self.first = first
        }

        mutating func add(_ kind: EventKind, end: Nanoseconds, energy: Double) {
            count += 1
            last = max(last, end)
            self.energy += energy
            kinds[kind] += 1
        }
    }
}
