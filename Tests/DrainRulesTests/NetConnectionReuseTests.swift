import DrainModel
import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct NetConnectionReuseTests {
    let id = "NET-CONN-REUSE"

    /// A connection per request to `host` at each of `times`: SYN, SYN+ACK and ACK 0.05 s apart,
    /// one exchange 0.1 s after the SYN, a FIN 0.3 s after it.
    func connections(at times: [Double], host: String = "api.example.com", exchanges: Int = 1) -> CaptureBuilder {
        var capture = CaptureBuilder()
        for t in times {
            let connection = capture.tcp(to: host)
            capture.open(connection, at: t)
            for index in 0..<exchanges { capture.exchange(connection, at: t + 0.1 + Double(index) * 0.1, request: 300, response: 2_000, wait: 0.05) }
            capture.close(connection, at: t + 0.1 * Double(exchanges) + 0.2)
        }
        return capture
    }

    @Test func threeConnectionsInAMinuteEachForOneExchange() throws {
        let finding = try #require(evaluate(connections(at: [0, 20, 40]).build(end: 50)).findings(of: id).first)
        #expect(finding.texts("endpoint") == ["api.example.com"])
        #expect(finding.number("connections") == 3)
        #expect(finding.number("short-lived connections") == 3)
        #expect(finding.number("exchanges") == 3)
        // SYN, SYN+ACK and ACK of 54 B each, before the first payload 0.1 s after the SYN.
        #expect(finding.number("handshake bytes") == Double(3 * 3 * CaptureBuilder.headerBytes))
        #expect(nearly(finding.number("handshake time"), 0.3))
        #expect(finding.texts("connection").count == 3)
        // Each connection on an idle Wi-Fi radio: active from its SYN to its FIN (0.3 s), then
        // the tail.
        let wifi = TestModel.phone.radio.wifi
        #expect(nearly(finding.energyJ, 3 * (0.3 * wifi.activeW.value + wifi.tailS.value * wifi.tailW.value)))
        #expect(finding.timeRanges == [TimeRange(startS: 0, endS: 40.3)])
    }

    @Test func theWindowIsHalfOpen() {
        #expect(evaluate(connections(at: [0, 30, 60]).build(end: 70)).status(of: id) == .pass)
        #expect(evaluate(connections(at: [0, 30, 59.9]).build(end: 70)).status(of: id) == .warning)
    }

    @Test func theBusiestWindowIsReportedWithAllShortConnectionsCounted() throws {
        let finding = try #require(evaluate(connections(at: [0, 100, 110, 120, 130, 300]).build(end: 310)).findings(of: id).first)
        #expect(finding.number("connections") == 4)
        #expect(finding.number("short-lived connections") == 6)
        #expect(finding.timeRanges.first?.startS == 100)
    }

    @Test func connectionsWithSeveralExchangesAreReused() throws {
        let timeline = connections(at: [0, 20, 40], exchanges: 2).build(end: 50)
        #expect(evaluate(timeline).status(of: id) == .pass)
        let lenient = try configuration("rules: { NET-CONN-REUSE: { max_exchanges: 2 } }")
        #expect(evaluate(timeline, configuration: lenient).status(of: id) == .warning)
    }

    @Test func connectionsWithoutAnOpeningFromTheDeviceDoNotCount() {
        var capture = CaptureBuilder()
        for (index, t) in [0.0, 20, 40].enumerated() {
            let connection = capture.tcp(to: "api.example.com")
            // The capture started after the first connection's SYN; the others were opened by
            // the server.
            if index > 0 { capture.open(connection, at: t) }
            capture.exchange(connection, at: t + 0.1, request: 300, response: 2_000)
            if index > 0 { capture.update(connection) { $0.flags.remove(.deviceOpened) } }
        }
        #expect(evaluate(capture.build(end: 50)).status(of: id) == .pass)
    }

    @Test func differentEndpointsAreCountedApart() {
        var capture = connections(at: [0, 20], host: "a.example.com")
        let other = capture.tcp(to: "b.example.com")
        capture.open(other, at: 10)
        capture.exchange(other, at: 10.1, request: 300, response: 2_000)
        #expect(evaluate(capture.build(end: 50)).status(of: id) == .pass)
    }
}
