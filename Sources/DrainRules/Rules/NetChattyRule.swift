import DrainModel
import DrainReport
import DrainTrace

/// NET-CHATTY: a connection that trades many small requests and responses in a short time.
///
/// A capture's flow table counts, per connection, the request/response exchanges the device
/// started, how many were small (less than 1000 bytes of payload each way), and the time of
/// the first request and of the last response; it keeps no time per exchange. So the rule
/// works from a guaranteed lower bound: the s small exchanges fall in a span S, which
/// `k = ⌈S / window_s⌉` consecutive windows of `window_s` cover, so one of those windows holds
/// at least `⌈s / k⌉` of them (pigeonhole, exchanges placed by their start). A connection is
/// flagged when that bound reaches `min_exchanges`. When the whole span fits in one window the
/// count is exact; a short chatty stretch inside a long-lived connection can be missed, never
/// invented. The flagged connections of one endpoint make one finding (its key names the
/// endpoint): it describes the chattiest of them (most small exchanges, then earliest) and
/// carries the energy and a time range of each. O(f + n) for f flows and the run's n
/// events, read once for the joules of each flow (`FlowEnergy`) when a connection is flagged.
public struct NetChattyRule: Rule {
    static let minExchanges = RuleParameter("min_exchanges", default: 10, unit: "exchanges", "small request/response exchanges within the window that make a finding")
    static let window = RuleParameter("window_s", default: 60, unit: "s", "the time the exchanges must fall within")

    public static let sharedReads: SharedReads = .flowEnergy

    public static let description = RuleDescription(
        id: "NET-CHATTY",
        title: "Chatty connection",
        area: .network,
        severity: .warning,
        guidance: """
            Many small round trips keep the radio up for the whole conversation while it mostly \
            waits for answers. Design the protocol so that one request carries what is needed and \
            one response returns it all.
            """,
        source: """
            NET "avoid chatty protocols" (App Programming Guide for iOS, Tune Your Networking Code)
            """,
        fix: "Combine the small requests into one batched request (or one query that returns everything needed), and prefetch what the next steps will ask for.",
        parameters: [minExchanges, window],
        triggeringExamples: [
            Scenario("twelve small exchanges in 30 s", expect: .warning) {
                var capture = CaptureBuilder()
                let api = capture.tcp(to: "api.example.com")
                capture.open(api, at: 0)
                for call in 0..<12 { capture.exchange(api, at: 1 + Double(call) * 2.5, request: 250, response: 600, wait: 0.08) }
                return capture.build(end: 40)
            },
            Scenario("thirty small exchanges over two and a half minutes", expect: .warning) {
                var capture = CaptureBuilder()
                let api = capture.tcp(to: "sync.example.com", link: .cellular)
                capture.open(api, at: 0)
                for call in 0..<30 { capture.exchange(api, at: 1 + Double(call) * 5, request: 120, response: 300) }
                return capture.build(end: 160)
            },
        ],
        nonTriggeringExamples: [
            Scenario("nine small exchanges") {
                var capture = CaptureBuilder()
                let api = capture.tcp(to: "api.example.com")
                for call in 0..<9 { capture.exchange(api, at: Double(call), request: 250, response: 600) }
                return capture.build(end: 20)
            },
            Scenario("twelve exchanges with large responses") {
                var capture = CaptureBuilder()
                let api = capture.tcp(to: "api.example.com")
                for call in 0..<12 { capture.exchange(api, at: Double(call), request: 250, response: 4_000) }
                return capture.build(end: 20)
            },
            Scenario("twelve small exchanges over twenty minutes") {
                var capture = CaptureBuilder()
                let api = capture.tcp(to: "api.example.com")
                for call in 0..<12 { capture.exchange(api, at: Double(call) * 109, request: 250, response: 600) }
                return capture.build(end: 1300)
            },
            Scenario("a trace without a capture") {
                var run = TimelineBuilder()
                for call in 0..<20 { run.net(Double(call), .tx, bytes: 300, host: "api.example.com") }
                return run.build(end: 30)
            },
        ])

