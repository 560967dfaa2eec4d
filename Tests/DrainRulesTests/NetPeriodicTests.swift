import DrainModel
import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct NetPeriodicTests {
    let id = "NET-PERIODIC"

    /// Single 500-byte requests to one host at `times`, on `link` (the model's default unless
    /// given).
    func requests(at times: [Double], host: String = "poll.example.com", link: LinkKind = .unspecified) -> TimelineBuilder {
        var run = TimelineBuilder()
        for t in times { run.net(t, .tx, bytes: 500, host: host, link: link) }
        return run
    }

    @Test func aPollEveryThirtySecondsOnLTEWakesTheRadioEachTime() throws {
        let model = try builtinModel("iphone-lte")  // default link: cellular, LTE
        let lte = try LTECosts(model)
        let times = (0..<6).map { 10 + Double($0) * 30 }
        let finding = try #require(evaluate(requests(at: times).build(end: 200), model: model).findings(of: id).first)
        // 30 s apart is longer than the 10.12 s tail: every poll finds the radio idle and
        // causes promotion_s × promotion_w and a whole tail (0.1 s × β + short + long DRX).
        let each = lte.promotion + lte.tail
        #expect(nearly(finding.energyJ, 6 * each))
        #expect(nearly(finding.number("promotion and tail energy"), 6 * each))
        #expect(finding.number("wake-ups") == 6)
        #expect(finding.number("bursts while the radio was up") == 0)
        #expect(finding.texts("endpoint") == ["poll.example.com"])
        #expect(finding.number("period") == 30)
        #expect(finding.number("bursts") == 6)
        #expect(finding.number("longest run") == 150)
        #expect(finding.number("bytes") == 3000)
        #expect(finding.number("interval variation") == 0)
        // The polls are all the radio did; its energy also holds their transfers (α × bits).
        let radio = 6 * lte.isolated(500, .tx)
        #expect(nearly(finding.number("share of radio energy"), 100 * 6 * each / radio))
        #expect(finding.severity == .error)
        #expect(finding.message.contains("the bursts woke the radio 6 times, costing \(fixed3(6 * each)) J of promotions and tails"))
        #expect(finding.timeRanges.count == 1)
        #expect(finding.timeRanges.first?.startS == 10 && finding.timeRanges.first?.endS == 160)
    }

    @Test func burstsTwoSecondsApartWakeTheRadioOnceAndKeepItUp() throws {
        let model = try builtinModel("iphone-lte")
        let lte = try LTECosts(model)
        let times = (0...30).map { Double($0) * 2 }
        let finding = try #require(evaluate(requests(at: times).build(end: 80), model: model).findings(of: id).first)
        // The first poll wakes the radio, which is served when the promotion ends (0.26 s); its
        // tail runs until the next poll at 2 s. Every later poll comes 2 s into the tail of the
        // one before, well within the 10.12 s tail: no promotion, only the 2 s of tail it cut
        // short added again at its end, and the last one's whole tail.
        let first = lte.promotion + lte.tail(over: 2 - lte.lte.promotionS.value)
        let expected = first + 29 * lte.tail(over: 2) + lte.tail
        #expect(nearly(finding.energyJ, expected))
        #expect(finding.number("wake-ups") == 1)
        #expect(finding.number("bursts while the radio was up") == 30)
        #expect(finding.message.contains("the bursts woke the radio once (30 of the bursts came while it was still up)"))
        #expect(!finding.message.contains("for each"))
    }

    @Test func burstsInsideAnotherHostsTailCauseOnlyTheTailTheyAdd() throws {
        let model = try builtinModel("iphone-lte")
        let lte = try LTECosts(model)
        var run = TimelineBuilder()
        for poll in 0..<6 {
            let t = Double(poll) * 30
            run.net(t, .rx, bytes: 2_000, host: "feed.example.com")
            run.net(t + 3, .tx, bytes: 500, host: "poll.example.com")
        }
        let evaluation = evaluate(run.build(end: 200), model: model)
        let finding = try #require(evaluation.findings(of: id).first { $0.texts("endpoint") == ["poll.example.com"] })
        // feed.example.com wakes the radio each time; it is served at 0.26 s and would let the
        // radio go idle a tail later. The poll 3 s in finds the radio in that tail: no wake-up,
        // and the radio goes idle a tail after the poll instead, 2.74 s later. What that adds
        // is the part of a tail the poll cut short: its first 2.74 s.
        let each = lte.tail(over: 3 - lte.lte.promotionS.value)
        #expect(nearly(finding.energyJ, 6 * each))
        #expect(finding.number("wake-ups") == 0)
        #expect(finding.number("bursts while the radio was up") == 6)
        let radio = 6 * (lte.promotion + lte.transfer(2_000, .rx) + each + lte.transfer(500, .tx) + lte.tail)
        #expect(nearly(finding.number("share of radio energy"), 100 * 6 * each / radio))
        #expect(finding.severity == .warning)
        #expect(!finding.message.contains("woke the radio"))
        #expect(finding.message.contains("the radio was already up for every burst, so they never woke it; they lengthened its tail by \(fixed3(6 * each)) J"))
        // The host that woke the radio carries the promotions and the tails up to the polls.
        let feed = try #require(evaluation.findings(of: id).first { $0.texts("endpoint") == ["feed.example.com"] })
        #expect(feed.number("wake-ups") == 6)
        #expect(nearly(feed.energyJ, 6 * (lte.promotion + lte.tail)))
    }

    @Test func onWiFiEachPollWakesThePowerSaveRadio() throws {
        let wifi = TestModel.phone.radio.wifi  // no promotion; active until the answer, then the tail
        var run = TimelineBuilder()
        for poll in 0..<5 {
            run.net(Double(poll) * 20, .tx, bytes: 300, host: "poll.example.com", link: .wifi)
            run.net(Double(poll) * 20 + 0.2, .rx, bytes: 700, host: "poll.example.com", link: .wifi)
        }
        let finding = try #require(evaluate(run.build(end: 100)).findings(of: id).first)
        let each = 0.2 * wifi.activeW.value + wifi.tailS.value * wifi.tailW.value
        #expect(nearly(finding.energyJ, 5 * each))
        #expect(finding.number("wake-ups") == 5)
        #expect(finding.message.contains("the bursts woke the radio 5 times, costing \(fixed3(5 * each)) J of time awake"))
    }

    /// Polls every 60 s on Wi-Fi after a download spanning `download` seconds from 1 s: five
    /// polls, each a request and its answer 0.2 s later.
    func pollsAfterADownload(spanning download: Double) -> Timeline {
        var capture = CaptureBuilder()
        let cdn = capture.tcp(to: "cdn.example.com", link: .wifi)
        capture.packet(cdn, at: 1, .rx, bytes: 20_000_000, payload: 19_000_000, segments: 13_000, span: download)
        for poll in 0..<5 {
            capture.net(400 + Double(poll) * 60, .tx, bytes: 300, host: "poll.example.com", link: .wifi)
            capture.net(400.2 + Double(poll) * 60, .rx, bytes: 500, host: "poll.example.com", link: .wifi)
        }
        return capture.build(end: 700)
    }

    @Test func belowOnePercentOfTheRadioEnergyIsInfo() throws {
        let wifi = TestModel.phone.radio.wifi
        let polls = 5 * (0.2 * wifi.activeW.value + wifi.tailS.value * wifi.tailW.value)
        for (download, severity) in [(120.0, Severity.warning), (300, .info)] {
            let finding = try #require(evaluate(pollsAfterADownload(spanning: download)).findings(of: id).first)
            // The download keeps the radio active over its span, then tails.
            let radio = polls + download * wifi.activeW.value + wifi.tailS.value * wifi.tailW.value
            #expect(nearly(finding.energyJ, polls))
            #expect(nearly(finding.number("share of radio energy"), 100 * polls / radio))
            #expect(finding.severity == severity, "share \(polls / radio)")
        }
        // 0.907 J of 49.3 J is 1.8 %; of 121.9 J, 0.74 %. The info share is a parameter.
        let strict = try configuration("rules: { NET-PERIODIC: { info_share: 0.02 } }")
        #expect(evaluate(pollsAfterADownload(spanning: 120), configuration: strict).status(of: id) == .info)
    }

    @Test func pollsInsideALongDownloadCostNothingAndAreInfo() throws {
        let model = try builtinModel("iphone-lte")
        var capture = CaptureBuilder()
        let cdn = capture.tcp(to: "cdn.example.com")
        capture.packet(cdn, at: 0, .rx, bytes: 50_000_000, payload: 48_000_000, segments: 33_000, span: 200)
        for beat in 0..<9 { capture.net(10 + Double(beat) * 20, .tx, bytes: 120, host: "push.example.net") }
        let finding = try #require(evaluate(capture.build(end: 220), model: model).findings(of: id).first)
        // The download's span keeps the radio connected throughout: each heartbeat changes
        // nothing but its transfer, which is not counted.
        #expect(finding.energyJ == 0)
        #expect(finding.number("wake-ups") == 0)
        #expect(finding.severity == .info)
        #expect(finding.message.hasSuffix("the radio was already up for every burst, so they never woke it and added no measurable radio energy."))
    }

    @Test func aRequestAndItsAnswerWithinTheBurstGapAreOneBurst() throws {
        var run = TimelineBuilder()
        for poll in 0..<4 {
            run.net(Double(poll) * 20, .tx, bytes: 300, host: "api.example.com")
            run.net(Double(poll) * 20 + 0.9, .rx, bytes: 700, host: "api.example.com")
        }
        let finding = try #require(evaluate(run.build(end: 90)).findings(of: id).first)
        #expect(finding.number("bursts") == 4)
        #expect(finding.number("bytes") == 4000)
        #expect(nearly(finding.number("period"), 20))
        #expect(nearly(finding.timeRanges.first?.endS, 60.9))
    }

    @Test func aVariationOfExactlyAQuarterIsStillRegular() throws {
        // Intervals 30, 50, 50, 30 s: mean 40, population standard deviation 10, CV 0.25 (and
        // 0.25, 0.22 before the last one).
        let regular = try #require(evaluate(requests(at: [0, 30, 80, 130, 160]).build(end: 170)).findings(of: id).first)
        #expect(regular.number("interval variation") == 0.25)
        #expect(regular.number("period") == 40)
        #expect(regular.number("bursts") == 5)
        // A last interval of 29 s makes the CV 10.26 / 39.75 ≈ 0.258: the run ends before it,
        // with four bursts.
        let shorter = try #require(evaluate(requests(at: [0, 30, 80, 130, 159]).build(end: 170)).findings(of: id).first)
        #expect(shorter.number("bursts") == 4)
        #expect(nearly(shorter.number("period"), 130.0 / 3))
    }

    @Test func intervalsUpToThirtyMinutesCount() {
        #expect(evaluate(requests(at: [0, 1800, 3600, 5400]).build(end: 5500)).status(of: id) == .error)
        #expect(evaluate(requests(at: [0, 1801, 3602, 5403]).build(end: 5500)).status(of: id) == .pass)
    }

    @Test func aRunMustSpanAMinute() throws {
        #expect(evaluate(requests(at: [0, 20, 40, 60]).build(end: 70)).status(of: id) == .error)
        #expect(evaluate(requests(at: [0, 19.9, 39.8, 59.7]).build(end: 70)).status(of: id) == .pass)
        let shorter = try configuration("rules: { NET-PERIODIC: { min_span_s: 30 } }")
        #expect(evaluate(requests(at: [0, 10, 20, 30]).build(end: 40), configuration: shorter).status(of: id) == .error)
    }

    @Test func threeBurstsTwoSecondsApartAreNoPattern() {
        #expect(evaluate(requests(at: [0, 2, 4], link: .cellular).build(end: 20)).status(of: id) == .pass)
    }

    @Test func aBreakInTheRhythmStartsANewRun() throws {
        // Every 20 s, then every 90 s. The 20-s run is periodic and keeps its last poll (60 s);
        // the next run starts after it, at 150 s.
        let times = [0.0, 20, 40, 60, 150, 240, 330, 420]
        let finding = try #require(evaluate(requests(at: times).build(end: 430)).findings(of: id).first)
        #expect(finding.number("runs") == 2)
        #expect(finding.number("bursts") == 8)
        // (3 intervals of 20 s + 3 of 90 s) / 6
        #expect(nearly(finding.number("period"), 55))
        #expect(finding.number("longest run") == 270)
        #expect(finding.timeRanges.map(\.startS) == [0, 150])
    }

    @Test func endpointsAreJudgedSeparately() throws {
        var run = TimelineBuilder()
        for poll in 0..<4 {
            run.net(Double(poll) * 20, .tx, bytes: 300, host: "a.example.com")
            run.net(7 + Double(poll) * 33, .tx, bytes: 300, host: "b.example.com")
        }
        run.net(5, .tx, bytes: 300, host: "c.example.com")
        run.net(50, .tx, bytes: 300, host: "c.example.com")
        let findings = evaluate(run.build(end: 120)).findings(of: id)
        #expect(findings.map { $0.texts("endpoint") } == [["a.example.com"], ["b.example.com"]])
        #expect(findings.map { $0.number("period") } == [20, 33])
    }

    /// Bursts are grouped by host and radio: a host's regular polls over one radio stay a
    /// pattern beside its irregular traffic over the other, whichever radio it used first.
    @Test func eachRadioOfAnEndpointIsJudgedSeparately() throws {
        var run = TimelineBuilder()
        let irregular = [0.0, 7, 50, 58, 140, 149]
        for poll in 0..<6 {
            run.net(irregular[poll], .tx, bytes: 300, host: "poll.example.com", link: .cellular)
            run.net(3 + Double(poll) * 20, .tx, bytes: 300, host: "poll.example.com", link: .wifi)
            run.net(1 + Double(poll) * 31, .tx, bytes: 300, host: "other.example.com", link: .cellular)
            run.net(2 + irregular[poll], .tx, bytes: 300, host: "other.example.com", link: .wifi)
        }
        let findings = evaluate(run.build(end: 240)).findings(of: id)
        let patterns = findings.map { ($0.texts("endpoint"), $0.texts("link"), $0.number("bursts"), $0.number("period")) }
        #expect(patterns.count == 2, "\(patterns)")
        #expect(patterns.contains { $0 == (["poll.example.com"], ["Wi-Fi"], 6, 20) })
        #expect(patterns.contains { $0 == (["other.example.com"], ["cellular (LTE)"], 6, 31) })
    }

    @Test func theMinimumNumberOfBurstsIsAParameter() throws {
        let timeline = requests(at: [0, 30, 60]).build(end: 70)
        #expect(evaluate(timeline).status(of: id) == .pass)
        let three = try configuration("rules: { NET-PERIODIC: { min_bursts: 3 } }")
        #expect(evaluate(timeline, configuration: three).status(of: id) == .error)
    }

    @Test func trafficWithoutAHostAndOverEthernetIsNotJudged() {
        var run = TimelineBuilder()
        for poll in 0..<5 {
            run.net(Double(poll) * 30, .tx, bytes: 300)
            run.net(Double(poll) * 30, .tx, bytes: 300, host: "wired.example.com", link: .ethernet)
        }
        #expect(evaluate(run.build(end: 150)).status(of: id) == .pass)
    }

    @Test func aRunWithoutTrafficIsNotApplicable() {
        var run = TimelineBuilder()
        run.cpu(0, duration: 1)
        let result = evaluate(run.build(end: 5)).result(of: id)
        #expect(result?.status == .notApplicable)
        #expect(result?.reason == "the run records no network traffic (no net events)")
    }
}
