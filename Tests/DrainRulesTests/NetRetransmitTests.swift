import DrainModel
import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct NetRetransmitTests {
    let id = "NET-RETRANSMIT"

    /// A download opened at 0 s whose `segments` data segments arrive from 0.1 s for `seconds`,
    /// `retransmits` of them retransmissions.
    func download(segments: UInt32, retransmits: UInt32, seconds: Double = 2, transport: UInt8 = 6) -> Timeline {
        var capture = CaptureBuilder()
        let flow = capture.tcp(to: "cdn.example.com")
        capture.open(flow, at: 0)
        capture.packet(flow, at: 0.1, .rx, bytes: Int64(segments) * 1_500, payload: Int64(segments) * 1_446, segments: segments, span: seconds)
        capture.update(flow) {
            $0.retransmits = retransmits
            $0.transport = transport
        }
        return capture.build(end: 5)
    }

    @Test func threePercentIsInfoWithTheRadioTimeEstimate() throws {
        let finding = try #require(evaluate(download(segments: 200, retransmits: 6)).findings(of: id).first)
        #expect(finding.severity == .info)
        #expect(finding.texts("connection") == ["tcp 10.0.0.2:50000 → 203.0.113.1:443"])
        #expect(finding.number("data segments") == 200 && finding.number("retransmits") == 6)
        #expect(nearly(finding.number("retransmit share"), 3))
        // The Wi-Fi radio is active the whole transfer, 0.1 s to 2.1 s: 2 s, 3 % of it on
        // retransmissions.
        #expect(nearly(finding.number("radio time during the transfer"), 2))
        #expect(nearly(finding.number("radio time on retransmits (estimate)"), 0.06))
        // The flow's energy: active from the SYN at 0 to the end of the data at 2.1 s, the tail.
        let wifi = TestModel.phone.radio.wifi
        let flow = 2.1 * wifi.activeW.value + wifi.tailS.value * wifi.tailW.value
        #expect(nearly(finding.number("flow radio energy"), flow))
        #expect(nearly(finding.energyJ, 0.03 * flow))
        #expect(finding.timeRanges == [TimeRange(startS: 0.1, endS: 2.1)])
    }

    @Test func sharesAboveTwoAndTenPercent() {
        #expect(evaluate(download(segments: 500, retransmits: 10)).status(of: id) == .pass)  // 2 %
        #expect(evaluate(download(segments: 500, retransmits: 11)).status(of: id) == .info)  // 2.2 %
        #expect(evaluate(download(segments: 20, retransmits: 2)).status(of: id) == .info)  // 10 %
        #expect(evaluate(download(segments: 20, retransmits: 3)).status(of: id) == .warning)  // 15 %
    }

    @Test func theFlaggedFlowsOfOneEndpointMakeOneFinding() throws {
        // Three downloads from cdn.example.com, 20 s apart: 3 % (info), 15 % (warning) and
        // 1 % (not flagged) retransmitted; one from img.example.com at 5 %.
        var capture = CaptureBuilder()
        for (index, (endpoint, retransmits)) in [("cdn.example.com", 6), ("cdn.example.com", 30), ("cdn.example.com", 2), ("img.example.com", 10)].enumerated() {
            let flow = capture.tcp(to: endpoint)
            let start = Double(index) * 20
            capture.open(flow, at: start)
            capture.packet(flow, at: start + 0.1, .rx, bytes: 300_000, payload: 289_200, segments: 200, span: 2)
            capture.update(flow) { $0.retransmits = UInt32(retransmits) }
        }
        let findings = evaluate(capture.build(end: 90)).findings(of: id)
        #expect(findings.map(\.key).sorted() == ["NET-RETRANSMIT:cdn.example.com", "NET-RETRANSMIT:img.example.com"])
        let cdn = try #require(findings.first { $0.key == "NET-RETRANSMIT:cdn.example.com" })
        // The worst flow decides the severity and is the one described: the second, 15 %.
        #expect(cdn.severity == .warning)
        #expect(cdn.texts("connection") == ["tcp 10.0.0.2:50001 → 203.0.113.2:443"])
        #expect(nearly(cdn.number("retransmit share"), 15))
        #expect(cdn.number("flagged connections") == 2)
        #expect(cdn.number("retransmits, all flagged connections") == 36)
        #expect(cdn.number("data segments, all flagged connections") == 400)
        #expect(cdn.timeRanges == [TimeRange(startS: 0.1, endS: 2.1), TimeRange(startS: 20.1, endS: 22.1)])
        // Its energy: each flagged flow's share of its own radio energy; the flows are 20 s
        // apart on Wi-Fi, each priced alike, so 3 % and 15 % of one flow's energy.
        let flow = try #require(cdn.number("flow radio energy"))
        #expect(nearly(cdn.energyJ, 0.03 * flow + 0.15 * flow))
        let img = try #require(findings.first { $0.key == "NET-RETRANSMIT:img.example.com" })
        #expect(img.severity == .info && img.number("flagged connections") == nil)
    }

    @Test func flowsOfFewerThanTwentySegmentsAreNotJudged() {
        #expect(evaluate(download(segments: 19, retransmits: 9)).status(of: id) == .pass)
    }

    @Test func onlyTCPFlowsAreJudged() {
        #expect(evaluate(download(segments: 200, retransmits: 50, transport: 17)).status(of: id) == .pass)
    }

    @Test func theRadioTimeCountsOnlyTheTimeTheRadioWasUp() throws {
        // Two bursts of data 20 s apart on Wi-Fi: the radio is up 1 s + 1 s, not 21 s.
        var capture = CaptureBuilder()
        let flow = capture.tcp(to: "cdn.example.com", link: .wifi)
        capture.packet(flow, at: 0, .rx, bytes: 30_000, payload: 29_000, segments: 20, span: 1)
        capture.packet(flow, at: 20, .rx, bytes: 30_000, payload: 29_000, segments: 20, span: 1)
        capture.update(flow) { $0.retransmits = 8 }
        let finding = try #require(evaluate(capture.build(end: 30)).findings(of: id).first)
        // Up from 0 to 1 s, its tail to 1.25 s, and from 20 to 21 s (the last data).
        #expect(nearly(finding.number("radio time during the transfer"), 2.25))
        #expect(nearly(finding.number("radio time on retransmits (estimate)"), 0.2 * 2.25))
        #expect(finding.severity == .warning)
    }

    @Test func aTraceIsNotApplicable() {
        var run = TimelineBuilder()
        run.net(0, .rx, bytes: 300_000, host: "cdn.example.com")
        #expect(evaluate(run.build(end: 5)).status(of: id) == .notApplicable)
    }
}
