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
