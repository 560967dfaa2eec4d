import DrainModel
import DrainReport
import DrainRules
import DrainTrace
import Testing

/// The network rules with every threshold at its extremes, on a run that has something for
/// each of them: no trap, no non-finite number, the same answer twice.
@Suite struct NetParameterExtremesTests {
    /// Periodic small polls over LTE, a chatty connection, short connections, an uncompressed
    /// body, retransmissions, a late close, traffic of every link kind and a transfer in the
    /// background.
    static func busyRun() -> Timeline {
        var capture = CaptureBuilder()
        for poll in 0..<6 { capture.net(Double(poll) * 30, .tx, bytes: 400, host: "poll.example.com", link: .cellular) }
        let chatty = capture.tcp(to: "api.example.com")
        capture.open(chatty, at: 1)
        for call in 0..<12 { capture.exchange(chatty, at: 2 + Double(call), request: 100, response: 300) }
        capture.http(chatty, at: 2, request: true, method: "GET", path: "/a")
        capture.http(chatty, at: 2.05, request: false, status: 200, contentType: "application/json", contentLength: 2_500, bodyBytes: 2_500)
        capture.close(chatty, at: 60)
        for index in 0..<3 {
            let short = capture.tcp(to: "short.example.com", link: .wifi)
            capture.open(short, at: 20 + Double(index) * 5)
            capture.exchange(short, at: 20.1 + Double(index) * 5, request: 300, response: 5_000)
            capture.update(short) { $0.retransmits = 1 }
        }
        let download = capture.tcp(to: "cdn.example.com", link: .cellular)
        capture.packet(download, at: 100, .rx, bytes: 7_000_000, payload: 6_800_000, segments: 4_700, span: 20)
        capture.update(download) { $0.retransmits = 500 }
        capture.net(5, .tx, bytes: 1_000, host: "nas.local", link: .ethernet)
        capture.net(6, .tx, bytes: 1_000, host: "localhost", link: .loopback)
        capture.net(7, .tx, bytes: 1_000)
        capture.lifecycle(0, .active)
        capture.lifecycle(150, .background)
        capture.net(170, .rx, bytes: 2_000, host: "push.example.com", link: .wifi)
        return capture.build(end: 200)
    }

    static let network = RuleEngine.descriptions.filter { $0.id.hasPrefix("NET-") }

    @Test func theRunTripsEveryNetworkRuleAtItsDefaults() {
        let evaluation = evaluate(Self.busyRun())
        for rule in Self.network {
            #expect(!evaluation.findings(of: rule.id).isEmpty, "\(rule.id)")
        }
    }

    @Test(arguments: ["0", "1.0e+300"])
    func extremeThresholds(_ value: String) throws {
        let settings = Self.network.map { rule in
            "  \(rule.id): { " + rule.parameters.map { "\($0.name): \(value)" }.joined(separator: ", ") + " }"
        }
        let config = try configuration("rules:\n" + settings.joined(separator: "\n"))
        let evaluation = evaluate(Self.busyRun(), configuration: config)
        #expect(evaluation == evaluate(Self.busyRun(), configuration: config))
        for finding in evaluation.findings where finding.rule.hasPrefix("NET-") {
            #expect(finding.energyJ.map(\.isFinite) ?? true, "\(finding.rule)")
            #expect(finding.evidence.allSatisfy { $0.value?.isFinite ?? true }, "\(finding.rule)")
            #expect(finding.timeRanges.allSatisfy { $0.startS <= $0.endS }, "\(finding.rule)")
        }
    }
}
