import DrainModel
import DrainReport
import DrainTrace

/// NET-LATE-CLOSE: the device closes a connection long after its last data, waking the radio
/// again just to say goodbye.
///
/// A flow's close is the earlier of the FIN and the RST the device sent (the flow table keeps
/// the first FIN and the first RST with who sent each). It is late when it comes more than the
/// radio tail plus `grace_s` after the flow's last data: by then the radio had gone idle (if
/// nothing else kept it up), and the closing packet pays a new promotion and tail. The tail is
/// the model's, for the flow's radio (`RadioTail.length`: LTE inactivity + short DRX + long
/// DRX, UMTS DCH + FACH timers, Wi-Fi tail). The extra energy is what the radio charged to the
/// closing packet's `net` event: the device's event of the connection whose span holds the
/// close (else its last one before it). One finding per endpoint and radio. O(f + e) for f flows and
/// the e events of late-closed flows.
public struct NetLateCloseRule: Rule {
    static let grace = RuleParameter("grace_s", default: 0, unit: "s", "time past the radio tail a close may still come without a finding")

    public static let description = RuleDescription(
        id: "NET-LATE-CLOSE",
        title: "Connections closed late",
        area: .network,
        severity: .warning,
        guidance: """
            A connection closed long after its last transfer sends its FIN or RST when the radio \
            has already gone idle, paying a new promotion and a full tail for a few bytes. Close \
            connections right after the last transfer, or leave them to time out silently.
            """,
        source: """
            ARO "connection closing" (AT&T Application Resource Optimizer best practices)
            """,
        fix: "Close (or invalidate the session of) connections as soon as the last transfer completes, instead of on an idle timer later.",
        parameters: [grace],
        triggeringExamples: [
            Scenario("a connection closed 30 s after its last data over cellular", expect: .warning) {
                var capture = CaptureBuilder()
                let api = capture.tcp(to: "api.example.com", link: .cellular)
                capture.open(api, at: 0)
                capture.exchange(api, at: 0.1, request: 400, response: 3_000)
                capture.close(api, at: 30)
                return capture.build(end: 45)
            },
            Scenario("connections reset 20 s after their last data over Wi-Fi", expect: .warning) {
                var capture = CaptureBuilder()
                for index in 0..<2 {
                    let t = Double(index) * 40
                    let api = capture.tcp(to: "feed.example.com", link: .wifi)
                    capture.open(api, at: t)
                    capture.exchange(api, at: t + 0.1, request: 400, response: 3_000)
                    capture.close(api, at: t + 20, reset: true)
                }
                return capture.build(end: 90)
            },
        ],
        nonTriggeringExamples: [
            Scenario("a connection closed right after its last data") {
                var capture = CaptureBuilder()
                let api = capture.tcp(to: "api.example.com", link: .cellular)
                capture.open(api, at: 0)
                capture.exchange(api, at: 0.1, request: 400, response: 3_000)
                capture.close(api, at: 0.3)
                return capture.build(end: 15)
            },
            Scenario("a connection the server closed late") {
                var capture = CaptureBuilder()
                let api = capture.tcp(to: "api.example.com", link: .cellular)
                capture.open(api, at: 0)
                capture.exchange(api, at: 0.1, request: 400, response: 3_000)
                capture.close(api, at: 30, by: .remote)
                return capture.build(end: 45)
            },
            Scenario("a trace without a capture") {
                var run = TimelineBuilder()
                run.net(0, .tx, bytes: 300, host: "api.example.com")
                run.net(30, .tx, bytes: 54, host: "api.example.com")
                return run.build(end: 45)
            },
        ])

    public init() {}

    private struct LateClose {
        var flow: Int
        var radio: LinkKind
        var close: Nanoseconds
        var delay: Nanoseconds
        var tail: Nanoseconds
        var energy = 0.0
    }

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let flows = context.timeline.flows
        guard !flows.isEmpty else { return .notApplicable(RuleContext.noCaptureReason) }
        let grace = context.span(Self.grace)
        var late: [LateClose] = []
        for flow in 0..<flows.count where flows.lastDataTime[flow] != FlowTable.never {
            var close = Nanoseconds.max
            if flows.finBy[flow] == .device { close = min(close, flows.finTime[flow]) }
            if flows.rstBy[flow] == .device { close = min(close, flows.rstTime[flow]) }
            guard close != .max, let radio = context.radioLink(for: flows.link[flow]),
                let tail = RadioTail.length(of: radio, model: context.model)
            else { continue }
            let delay = close - flows.lastDataTime[flow]
            if delay > tail, delay - tail > grace { late.append(LateClose(flow: flow, radio: radio, close: close, delay: delay, tail: tail)) }
        }
        guard !late.isEmpty else { return .findings([]) }
        let rows = FlowRows(context.timeline, flows: late.map(\.flow))
        for index in late.indices { late[index].energy = closingEnergy(late[index], rows: rows, context) }
        var groups: [GroupKey: [LateClose]] = [:]
        var order: [GroupKey] = []
        for item in late {
            let key = GroupKey(endpoint: flows.endpoint[item.flow], radio: item.radio)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(item)
        }
        return .findings(order.map { finding(endpoint: $0.endpoint, closes: groups[$0] ?? [], context) })
    }

    private struct GroupKey: Hashable {
        var endpoint: StringID
        var radio: LinkKind
    }

    /// The joules charged to the device's event that carried the close.
    private func closingEnergy(_ item: LateClose, rows: FlowRows, _ context: RuleContext) -> Double {
        let timeline = context.timeline
        var chosen: Int?
        for row in rows.rows(of: item.flow) where timeline.code[row] == NetDirection.tx.rawValue && timeline.time[row] <= item.close {
            chosen = row
            if timeline.time[row] + max(0, timeline.duration[row]) >= item.close { break }
        }
        return chosen.map { context.priced.eventEnergy[$0] } ?? 0
    }

    private func finding(endpoint id: StringID, closes: [LateClose], _ context: RuleContext) -> Finding {
        let timeline = context.timeline
        let flows = timeline.flows
        let endpoint = timeline.name(id, or: "(unnamed endpoint)")
        let energy = closes.reduce(0) { $0 + $1.energy }
        let longest = Clock.seconds(closes.map(\.delay).max() ?? 0)
        let tail = Clock.seconds(closes[0].tail)
        let radio = context.radioName(closes[0].radio)
        var evidence = [
            Evidence("endpoint", text: endpoint),
            Evidence("late closes", Double(closes.count), unit: "connections"),
            Evidence("longest delay", longest, unit: "s"),
            Evidence("radio tail", tail, unit: "s"),
            Evidence("closing energy", energy, unit: "J"),
        ]
        evidence += closes.prefix(5).map { item in
            let connection = timeline.name(flows.connection[item.flow], or: "(unnamed connection)")
            return Evidence("flow", text: "\(connection): closed \(fixed(Clock.seconds(item.delay), 2)) s after its last data, \(fixed(item.energy, 3)) J")
        }
        let what =
            closes.count == 1
            ? "A connection to \(endpoint) was closed by the device \(fixed(longest, 2)) s after its last data"
            : "\(closes.count) connections to \(endpoint) were closed by the device up to \(fixed(longest, 2)) s after their last data"
        return Self.description.finding(
            .warning, subject: endpoint,
            message: "\(what), longer than the \(fixed(tail, 2)) s tail of \(radio): closing woke the radio again, costing \(fixed(energy, 3)) J.",
            evidence: evidence, energyJ: energy,
            timeRanges: closes.map { TimeRange(from: flows.lastDataTime[$0.flow], to: $0.close) })
    }
}
