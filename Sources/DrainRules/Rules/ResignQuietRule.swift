import DrainModel
import DrainReport
import DrainTrace

/// LIFE-RESIGN-QUIET: work that goes on after the app resigns active.
///
/// A resign is an `inactive` lifecycle event whose previous state was `active` (an `inactive`
/// state on the way to the first `active`, at launch, is not one). Until the next lifecycle
/// state other than `inactive` (or the end of the run), every timer fire, `cpu` slice
/// started and `gpu` slice committed is work the app should have paused; at least
/// `min_events` of them is a warning, one finding per resign. Work that started before the
/// resign is not counted, nor work after the app became active again or moved to the
/// background. O(n).
public struct ResignQuietRule: Rule {
    /// Event kinds that are work the app should stop when it resigns active.
    static let workKinds: EventKindSet = [.timer, .cpu, .gpu]

    static let minEvents = RuleParameter("min_events", default: 1, unit: "events", "timer fires, CPU slices and GPU slices after resigning active that make a finding")

    public static let description = RuleDescription(
        id: "LIFE-RESIGN-QUIET",
        title: "Work continues after resigning active",
        area: .lifecycle,
        severity: .warning,
        guidance: """
            When the app resigns active (an alert, a call, the app switcher) it should go quiet: \
            pause timers, suspend dispatch queues and operation queues, start no new tasks and \
            submit no new Metal or OpenGL work until it becomes active again.
            """,
        source: """
            BG "quiet your app on deactivation: pause timers, suspend queues, no new tasks, no new \
            Metal/OpenGL work" (Preparing your UI to run in the background)
            """,
        fix: "In the resign-active handler invalidate or pause timers, suspend queues and stop rendering; resume them when the app becomes active.",
        parameters: [minEvents],
        triggeringExamples: [
            Scenario("a timer and rendering keep going while inactive", expect: .warning) {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.lifecycle(10, .inactive)
                for tick in 0..<5 {
                    run.timer(10.5 + Double(tick), name: "refresh", interval: 1, tolerance: 0.1)
                    run.gpu(10.6 + Double(tick), duration: 0.004, name: "frame")
                }
                run.lifecycle(15, .active)
                return run.build(end: 20)
            },
        ],
        nonTriggeringExamples: [
            Scenario("quiet while inactive, work resumes when active") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.timer(5, name: "refresh", interval: 5, tolerance: 0.5)
                run.lifecycle(8, .inactive)
                run.lifecycle(12, .active)
                run.timer(12.5, name: "refresh", interval: 5, tolerance: 0.5)
                return run.build(end: 20)
            },
            Scenario("work while inactive during launch") {
                var run = TimelineBuilder()
                run.lifecycle(0, .inactive)
                run.cpu(0.1, duration: 0.5, name: "setup", thread: "main")
                run.lifecycle(1, .active)
                return run.build(end: 5)
            },
            Scenario("no lifecycle events") {
                var run = TimelineBuilder()
                run.timer(1, name: "refresh", interval: 1, tolerance: 0.1)
                return run.build(end: 5)
            },
        ])

    public init() {}

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        let minimum = max(1, context.count(Self.minEvents))
        var previous: LifecycleState?
        var open: Resign?
        var resigns = 0
        // Judged as each stretch closes and merged as made: a run of days resigns thousands of times.
        var merger = FindingMerger<Int>()
        func close(_ resign: Resign) {
            resigns += 1
            if resign.count >= minimum { merger.add(finding(resign, context), at: resigns) }
        }
        for row in 0..<timeline.count {
            let kind = timeline.kind[row]
            if kind == .lifecycle {
                guard let state = LifecycleState(rawValue: timeline.code[row]) else { continue }
                if state == .inactive {
                    if open == nil, previous == .active { open = Resign(start: timeline.time[row]) }
                } else if var resign = open {
                    resign.end = timeline.time[row]
                    close(resign)
                    open = nil
                }
                previous = state
            } else if Self.workKinds.contains(kind), open != nil {
                open?.add(row, context)
            }
        }
        if var resign = open {
            resign.end = timeline.end
            close(resign)
        }
        guard resigns > 0 else { return .notApplicable("the app never resigns active (no inactive state after active)") }
        return .findings(merger.findings())
    }

    private func finding(_ resign: Resign, _ context: RuleContext) -> Finding {
        let timeline = context.timeline
        let kinds = resign.kinds.nonZero
            .map { "\($0.kind.traceName) \($0.count)" }.joined(separator: ", ")
        var evidence = [
            Evidence("resigned active", Clock.seconds(resign.start), unit: "s"),
            Evidence("inactive for", Clock.seconds(resign.end - resign.start), unit: "s"),
            Evidence("events", Double(resign.count), unit: "events"),
            Evidence("event kinds", text: kinds),
            Evidence("timer fires", Double(resign.kinds[.timer]), unit: "fires"),
            Evidence("CPU time", resign.cpuTime, unit: "s"),
            Evidence("GPU time", resign.gpuTime, unit: "s"),
        ]
        evidence += resign.names.map { (name: timeline.name($0.key, or: "(unnamed)"), count: $0.value) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }
            .prefix(3)
            .map { Evidence("work", text: "\($0.name): \($0.count)") }
        return Self.description.finding(
            .warning,
            message: "After resigning active at \(fixed(Clock.seconds(resign.start))) s the app kept working for \(fixed(Clock.seconds(resign.last - resign.start), 1)) s while inactive: \(kinds).",
            evidence: evidence, energyJ: resign.energy, timeRanges: [TimeRange(from: resign.first, to: resign.last)])
    }

    /// One inactive stretch after `active`, and the work done in it.
    private struct Resign {
        var start: Nanoseconds
        var end: Nanoseconds = 0
        var count = 0
        var kinds = EventKindCounts()
        var names: [StringID: Int] = [:]
        var cpuTime = 0.0
        var gpuTime = 0.0
        var energy = 0.0
        var first: Nanoseconds = .max
        var last: Nanoseconds = .min

        init(start: Nanoseconds) {
            self.start = start
        }

        mutating func add(_ row: Int, _ context: RuleContext) {
            let timeline = context.timeline
            let kind = timeline.kind[row]
            count += 1
            kinds[kind] += 1
            names[timeline.label[row], default: 0] += 1
            let duration = max(0, timeline.duration[row])
            if kind == .cpu { cpuTime += Clock.seconds(duration) }
            if kind == .gpu { gpuTime += Clock.seconds(duration) }
            energy += context.priced.eventEnergy[row]
            first = min(first, timeline.time[row])
            last = max(last, timeline.time[row] + (kind.durationIsSpan ? duration : 0))
        }
    }
}
