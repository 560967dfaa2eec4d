import DrainModel
import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct NetPeriodicTests {
    let id = "NET-PERIODIC"

    /// Single 500-byte requests to one host at `times`, on the model's default link.
    func requests(at times: [Double], host: String = "poll.example.com") -> TimelineBuilder {
        var run = TimelineBuilder()
        for t in times { run.net(t, .tx, bytes: 500, host: host) }
        return run
    }

    @Test func aPollEveryThirtySecondsOnLTECostsAPromotionAndATailEachTime() throws {
        let model = try builtinModel("iphone-lte")  // default link: cellular, LTE
        let lte = try LTECosts(model)
        let times = (0..<6).map { 10 + Double($0) * 30 }
        let finding = try #require(evaluate(requests(at: times).build(end: 200), model: model).findings(of: id).first)
        // 30 s apart is longer than the 10.12 s tail: every poll finds the radio idle and pays
        // promotion 0.26 s × 1.21 W, 500 B × α_up, and the tail (0.1 s × β + short + long DRX).
        let each = lte.promotion + lte.transfer(500, .tx) + lte.tail
        #expect(nearly(finding.energyJ, 6 * each))
        #expect(nearly(finding.number("radio energy"), 6 * each))
        #expect(finding.texts("endpoint") == ["poll.example.com"])
        #expect(finding.number("period") == 30)
        #expect(finding.number("bursts") == 6)
        #expect(finding.number("bytes") == 3000)
        #expect(finding.number("interval variation") == 0)
        // The polls are all the radio did: 100 % of the radio energy, above 25 %.
        #expect(nearly(finding.number("share of radio energy"), 100))
        #expect(finding.severity == .error)
        #expect(finding.timeRanges.count == 1)
        #expect(finding.timeRanges.first?.startS == 10 && finding.timeRanges.first?.endS == 160)
    }

    @Test func pollsBesideALargerDownloadAreAWarningWithTheirShare() throws {
        let model = try builtinModel("iphone-lte")
        let lte = try LTECosts(model)
        var capture = CaptureBuilder()
        for t in (0..<6).map({ 10 + Double($0) * 30 }) { capture.net(t, .tx, bytes: 500, host: "poll.example.com") }
        let cdn = capture.tcp(to: "cdn.example.com")
        capture.packet(cdn, at: 200, .rx, bytes: 1_000_000, payload: 960_000, segments: 700, span: 200)
        let finding = try #require(evaluate(capture.build(end: 420), model: model).findings(of: id).first)
        let polls = 6 * (lte.promotion + lte.transfer(500, .tx) + lte.tail)
        // The download promotes at 200 s, stays in continuous reception until its span ends at
        // 400 s (β from the end of the promotion), then tails.
        let download = lte.promotion + (200 - lte.lte.promotionS.value) * lte.lte.connectedW.value
            + lte.transfer(1_000_000, .rx) + lte.tail
        #expect(nearly(finding.energyJ, polls))
        #expect(nearly(finding.number("share of radio energy"), 100 * polls / (polls + download)))
        #expect(polls / (polls + download) < 0.25)
        #expect(finding.severity == .warning)
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
        // Intervals 30 s and 50 s: mean 40, population standard deviation 10, CV 0.25.
        let regular = try #require(evaluate(requests(at: [0, 30, 80]).build(end: 90)).findings(of: id).first)
        #expect(regular.number("interval variation") == 0.25)
        #expect(regular.number("period") == 40)
        // Intervals 30 s and 51 s: CV 10.5 / 40.5 ≈ 0.259.
        #expect(evaluate(requests(at: [0, 30, 81]).build(end: 90)).findings(of: id).isEmpty)
    }

    @Test func intervalsUpToThirtyMinutesCount() {
        #expect(evaluate(requests(at: [0, 1800, 3600]).build(end: 3700)).status(of: id) == .error)
        #expect(evaluate(requests(at: [0, 1801, 3602]).build(end: 3700)).status(of: id) == .pass)
    }

    @Test func aBreakInTheRhythmStartsANewRun() throws {
        // Every 10 s, then every 60 s. The 10-s run is periodic and keeps its last poll (30 s);
        // the next run starts after it, at 90 s.
        let times = [0.0, 10, 20, 30, 90, 150, 210]
        let finding = try #require(evaluate(requests(at: times).build(end: 220)).findings(of: id).first)
        #expect(finding.number("runs") == 2)
        #expect(finding.number("bursts") == 7)
        // (3 intervals of 10 s + 2 of 60 s) / 5
        #expect(nearly(finding.number("period"), 30))
        #expect(finding.timeRanges.map(\.startS) == [0, 90])
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

    @Test func theMinimumNumberOfBurstsIsAParameter() throws {
        let timeline = requests(at: [0, 30]).build(end: 40)
        #expect(evaluate(timeline).status(of: id) == .pass)
        let two = try configuration("rules: { NET-PERIODIC: { min_bursts: 2 } }")
        #expect(evaluate(timeline, configuration: two).status(of: id) == .error)
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
