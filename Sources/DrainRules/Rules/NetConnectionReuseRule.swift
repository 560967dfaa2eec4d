import DrainModel
import DrainReport
import DrainTrace

/// NET-CONN-REUSE: new connections to one endpoint, one exchange each, where one connection
/// could have carried them all.
///
/// A connection is short-lived when it is TCP, the device opened it and the capture holds its
/// opening (the SYN; its handshake bytes are then known), it carried payload, and it made at
/// most `max_exchanges` request/response exchanges. Per endpoint, the busiest `window_s`
/// window (half-open, starting at an opening) holding at least `min_connections` short-lived
/// openings makes a finding. The handshake is what the capture shows before the first
/// payload: the TCP handshake's bytes (`setupBytes`) and the time from the SYN to the first
/// payload; a TLS handshake after it is payload and not counted. O(f log f) for f flows, plus
/// one pass over the run's events when a connection is flagged (the joules of each flow,
/// `FlowEnergy`, shared with the other rules that read them).
public struct NetConnectionReuseRule: Rule {
    static let minConnections = RuleParameter("min_connections", default: 3, unit: "connections", "short-lived connections to one endpoint within the window that make a finding")
    static let window = RuleParameter("window_s", default: 60, unit: "s", "the window the connections are opened in")
    static let maxExchanges = RuleParameter("max_exchanges", default: 1, unit: "exchanges", "request/response exchanges up to which a connection counts as short-lived")

    public static let sharedReads: SharedReads = .flowEnergy

    public static let description = RuleDescription(
        id: "NET-CONN-REUSE",
        title: "Connections not reused",
        area: .network,
        severity: .warning,
        guidance: """
            Every new connection repeats the handshakes (TCP, usually TLS) and their round trips, \
            and keeps the radio up while they run. Reuse one connection for the transfers to a \
            server, or queue them and send them in one session.
            """,
        source: """
            PWR "queue transfers in one session" (App Programming Guide for iOS, Reduce Your \
            App's Power Consumption)
            """,
        fix: "Share one URLSession (HTTP keep-alive, HTTP/2 or HTTP/3) for requests to the same server instead of opening a connection per request.",
        parameters: [minConnections, window, maxExchanges],
        triggeringExamples: [
            Scenario("a new connection for each of four requests", expect: .warning) {
                var capture = CaptureBuilder()
                for request in 0..<4 {
                    let t = Double(request) * 10
                    let connection = capture.tcp(to: "api.example.com")
                    capture.open(connection, at: t)
                    capture.exchange(connection, at: t + 0.1, request: 400, response: 2_000)
                    capture.close(connection, at: t + 0.3)
                }
                return capture.build(end: 45)
            },
        ],
        nonTriggeringExamples: [
            Scenario("four requests on one connection") {
                var capture = CaptureBuilder()
                let connection = capture.tcp(to: "api.example.com")
                capture.open(connection, at: 0)
                for request in 0..<4 { capture.exchange(connection, at: 0.1 + Double(request) * 10, request: 400, response: 2_000) }
                capture.close(connection, at: 31)
                return capture.build(end: 45)
            },
            Scenario("three short connections two minutes apart") {
                var capture = CaptureBuilder()
                for request in 0..<3 {
                    let t = Double(request) * 120
                    let connection = capture.tcp(to: "api.example.com")
                    capture.open(connection, at: t)
                    capture.exchange(connection, at: t + 0.1, request: 400, response: 2_000)
                }
                return capture.build(end: 250)
            },
            Scenario("short connections to three different servers") {
                var capture = CaptureBuilder()
                for (index, host) in ["a.example.com", "b.example.com", "c.example.com"].enumerated() {
                    let connection = capture.tcp(to: host)
                    capture.open(connection, at: Double(index))
                    capture.exchange(connection, at: Double(index) + 0.1, request: 400, response: 2_000)
                }
                return capture.build(end: 10)
            },
            Scenario("a trace without a capture") {
                var run = TimelineBuilder()
                run.net(0, .tx, bytes: 300, host: "api.example.com")
                return run.build(end: 5)
            },
        ])

