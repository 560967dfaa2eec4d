import DrainModel
import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct NetChattyTests {
    let id = "NET-CHATTY"

    /// `count` exchanges on one connection, `every` seconds apart from 1 s, answered after 0.1 s.
    func chatter(_ count: Int, every interval: Double, request: Int64 = 200, response: Int64 = 600, link: LinkKind = .unspecified) -> Timeline {
        var capture = CaptureBuilder()
        let api = capture.tcp(to: "api.example.com", link: link)
        capture.open(api, at: 0)
        for call in 0..<count {
            capture.exchange(api, at: 1 + Double(call) * interval, request: request, response: response, wait: 0.1)
        }
        return capture.build(end: 2 + Double(count) * interval)
    }

    @Test func tenSmallExchangesWithinAMinuteAreChatty() throws {
        let finding = try #require(evaluate(chatter(10, every: 5)).findings(of: id).first)
        #expect(finding.texts("connection") == ["tcp 10.0.0.2:50000 → 203.0.113.1:443"])
        #expect(finding.texts("endpoint") == ["api.example.com"])
        #expect(finding.number("small exchanges") == 10)
        #expect(finding.number("small exchanges in one window (at least)") == 10)
        // First request at 1 s, last answer at 46.1 s.
        #expect(nearly(finding.number("exchange span"), 45.1))
        #expect(nearly(finding.number("time waiting for responses"), 1.0))
        #expect(finding.number("mean payload per exchange") == 800)
        #expect(finding.timeRanges == [TimeRange(startS: 1, endS: 46.1)])
        #expect(evaluate(chatter(9, every: 5)).status(of: id) == .pass)
    }

    @Test func exchangesOfAKilobyteOrMoreAreNotSmall() {
        #expect(evaluate(chatter(12, every: 2, response: 999)).status(of: id) == .warning)
        #expect(evaluate(chatter(12, every: 2, response: 1000)).status(of: id) == .pass)
        #expect(evaluate(chatter(12, every: 2, request: 1000)).status(of: id) == .pass)
    }

    /// Over a longer span only what the pigeonhole principle guarantees counts: 19 exchanges
    /// over 91 s fill two 60-s windows, so one holds at least 10; 18 guarantee only 9.
    @Test func longerSpansCountTheGuaranteedBusiestWindow() throws {
        let nineteen = try #require(evaluate(chatter(19, every: 5)).findings(of: id).first)  // span 90.1 s
        #expect(nineteen.number("small exchanges in one window (at least)") == 10)
        #expect(evaluate(chatter(18, every: 5)).status(of: id) == .pass)
        // 30 exchanges over 145.1 s: three windows, at least 10 in one.
        #expect(evaluate(chatter(30, every: 5)).status(of: id) == .warning)
        // 29 over 140.1 s: ⌈29 / 3⌉ = 10 still.
        #expect(evaluate(chatter(29, every: 5)).status(of: id) == .warning)
        // 27 over 130.1 s: ⌈27 / 3⌉ = 9.
        #expect(evaluate(chatter(27, every: 5)).status(of: id) == .pass)
    }

    @Test func theEnergyIsTheConnectionsDuringItsExchanges() throws {
        let model = try builtinModel("iphone-lte")
        let lte = try LTECosts(model)
        // Twelve exchanges 2 s apart on LTE: the radio stays up throughout (2 s < 10.12 s tail).
        let timeline = chatter(12, every: 2, link: .cellular)
        let finding = try #require(evaluate(timeline, model: model).findings(of: id).first)
        // Charged to the exchange events (docs/models.md): each request's transfer (the radio
        // is still in DRX, so no promotion; the DRX time before it goes to the packet before
        // it); each answer's 0.1 s at β since its request and its transfer; after each answer
        // but the last, the gap to the next request (0.1 s at β, 0.02 s of short DRX, the rest
        // of the 1.9 s in long DRX); after the last answer, the full tail.
        let lteParameters = lte.lte
        let shortPower = lte.drxPower(cycle: lteParameters.shortDrxCycleS.value)
        let longPower = lte.drxPower(cycle: lteParameters.longDrxCycleS.value)
        let gap = lteParameters.inactivityS.value * lteParameters.connectedW.value + lteParameters.shortDrxS.value * shortPower
            + (1.9 - lteParameters.inactivityS.value - lteParameters.shortDrxS.value) * longPower
        let gaps = 11 * gap
        let waits = 12 * 0.1 * lteParameters.connectedW.value
        let transfers = 12 * (lte.transfer(200 + CaptureBuilder.headerBytes, .tx) + lte.transfer(600 + CaptureBuilder.headerBytes, .rx))
        #expect(nearly(finding.energyJ, gaps + waits + transfers + lte.tail))
    }

    @Test func theChattyConnectionsOfOneEndpointMakeOneFinding() throws {
        // Two chatty connections to api.example.com (12 and 15 small exchanges, 2 s apart),
        // a quiet one (5), and one chatty connection to sync.example.com.
        var capture = CaptureBuilder()
        var start = 0.0
        for (endpoint, count) in [("api.example.com", 12), ("api.example.com", 5), ("api.example.com", 15), ("sync.example.com", 11)] {
            let connection = capture.tcp(to: endpoint)
            capture.open(connection, at: start)
            for call in 0..<count { capture.exchange(connection, at: start + 1 + Double(call) * 2, request: 200, response: 600, wait: 0.1) }
            start += 100
        }
        let timeline = capture.build(end: start)
        let evaluation = evaluate(timeline)
        let findings = evaluation.findings(of: id)
        #expect(findings.map(\.key) == ["NET-CHATTY:api.example.com", "NET-CHATTY:sync.example.com"])
        let api = try #require(findings.first)
        // The chattiest is the third connection (15 exchanges), at 201 s.
        #expect(api.texts("connection") == ["tcp 10.0.0.2:50002 → 203.0.113.3:443"])
        #expect(api.number("small exchanges") == 15)
        #expect(api.number("chatty connections") == 2)
        #expect(api.number("small exchanges, all chatty connections") == 27)
        #expect(nearly(api.number("time waiting for responses, all chatty connections"), 2.7))
        // One range per chatty connection: first request to last answer.
        #expect(api.timeRanges == [TimeRange(startS: 1, endS: 23.1), TimeRange(startS: 201, endS: 229.1)])
        #expect(api.message.hasPrefix("2 connections to api.example.com were chatty, with 27 small request/response exchanges"))
        // Its energy is both connections' energy during their exchanges.
        let alone = evaluate(timeline, configuration: try configuration("rules: { NET-CHATTY: { min_exchanges: 13 } }")).findings(of: id)
        let third = try #require(alone.first)
        #expect(third.number("chatty connections") == nil)
        #expect(third.energyJ! < api.energyJ!)
        #expect(findings[1].number("chatty connections") == nil)
    }

    @Test func onlyConnectionsFromACaptureAreJudged() {
        var run = TimelineBuilder()
        for call in 0..<20 {
            run.net(Double(call), .tx, bytes: 300, host: "api.example.com")
            run.net(Double(call) + 0.1, .rx, bytes: 300, host: "api.example.com")
        }
        #expect(evaluate(run.build(end: 30)).status(of: id) == .notApplicable)
    }

    @Test func theWindowAndCountAreParameters() throws {
        let timeline = chatter(6, every: 20)  // span 100.1 s
        #expect(evaluate(timeline).status(of: id) == .pass)
        let loose = try configuration("rules: { NET-CHATTY: { min_exchanges: 6, window_s: 120 } }")
        #expect(evaluate(timeline, configuration: loose).status(of: id) == .warning)
    }
}
