import DrainModel
import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct NetSmallBurstsTests {
    let id = "NET-SMALL-BURSTS"

    @Test func batchingFiveOneKilobyteBurstsSavesFourPromotionsAndTails() throws {
        let model = try builtinModel("iphone-lte")
        let lte = try LTECosts(model)
        var run = TimelineBuilder()
        for upload in 0..<5 { run.net(Double(upload) * 30, .tx, bytes: 1000, host: "log.example.com", link: .cellular) }
        let finding = try #require(evaluate(run.build(end: 140), model: model).findings(of: id).first)
        // Each isolated burst: promotion, 1000 B × α_up, tail.
        let each = lte.isolated(1000, .tx)
        // Batched: the five packets at 120 s; the first promotes, the other four wait for the
        // promotion and are served with it (no connected time between them); one tail.
        let batched = lte.promotion + 5 * lte.transfer(1000, .tx) + lte.tail
        #expect(nearly(finding.number("radio energy of the link"), 5 * each))
        #expect(nearly(finding.number("radio energy batched"), batched))
        #expect(nearly(finding.number("saving if batched"), 4 * (lte.promotion + lte.tail)))
        #expect(finding.number("small bursts") == 5)
        #expect(finding.number("bursts") == 5)
        #expect(finding.number("median small burst") == 1000)
        #expect(finding.number("small burst bytes") == 5000)
        // The tail after each burst: from its packet (served when the promotion ends) until idle.
        #expect(nearly(finding.number("tail energy"), 5 * lte.tail))
        #expect(nearly(finding.number("tail share"), 100 * lte.tail / each))
        #expect(nearly(finding.energyJ, 5 * each))
        #expect(finding.texts("link") == ["cellular (LTE)"])
        #expect(finding.timeRanges == [TimeRange(startS: 0, endS: 120)])
    }

    @Test func onlyTheSmallBurstsMoveWhenBatched() throws {
        let model = try builtinModel("iphone-lte")
        let lte = try LTECosts(model)
        var run = TimelineBuilder()
        for upload in 0..<5 { run.net(Double(upload) * 30, .tx, bytes: 1000, host: "log.example.com", link: .cellular) }
        run.net(200, .rx, bytes: 50_000, host: "cdn.example.com", link: .cellular)
        let finding = try #require(evaluate(run.build(end: 220), model: model).findings(of: id).first)
        let large = lte.isolated(50_000, .rx)
        #expect(finding.number("bursts") == 6)
        #expect(nearly(finding.number("radio energy of the link"), 5 * lte.isolated(1000, .tx) + large))
        #expect(nearly(finding.number("radio energy batched"), lte.promotion + 5 * lte.transfer(1000, .tx) + lte.tail + large))
        #expect(nearly(finding.number("saving if batched"), 4 * (lte.promotion + lte.tail)))
        // Tails of the small bursts over all radio energy, the large burst's included.
        #expect(nearly(finding.number("tail share"), 100 * 5 * lte.tail / (5 * lte.isolated(1000, .tx) + large)))
    }

    @Test func aBurstOfTenKilobytesIsNotSmall() {
        func uploads(_ bytes: Int64) -> Timeline {
            var run = TimelineBuilder()
            for upload in 0..<5 { run.net(Double(upload) * 30, .tx, bytes: bytes, host: "log.example.com", link: .wifi) }
            return run.build(end: 140)
        }
        #expect(evaluate(uploads(9_999)).status(of: id) == .warning)
        #expect(evaluate(uploads(10_000)).status(of: id) == .pass)
    }

    @Test func wiFiTailsAreTheModelsTailTime() throws {
        let wifi = TestModel.phone.radio.wifi
        var run = TimelineBuilder()
        // A request and its answer 0.1 s later: 0.1 s active, then the tail.
        for t in [0.0, 10, 20, 30, 40, 50] {
            run.net(t, .tx, bytes: 200, host: "chat.example.com", link: .wifi)
            run.net(t + 0.1, .rx, bytes: 300, host: "chat.example.com", link: .wifi)
        }
        let finding = try #require(evaluate(run.build(end: 60)).findings(of: id).first)
        let tail = wifi.tailS.value * wifi.tailW.value
        let each = 0.1 * wifi.activeW.value + tail
        #expect(nearly(finding.number("tail energy"), 6 * tail))
        #expect(nearly(finding.number("tail share"), 100 * tail / each))
        #expect(finding.number("median small burst") == 500)
        // Batched at 50 s: all twelve packets at once, one tail and no active time.
        #expect(nearly(finding.number("radio energy batched"), tail))
        #expect(nearly(finding.number("saving if batched"), 6 * each - tail))
        #expect(finding.texts("link") == ["Wi-Fi"])
    }

    @Test func eachRadiosTailsAreItsOwnWhenBothCarryTraffic() throws {
        // Five 1 KB uploads over LTE and six Wi-Fi exchanges in between: the segments of the two
        // radios lie one after the other, and each link's tails must come from its own only.
        let model = try builtinModel("iphone-lte")
        let lte = try LTECosts(model)
        let wifi = model.radio.wifi
        var run = TimelineBuilder()
        for upload in 0..<5 { run.net(Double(upload) * 30, .tx, bytes: 1000, host: "log.example.com", link: .cellular) }
        for t in [5.0, 15, 25, 35, 45, 55] {
            run.net(t, .tx, bytes: 200, host: "chat.example.com", link: .wifi)
            run.net(t + 0.1, .rx, bytes: 300, host: "chat.example.com", link: .wifi)
        }
        // A low share, so that the Wi-Fi tails (small beside LTE's) make a finding too.
        let config = try configuration("rules: { NET-SMALL-BURSTS: { tail_share: 0.01 } }")
        let findings = evaluate(run.build(end: 140), model: model, configuration: config).findings(of: id)
        let cellular = try #require(findings.first { $0.texts("link") == ["cellular (LTE)"] })
        let wifiFinding = try #require(findings.first { $0.texts("link") == ["Wi-Fi"] })
        let wifiTail = wifi.tailS.value * wifi.tailW.value
        let wifiEach = 0.1 * wifi.activeW.value + wifiTail
        let total = 5 * lte.isolated(1000, .tx) + 6 * wifiEach
        #expect(nearly(cellular.number("tail energy"), 5 * lte.tail))
        #expect(nearly(cellular.number("tail share"), 100 * 5 * lte.tail / total))
        #expect(nearly(cellular.number("radio energy of the link"), 5 * lte.isolated(1000, .tx)))
        #expect(nearly(wifiFinding.number("tail energy"), 6 * wifiTail))
        #expect(nearly(wifiFinding.number("tail share"), 100 * 6 * wifiTail / total))
        #expect(nearly(wifiFinding.number("radio energy batched"), wifiTail))
    }

    @Test func theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() throws {
        var run = TimelineBuilder()
        for (index, bytes) in [Int64(100), 400, 200, 900, 300, 5000].enumerated() {
            run.net(Double(index) * 15, .tx, bytes: bytes, host: "log.example.com", link: .wifi)
        }
        let finding = try #require(evaluate(run.build(end: 90)).findings(of: id).first)
        #expect(finding.number("median small burst") == 350)
    }

    @Test func theMedianIsExactAboveSixtyFourKilobytes() throws {
        // Bursts are small below 10 MB here, so sizes are counted 256 to a bucket at first: the
        // middle sizes share one, and it must be counted again to tell them apart.
        let config = try configuration("rules: { NET-SMALL-BURSTS: { small_burst_bytes: 10000000, tail_share: 0.01 } }")
        func median(_ sizes: [Int64]) throws -> Double? {
            var run = TimelineBuilder()
            for (index, bytes) in sizes.enumerated() {
                run.net(Double(index) * 60, .rx, bytes: bytes, host: "cdn.example.com", link: .wifi)
            }
            let end = Double(sizes.count) * 60
            return try #require(evaluate(run.build(end: end), configuration: config).findings(of: id).first).number("median small burst")
        }
        #expect(try median([300, 1_000_000, 1_000_001, 1_000_003, 2_000_000, 5_000_000]) == 1_000_002)
        #expect(try median([300, 1_000_000, 1_000_005, 1_000_001, 1_000_003, 2_000_000, 5_000_000]) == 1_000_003)
    }

    @Test func aLargeBurstBeforeTheBatchStaysWhereItWas() throws {
        // Small uploads at 0, 40, 100, 140 and 180 s and a 50 KB download at 60 s: batched, the
        // download keeps its place and the five uploads go at 180 s together.
        let model = try builtinModel("iphone-lte")
        let lte = try LTECosts(model)
        var run = TimelineBuilder()
        for t in [0.0, 40, 100, 140, 180] { run.net(t, .tx, bytes: 1000, host: "log.example.com", link: .cellular) }
        run.net(60, .rx, bytes: 50_000, host: "cdn.example.com", link: .cellular)
        let finding = try #require(evaluate(run.build(end: 200), model: model).findings(of: id).first)
        let large = lte.isolated(50_000, .rx)
        #expect(finding.number("bursts") == 6 && finding.number("small bursts") == 5)
        #expect(nearly(finding.number("radio energy of the link"), 5 * lte.isolated(1000, .tx) + large))
        #expect(nearly(finding.number("radio energy batched"), large + lte.promotion + 5 * lte.transfer(1000, .tx) + lte.tail))
        #expect(finding.timeRanges == [TimeRange(startS: 0, endS: 180)])
    }

    @Test func tailsOfHalfTheRadioEnergyOrLessPass() throws {
        // Six small bursts of one Wi-Fi packet (tail only) beside a 60 s download (active 60 s
        // plus one tail): the small tails are 6 / (240 + 7) of the energy.
        var capture = CaptureBuilder()
        let download = capture.tcp(to: "cdn.example.com", link: .wifi)
        capture.packet(download, at: 0, .rx, bytes: 10_000_000, payload: 9_700_000, segments: 6_700, span: 60)
        for t in [70.0, 80, 90, 100, 110, 120] { capture.net(t, .tx, bytes: 500, host: "chat.example.com", link: .wifi) }
        #expect(evaluate(capture.build(end: 130)).status(of: id) == .pass)
        let loose = try configuration("rules: { NET-SMALL-BURSTS: { tail_share: 0.02 } }")
        let finding = try #require(evaluate(capture.build(end: 130), configuration: loose).findings(of: id).first)
        let wifi = TestModel.phone.radio.wifi
        let tail = wifi.tailS.value * wifi.tailW.value
        #expect(nearly(finding.number("tail share"), 100 * 6 * tail / (60 * wifi.activeW.value + 7 * tail)))
        #expect(finding.number("small bursts") == 6 && finding.number("bursts") == 7)
    }

    @Test func eachRadioIsJudgedOnItsOwn() {
        var run = TimelineBuilder()
        for upload in 0..<3 {
            run.net(Double(upload) * 30, .tx, bytes: 500, host: "a.example.com", link: .wifi)
            run.net(Double(upload) * 30 + 5, .tx, bytes: 500, host: "b.example.com", link: .cellular)
        }
        #expect(evaluate(run.build(end: 100)).status(of: id) == .pass)
    }
}
