import DrainModel
import DrainReport
import DrainTrace

/// LIFE-BACKGROUND-RESOURCES: shared resources held in the background.
///
/// `resource` events of the shared kinds (`camera`, `socket_listener`, `database`,
/// `location`, `sensor`/`sensors`; compared without case) are paired by kind and id: an
/// acquire opens a hold (a second acquire of an open hold is ignored), a release closes it.
/// A release without an acquire was held from the start of the run, or from the resource's
/// previous release when it had one (its acquire was not recorded; holding it across the
/// earlier release is impossible); a hold still open at the end lasts to the end. A hold that is still going on more than `grace_s` after the app
/// entered the background (or that begins in the background after the grace) is a warning,
/// one finding per hold, with a time range per background stretch it outlived. Other kinds
/// are not judged: an audio session, say, may rightly be held for background playback.
/// O(n + h log s + k) for h holds, s stretches and k stretches the holds outlived.
public struct BackgroundResourcesRule: Rule {
    /// The resource kinds the guidance names as shared, lower-cased.
    static let sharedKinds: Set<String> = ["camera", "socket_listener", "database", "location", "sensor", "sensors"]

    static let grace = RuleParameter("grace_s", default: 5, unit: "s", "time after entering the background within which resources must be released")

    public static let description = RuleDescription(
        id: "LIFE-BACKGROUND-RESOURCES",
        title: "Shared resources held in the background",
        area: .lifecycle,
        severity: .warning,
        guidance: """
            Before it is suspended an app must let go of shared resources: the camera, listening \
            sockets, database connections, location and sensor services. Other apps need them, \
            and the system may terminate a suspended app that still holds them.
            """,
        source: """
            BG "release shared resources, close listening sockets" (Preparing your UI to run in \
            the background; Background Execution → Being a Responsible Background App)
            """,
        fix: "Release the camera, close listening sockets and database connections, and stop location and sensor services when the app enters the background; reopen them on return.",
        parameters: [grace],
        triggeringExamples: [
            Scenario("the camera kept 20 s into the background", expect: .warning) {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.resource(1, kind: "camera", .start, id: "back")
                run.lifecycle(10, .background)
                run.resource(30, kind: "camera", .stop, id: "back")
                return run.build(end: 40)
            },
            Scenario("a listening socket never closed", expect: .warning) {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.resource(2, kind: "socket_listener", .start, id: "port 8080")
                run.lifecycle(10, .background)
                run.lifecycle(12, .suspended)
                return run.build(end: 60)
            },
        ],
        nonTriggeringExamples: [
            Scenario("database closed 2 s after entering the background") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.resource(1, kind: "database", .start, id: "main.sqlite")
                run.lifecycle(10, .background)
                run.resource(12, kind: "database", .stop, id: "main.sqlite")
                return run.build(end: 60)
            },
            Scenario("an audio session kept for playback") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.resource(1, kind: "audio_session", .start, id: "playback")
                run.lifecycle(10, .background)
                return run.build(end: 60)
            },
            Scenario("no background") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.resource(1, kind: "camera", .start, id: "front")
                return run.build(end: 60)
            },
        ])

    public init() {}

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        let track = context.lifecycleTrack
        guard !track.stretches.isEmpty else { return .notApplicable("the run never enters the background") }
        var shared: [StringID: Bool] = [:]
        var open: [HoldKey: Nanoseconds] = [:]
        var lastRelease: [HoldKey: Nanoseconds] = [:]
        var holds: [Hold] = []
        var events = 0
        for row in 0..<timeline.count where timeline.kind[row] == .resource {
            let kind = timeline.label[row]
            let isShared = shared[kind] ?? Self.sharedKinds.contains(timeline.name(kind, or: "").lowercased())
            shared[kind] = isShared
            guard isShared else { continue }
            events += 1
            let key = HoldKey(kind: kind, id: timeline.label2[row])
            let time = timeline.time[row]
            switch Action(rawValue: timeline.code[row]) {
            case .start:
                if open[key] == nil { open[key] = time }
            case .stop:
                let acquired = open.removeValue(forKey: key)
                holds.append(Hold(key: key, acquired: acquired, after: acquired == nil ? lastRelease[key] : nil, released: time))
                lastRelease[key] = time
            case .expire, nil:
                continue
            }
        }
        guard events > 0 else {
            return .notApplicable("the run records no shared resources (camera, socket_listener, database, location, sensors)")
        }
        for (key, acquired) in open { holds.append(Hold(key: key, acquired: acquired, after: nil, released: nil)) }
        let grace = context.span(Self.grace)
        // Merged as they are made: a resource held past every backgrounding repeats one finding.
        var merger = FindingMerger<Nanoseconds>()
        for hold in holds {
            let start = hold.start, end = hold.released ?? timeline.end
            let late = track.stretches(spanning: start, to: end, pastGrace: grace)
            guard !late.isEmpty else { continue }
            merger.add(finding(hold, late: late, track: track, context), at: start)
        }
        return .findings(merger.findings())
    }

    private func finding(_ hold: Hold, late: [Int], track: LifecycleTrack, _ context: RuleContext) -> Finding {
        let timeline = context.timeline
        let kind = timeline.name(hold.key.kind, or: "(unnamed resource)")
        let id = timeline.name(hold.key.id, or: "(no id)")
        let start = hold.start, end = hold.released ?? timeline.end
        let entered = track.stretches[late[0]]
        let holdTime = min(end, entered.end) - max(start, entered.start)
        var evidence = [Evidence("resource kind", text: kind), Evidence("resource id", text: id)]
        if let acquired = hold.acquired {
            evidence.append(Evidence("acquired", Clock.seconds(acquired), unit: "s"))
        } else if let after = hold.after {
            evidence.append(Evidence("acquired", text: "not recorded (released without an acquire, after its release at \(fixed(Clock.seconds(after))) s)"))
        } else {
            evidence.append(Evidence("acquired", text: "before the run (released without an acquire)"))
        }
        if let released = hold.released {
            evidence.append(Evidence("released", Clock.seconds(released), unit: "s"))
        } else {
            evidence.append(Evidence("released", text: "still held when the run ended"))
        }
        evidence += [
            Evidence("entered background", Clock.seconds(entered.start), unit: "s"),
            Evidence("hold time", Clock.seconds(holdTime), unit: "s"),
            Evidence("time held in background", Clock.seconds(track.backgroundTime(from: start, to: end)), unit: "s"),
            Evidence("grace", context[Self.grace], unit: "s"),
        ]
        let until = hold.released == nil ? "to the end of the run" : "for \(fixed(Clock.seconds(holdTime), 1)) s"
        return Self.description.finding(
            .warning, subject: "\(kind) \(id)",
            message: "The \(kind) resource \(id) was held after the app entered the background at \(fixed(Clock.seconds(entered.start))) s, \(until), past the \(fixed(context[Self.grace], 0)) s grace.",
            evidence: evidence,
            timeRanges: late.map { index in
                let stretch = track.stretches[index]
                return TimeRange(from: max(start, stretch.start), to: min(end, stretch.end))
            })
    }

    private struct HoldKey: Hashable {
        var kind: StringID
        var id: StringID
    }

    private struct Hold {
        var key: HoldKey
        /// `nil` when released without an acquire in the run.
        var acquired: Nanoseconds?
        /// For a release without an acquire, the resource's previous release, if any: the
        /// unrecorded acquire came after it.
        var after: Nanoseconds?
        /// `nil` when still held at the end of the run.
        var released: Nanoseconds?

        /// The earliest the resource can have been held from.
        var start: Nanoseconds { acquired ?? after ?? 0 }
    }
}
