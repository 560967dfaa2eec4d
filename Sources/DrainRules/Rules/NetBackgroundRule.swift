import DrainModel
import DrainReport
import DrainTrace

/// NET-BACKGROUND: network transfers while the app is in the background or suspended.
///
/// A transfer is a `net` event on any link but loopback, from a trace or a capture; it is in
/// the background when its span (a coalesced capture span, or the instant of a trace event)
/// overlaps a background stretch more than `grace_s` after the stretch began — the time the
/// system gives an app to finish what it was doing on leaving the foreground. One warning per
/// stretch, with the bytes each way, the transfers, the radio energy charged to them, the
/// busiest host and the states the app was in. The lifecycle comes from a trace, the traffic
/// from the same trace or from a capture lined up with it by wall clock. O(n + t log s) for t
/// transfers and s stretches.
public struct NetBackgroundRule: Rule {
    static let grace = RuleParameter("grace_s", default: 5, unit: "s", "time after entering the background within which transfers still finishing are not flagged")

    public static let description = RuleDescription(
        id: "NET-BACKGROUND",
        title: "Network transfers in the background",
        area: .network,
        severity: .warning,
        guidance: """
            An app in the background should do as little as possible. Transfers started there \
            keep the radio powered for their duration and its tail, at a time the user is not \
            waiting for anything; work that must happen belongs in a background URL session, \
            which the system schedules when the radio is up anyway.
            """,
        source: """
            BG "do minimal work in the background" (Background Execution → Being a Responsible \
            Background App; Energy Efficiency Guide for iOS Apps → Defer Networking)
            """,
        fix: "Finish transfers before the app leaves the foreground, or hand them to a background URLSession so the system can batch them.",
        parameters: [grace],
        triggeringExamples: [
            Scenario("a sync upload 20 s after entering the background", expect: .warning) {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.net(2, .tx, bytes: 4_000, host: "api.example.com", link: .cellular)
                run.lifecycle(10, .background)
                run.net(30, .tx, bytes: 50_000, host: "sync.example.com", link: .cellular)
                run.net(30.2, .rx, bytes: 800, host: "sync.example.com", link: .cellular)
                return run.build(end: 60)
            },
            Scenario("a poll while suspended, over Wi-Fi", expect: .warning) {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.lifecycle(5, .background)
                run.lifecycle(6, .suspended)
                run.net(40, .rx, bytes: 1_200, host: "push.example.com", link: .wifi)
                return run.build(end: 60)
            },
            Scenario("a captured download that runs on 40 s into the background", expect: .warning) {
                var capture = CaptureBuilder()
                let cdn = capture.tcp(to: "cdn.example.com", link: .cellular)
                capture.lifecycle(0, .active)
                capture.open(cdn, at: 1)
                capture.packet(cdn, at: 2, .rx, bytes: 30_000_000, payload: 29_000_000, segments: 20_000, span: 48)
                capture.lifecycle(10, .background)
                return capture.build(end: 60)
            },
        ],
        nonTriggeringExamples: [
            Scenario("a request that finishes within the grace") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.net(9, .tx, bytes: 2_000, host: "api.example.com", link: .cellular)
                run.lifecycle(10, .background)
                run.net(12, .rx, bytes: 30_000, host: "api.example.com", link: .cellular)
                return run.build(end: 60)
            },
            Scenario("traffic only in the foreground") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.net(3, .tx, bytes: 2_000, host: "api.example.com", link: .wifi)
                run.lifecycle(10, .background)
                run.lifecycle(30, .active)
                run.net(31, .rx, bytes: 9_000, host: "api.example.com", link: .wifi)
                return run.build(end: 60)
            },
            Scenario("loopback traffic in the background") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.lifecycle(10, .background)
                run.net(30, .tx, bytes: 500, host: "localhost", link: .loopback)
                return run.build(end: 60)
            },
            Scenario("traffic without lifecycle events") {
                var run = TimelineBuilder()
                run.net(30, .tx, bytes: 500, host: "api.example.com", link: .cellular)
                return run.build(end: 60)
            },
        ])

    public init() {}

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        let track = context.lifecycleTrack
        guard !track.isEmpty else {
            return .notApplicable("the run has no lifecycle events: this rule needs a trace with the app's states on the same timeline as its traffic")
        }
        guard !track.stretches.isEmpty else { return .notApplicable("the run never enters the background") }
        let grace = context.span(Self.grace)
        var transfers = 0
        var late: [Int: Transfers] = [:]
        for row in 0..<timeline.count where timeline.kind[row] == .net {
            guard LinkKind(rawValue: timeline.code2[row]) != .loopback else { continue }
            transfers += 1
            let start = timeline.time[row], end = start + max(0, timeline.duration[row])
            // An instant at t is the nanosecond before it, so that it overlaps a stretch
            // exactly when it is more than the grace after the stretch began.
            let overlapStart = end > start ? start : start - 1
            guard let stretch = track.firstStretch(spanning: overlapStart, to: end, pastGrace: grace) else { continue }
            late[stretch, default: Transfers()].add(row: row, start: start, end: end, context)
        }
        guard transfers > 0 else { return .notApplicable(RuleContext.noTrafficReason) }
        return .findings(late.keys.sorted().map { finding(late[$0]!, in: track.stretches[$0], context) })
    }

    private func finding(_ transfers: Transfers, in stretch: LifecycleTrack.Stretch, _ context: RuleContext) -> Finding {
        let timeline = context.timeline
        let states = states(during: stretch, from: max(stretch.start, transfers.first), to: transfers.last, timeline)
        let host = transfers.busiestHost.map { timeline.name($0, or: "(no host)") } ?? "(no host)"
        let total = Double(transfers.bytesUp + transfers.bytesDown)
        let evidence = [
            Evidence("entered background", Clock.seconds(stretch.start), unit: "s"),
            Evidence("transfers", Double(transfers.count)),
            Evidence("bytes sent", Double(transfers.bytesUp), unit: "B"),
            Evidence("bytes received", Double(transfers.bytesDown), unit: "B"),
            Evidence("first transfer", Clock.seconds(transfers.first), unit: "s"),
            Evidence("last transfer end", Clock.seconds(transfers.last), unit: "s"),
            Evidence("busiest host", text: host),
            Evidence("states", text: states.joined(separator: ", ")),
            Evidence("radio energy", transfers.energy, unit: "J"),
            Evidence("grace", context[Self.grace], unit: "s"),
        ]
        return Self.description.finding(
            .warning,
            message: "\(transfers.count) transfer(s) of \(ByteFormat.string(total)) (most to \(host)) while the app was \(states.joined(separator: " and ")), from \(fixed(Clock.seconds(transfers.first))) s, after it entered the background at \(fixed(Clock.seconds(stretch.start))) s.",
            evidence: evidence, energyJ: transfers.energy,
            timeRanges: [TimeRange(from: max(stretch.start, transfers.first), to: min(stretch.end, transfers.last))])
    }

    /// The distinct background states (`background`, `suspended`) the app was in between
    /// two instants of a stretch, in the order they occurred.
    private func states(
        during stretch: LifecycleTrack.Stretch, from start: Nanoseconds, to end: Nanoseconds, _ timeline: Timeline
    ) -> [String] {
        var names: [String] = []
        var current: String?
        for row in stretch.startRow..<stretch.endRow where timeline.kind[row] == .lifecycle {
            guard let state = LifecycleState(rawValue: timeline.code[row]) else { continue }
            if timeline.time[row] <= start {
                current = state.traceName
            } else if timeline.time[row] < end {
                if let current, !names.contains(current) { names.append(current) }
                current = state.traceName
            }
        }
        if let current, !names.contains(current) { names.append(current) }
        return names
    }

    /// The late transfers of one background stretch.
    private struct Transfers {
        var count = 0
        var bytesUp: Int64 = 0
        var bytesDown: Int64 = 0
        var energy = 0.0
        var first: Nanoseconds = .max
        var last: Nanoseconds = .min
        var bytesByHost: [StringID: Int64] = [:]

        mutating func add(row: Int, start: Nanoseconds, end: Nanoseconds, _ context: RuleContext) {
            let timeline = context.timeline
            let bytes = timeline.amount[row]
            count += 1
            if NetDirection(rawValue: timeline.code[row]) == .tx { bytesUp += bytes } else { bytesDown += bytes }
            energy += context.priced.eventEnergy[row]
            first = min(first, start)
            last = max(last, end)
            bytesByHost[timeline.label[row], default: 0] += bytes
        }

        /// The host with the most bytes (the smallest string id among equals, for determinism).
        var busiestHost: StringID? {
            bytesByHost.max { lhs, rhs in lhs.value != rhs.value ? lhs.value < rhs.value : lhs.key > rhs.key }?.key
        }
    }
}
