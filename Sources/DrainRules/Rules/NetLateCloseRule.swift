import DrainModel
import DrainReport
import DrainTrace

/// NET-LATE-CLOSE: the device closes a connection long after its last data, when the radio
/// may have gone idle, so that saying goodbye wakes it again.
///
/// A flow's close is the earlier of the FIN and the RST the device sent (the flow table keeps
/// the first FIN and the first RST with who sent each). It is late when it comes more than the
/// radio tail plus `grace_s` after the flow's last data. The tail is the model's, for the
/// flow's radio (`RadioTail.length`: LTE inactivity + short DRX + long DRX, UMTS DCH + FACH
/// timers, Wi-Fi tail). The closing event is the device's event of the connection whose span
/// holds the close (else its last one before it); what it caused on the radio comes from
/// `RadioAttribution`: whether it found the radio idle and woke it, and the promotion and tail
/// it added. A late close that came while other traffic had the radio up woke nothing and adds
/// at most the tail it lengthened. One finding per endpoint and radio: a warning when one of
/// its closes woke the radio, else info. O(f + n) for f flows and n events.
public struct NetLateCloseRule: Rule {
    static let grace = RuleParameter("grace_s", default: 0, unit: "s", "time past the radio tail a close may still come without a finding")

    public static let sharedReads: SharedReads = .flowOfRow

    public static let description = RuleDescription(
        id: "NET-LATE-CLOSE",
        title: "Connections closed late",
        area: .network,
        severity: .warning,
        guidance: """
            A connection closed long after its last transfer sends its FIN or RST when the radio \
            may have gone idle, paying a new promotion and a full tail for a few bytes. Close \
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
            Scenario("FIN during another flow's burst", expect: .info) {
                var capture = CaptureBuilder()
                let api = capture.tcp(to: "api.example.com", link: .cellular)
                capture.open(api, at: 0)
                capture.exchange(api, at: 0.1, request: 400, response: 3_000)
                let cdn = capture.tcp(to: "cdn.example.com", link: .cellular)
                capture.open(cdn, at: 29.5)
                capture.packet(cdn, at: 29.6, .rx, bytes: 800_000, payload: 780_000, segments: 540, span: 1)
                capture.close(api, at: 30)
                return capture.build(end: 45)
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
        /// Whether the closing event found the radio idle and woke it.
        var wokeRadio = false
        /// The promotion and tail the closing event added (`RadioAttribution`).
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
        let closingRows = closingRows(of: late, context.timeline, context.flowOfRow)
        let attribution = RadioAttribution(context.timeline, model: context.model, rows: closingRows.compactMap { $0.map(UInt32.init) }.sorted())
        for index in late.indices {
            guard let row = closingRows[index] else { continue }
            let share = attribution[row]
            late[index].wokeRadio = share.wokeRadio
            // A close lowers what is still to come only where a radio's tail costs less early
            // than late, which no built-in model's does; such a saving is no cost of the close.
            late[index].energy = max(0, share.addedJoules)
        }
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

    /// The device's event that carried each close of `late`: of its flow's `tx` events, the first
    /// whose span holds the close, else the last one before it. One pass over the run through
    /// the flow of each event. O(events + flows).
    private func closingRows(of late: [LateClose], _ timeline: Timeline, _ flowOfRow: FlowOfRow) -> [Int?] {
        // Each flow has at most one late close.
        var lateOfFlow = [Int32](repeating: -1, count: timeline.flows.count)
        for (index, item) in late.enumerated() { lateOfFlow[item.flow] = Int32(index) }
        let lastClose = late.map(\.close).max() ?? .min
        var chosen = [Int?](repeating: nil, count: late.count)
        var heldBySpan = [Bool](repeating: false, count: late.count)
        for row in 0..<timeline.count where timeline.code[row] == NetDirection.tx.rawValue {
            if timeline.time[row] > lastClose { break }
            guard let flow = flowOfRow(row) else { continue }
            let index = Int(lateOfFlow[flow])
            guard index >= 0, !heldBySpan[index], timeline.time[row] <= late[index].close else { continue }
            chosen[index] = row
            heldBySpan[index] = timeline.time[row] + max(0, timeline.duration[row]) >= late[index].close
        }
        return chosen
    }

    private func finding(endpoint id: StringID, closes: [LateClose], _ context: RuleContext) -> Finding {
        let timeline = context.timeline
        let flows = timeline.flows
        let endpoint = timeline.name(id, or: "(unnamed endpoint)")
        let energy = closes.reduce(0) { $0 + $1.energy }
        let woke = closes.filter(\.wokeRadio).count
        let longest = Clock.seconds(closes.map(\.delay).max() ?? 0)
        let tail = Clock.seconds(closes[0].tail)
        let radio = context.radioName(closes[0].radio)
        var evidence = [
            Evidence("endpoint", text: endpoint),
            Evidence("late closes", Double(closes.count), unit: "connections"),
            Evidence("closes that woke the radio", Double(woke), unit: "connections"),
            Evidence("longest delay", longest, unit: "s"),
            Evidence("radio tail", tail, unit: "s"),
            Evidence("closing energy", energy, unit: "J"),
        ]
        evidence += closes.prefix(5).map { item in
            let connection = timeline.name(flows.connection[item.flow], or: "(unnamed connection)")
            let effect = item.wokeRadio ? "woke the radio" : "the radio was already up"
            return Evidence("flow", text: "\(connection): closed \(fixed(Clock.seconds(item.delay), 2)) s after its last data, \(effect), \(fixed(item.energy, 3)) J")
        }
        let single = closes.count == 1
        let what =
            single
            ? "A connection to \(endpoint) was closed by the device \(fixed(longest, 2)) s after its last data"
            : "\(closes.count) connections to \(endpoint) were closed by the device up to \(fixed(longest, 2)) s after their last data"
        let longer = "longer than the \(fixed(tail, 2)) s tail of \(radio)"
        let effect: String
        if woke == 0 {
            let added = isMeasurable(energy) ? "only lengthened its tail, by \(fixed(energy, 3)) J" : "added no measurable radio energy"
            effect = ", but other traffic had the radio up \(single ? "at the time" : "each time"): \(single ? "the close" : "the closes") did not wake it and \(added)."
        } else {
            let others = closes.count - woke
            let whileUp = others > 0 ? "; the other \(others == 1 ? "close" : "\(others) closes") came while the radio was up" : ""
            let wakeUps = single ? "the close woke the radio again" : "the closes woke the radio \(times(woke))"
            effect = ": \(wakeUps), costing \(fixed(energy, 3)) J of \(context.wakeUpCost(on: closes[0].radio, promotions: woke, tails: closes.count))\(whileUp)."
        }
        return Self.description.finding(
            woke > 0 ? .warning : .info, subject: endpoint, message: "\(what), \(longer)\(effect)",
            evidence: evidence, energyJ: energy,
            timeRanges: closes.map { TimeRange(from: flows.lastDataTime[$0.flow], to: $0.close) })
    }
}