    public init() {}

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let flows = context.timeline.flows
        guard !flows.isEmpty else { return .notApplicable(RuleContext.noCaptureReason) }
        let maxExchanges = context[Self.maxExchanges]
        var byEndpoint: [StringID: [Int]] = [:]
        for flow in 0..<flows.count
        where flows.transport[flow] == 6 && flows.flags[flow].isSuperset(of: [.syn, .deviceOpened])
            && flows.firstDataTime[flow] != FlowTable.never && Double(flows.exchanges[flow]) <= maxExchanges
        {
            byEndpoint[flows.endpoint[flow], default: []].append(flow)
        }
        let minimum = max(1, context.count(Self.minConnections))
        var flagged: [(endpoint: StringID, connections: [Int], total: Int)] = []
        for (endpoint, var members) in byEndpoint where members.count >= minimum {
            members.sort { flows.firstTime[$0] != flows.firstTime[$1] ? flows.firstTime[$0] < flows.firstTime[$1] : $0 < $1 }
            let openings = members.map { flows.firstTime[$0] }
            guard let busiest = DensestWindow.find(in: openings, length: context.span(Self.window)), busiest.count >= minimum
            else { continue }
            flagged.append((endpoint, Array(members[busiest.range]), members.count))
        }
        flagged.sort { flows.firstTime[$0.connections[0]] < flows.firstTime[$1.connections[0]] || flows.firstTime[$0.connections[0]] == flows.firstTime[$1.connections[0]] && $0.endpoint < $1.endpoint }
        let energy = context.flowEnergy
        return .findings(flagged.map { finding(endpoint: $0.endpoint, connections: $0.connections, total: $0.total, energy: energy, context) })
    }

    private func finding(endpoint id: StringID, connections: [Int], total: Int, energy flowEnergy: FlowEnergy, _ context: RuleContext) -> Finding {
        let timeline = context.timeline
        let flows = timeline.flows
        let endpoint = timeline.name(id, or: "(unnamed endpoint)")
        let handshakeBytes = connections.reduce(Int64(0)) { $0 + flows.setupBytes[$1] }
        let handshakeTime = connections.reduce(Nanoseconds(0)) { $0 + max(0, flows.firstDataTime[$1] - flows.firstTime[$1]) }
        let exchanges = connections.reduce(0) { $0 + Int(flows.exchanges[$1]) }
        let energy = connections.reduce(0) { $0 + flowEnergy.total[$1] }
        let window = context[Self.window]
        let first = flows.firstTime[connections[0]]
        let last = connections.map { flows.lastTime[$0] }.max() ?? first
        let evidence = [
            Evidence("endpoint", text: endpoint),
            Evidence("connections", Double(connections.count), unit: "connections"),
            Evidence("short-lived connections", Double(total), unit: "connections"),
            Evidence("window", window, unit: "s"),
            Evidence("exchanges", Double(exchanges), unit: "exchanges"),
            Evidence("handshake bytes", Double(handshakeBytes), unit: "B"),
            Evidence("handshake time", Clock.seconds(handshakeTime), unit: "s"),
        ] + connections.prefix(3).map { Evidence("connection", text: timeline.name(flows.connection[$0], or: "(unnamed connection)")) }
        return Self.description.finding(
            .warning, subject: endpoint,
            message: "\(endpoint) got \(connections.count) new connections within \(fixed(window, 0)) s carrying \(exchanges) exchange\(exchanges == 1 ? "" : "s") in all: \(connections.count) TCP handshakes (\(ByteFormat.string(Double(handshakeBytes))), \(fixed(Clock.seconds(handshakeTime), 3)) s before the first payload) where one reused connection needs one.",
            evidence: evidence, energyJ: energy, timeRanges: [TimeRange(from: first, to: last)])
    }
}