    public init() {}

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let flows = context.timeline.flows
        guard !flows.isEmpty else { return .notApplicable(RuleContext.noCaptureReason) }
        let minimum = Double(max(1, context.count(Self.minExchanges)))
        let window = context[Self.window]
        var flagged: [(flow: Int, inWindow: Double)] = []
        for flow in 0..<flows.count where Double(flows.smallExchanges[flow]) >= minimum {
            let first = flows.firstExchangeTime[flow], last = flows.lastExchangeTime[flow]
            guard first != FlowTable.never, last != FlowTable.never else { continue }
            let span = Clock.seconds(max(0, last - first))
            let windows = span <= window ? 1 : (span / window).rounded(.up)
            let inWindow = (Double(flows.smallExchanges[flow]) / windows).rounded(.up)
            if inWindow >= minimum { flagged.append((flow, inWindow)) }
        }
        let energy = context.flowEnergy
        return .findings(flows.groupedByEndpoint(flagged, flow: \.flow).map { finding(connections: $0, energy: energy, context) })
    }

    /// The finding of one endpoint's flagged connections (at least one).
    private func finding(connections: [(flow: Int, inWindow: Double)], energy flowEnergy: FlowEnergy, _ context: RuleContext) -> Finding {
        let timeline = context.timeline
        let flows = timeline.flows
        let chattiest = connections.indices.max { lhs, rhs in
            let left = flows.smallExchanges[connections[lhs].flow], right = flows.smallExchanges[connections[rhs].flow]
            return left != right ? left < right : lhs > rhs
        } ?? 0
        let flow = connections[chattiest].flow, inWindow = connections[chattiest].inWindow
        let connection = timeline.name(flows.connection[flow], or: "(unnamed connection)")
        let endpoint = timeline.name(flows.endpoint[flow], or: "(unnamed endpoint)")
        let first = flows.firstExchangeTime[flow], last = flows.lastExchangeTime[flow]
        let span = Clock.seconds(last - first)
        let small = Int(flows.smallExchanges[flow])
        let exchanges = Int(flows.exchanges[flow])
        let meanPayload = Double(flows.exchangePayload[flow]) / Double(max(1, exchanges))
        let waiting = Clock.seconds(flows.exchangeWait[flow])
        let window = context[Self.window]
        let energy = connections.reduce(0.0) { $0 + flowEnergy.duringExchanges[$1.flow] }
        var evidence = [
            Evidence("connection", text: connection),
            Evidence("endpoint", text: endpoint),
            Evidence("small exchanges", Double(small), unit: "exchanges"),
            Evidence("exchanges", Double(exchanges), unit: "exchanges"),
            Evidence("small exchanges in one window (at least)", inWindow, unit: "exchanges"),
            Evidence("window", window, unit: "s"),
            Evidence("exchange span", span, unit: "s"),
            Evidence("mean payload per exchange", meanPayload, unit: "B"),
            Evidence("time waiting for responses", waiting, unit: "s"),
        ]
        let within = span <= window ? "within \(fixed(span, 1)) s" : "over \(fixed(span, 1)) s, at least \(Int(inWindow)) of them within some \(fixed(window, 0)) s"
        var message = "\(connection) (\(endpoint)) made \(small) request/response exchanges of less than 1 KB each \(within), spending \(fixed(waiting, 2)) s waiting for responses."
        if connections.count > 1 {
            let allSmall = connections.reduce(0) { $0 + Int(flows.smallExchanges[$1.flow]) }
            let allWaiting = connections.reduce(0.0) { $0 + Clock.seconds(flows.exchangeWait[$1.flow]) }
            evidence += [
                Evidence("chatty connections", Double(connections.count), unit: "connections"),
                Evidence("small exchanges, all chatty connections", Double(allSmall), unit: "exchanges"),
                Evidence("time waiting for responses, all chatty connections", allWaiting, unit: "s"),
            ]
            message = "\(connections.count) connections to \(endpoint) were chatty, with \(allSmall) small request/response exchanges and \(fixed(allWaiting, 2)) s waiting for responses in all; the chattiest, "
                + "\(connection), made \(small) exchanges of less than 1 KB each \(within)."
        }
        let ranges = connections.map { TimeRange(from: flows.firstExchangeTime[$0.flow], to: flows.lastExchangeTime[$0.flow]) }
        return Self.description.finding(
            .warning, subject: endpoint, message: message, evidence: evidence, energyJ: energy,
            timeRanges: ranges.sorted { ($0.startS, $0.endS) < ($1.startS, $1.endS) })
    }
}
