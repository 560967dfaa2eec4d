import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct NetBackgroundRuleTests {
    let id = "NET-BACKGROUND"

    /// Active from 0 s, a foreground request at 2 s, background from 10 s, then `transfers`.
    func run(_ transfers: (inout TimelineBuilder) -> Void) -> Timeline {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.net(2, .tx, bytes: 4_000, host: "api.example.com", link: .cellular)
        run.lifecycle(10, .background)
        transfers(&run)
        return run.build(end: 60)
    }

    @Test func aLateUploadWarnsWithItsRadioEnergy() throws {
        let timeline = run { $0.net(30, .tx, bytes: 50_000, host: "sync.example.com", link: .cellular) }
        let finding = try #require(evaluate(timeline).findings(of: id).first)
        #expect(finding.severity == .warning)
        #expect(finding.number("entered background") == 10)
        #expect(finding.number("transfers") == 1)
        #expect(finding.number("bytes sent") == 50_000 && finding.number("bytes received") == 0)
        #expect(finding.number("first transfer") == 30 && finding.number("last transfer end") == 30)
        #expect(finding.texts("busiest host") == ["sync.example.com"])
        #expect(finding.texts("states") == ["background"])
        // The radio went idle after the 2 s request's tail (10.12 s long), so the upload at
        // 30 s pays a promotion, its transfer and a whole tail.
        let lte = try LTECosts(TestModel.phone)
        #expect(lte.tailSeconds + 2 < 30)
        let expected = lte.isolated(50_000, .tx)
        #expect(nearly(finding.number("radio energy"), expected, tolerance: 1e-6))
        #expect(nearly(finding.energyJ, expected, tolerance: 1e-6))
        #expect(finding.timeRanges == [TimeRange(startS: 30, endS: 30)])
    }

    @Test func theGraceIsExclusive() {
        #expect(evaluate(run { $0.net(15, .tx, bytes: 1_000, link: .wifi) }).status(of: id) == .pass)
        #expect(evaluate(run { $0.net(15.001, .tx, bytes: 1_000, link: .wifi) }).status(of: id) == .warning)
    }

    @Test func theGraceIsConfigurable() throws {
        let timeline = run { $0.net(30, .rx, bytes: 1_000, link: .wifi) }
        #expect(evaluate(timeline).status(of: id) == .warning)
        let relaxed = try configuration("rules: { NET-BACKGROUND: { grace_s: 20 } }")
        #expect(evaluate(timeline, configuration: relaxed).status(of: id) == .pass)
        let strict = try configuration("rules: { NET-BACKGROUND: { grace_s: 19.5 } }")
        #expect(evaluate(timeline, configuration: strict).status(of: id) == .warning)
    }

    @Test func bytesAddUpPerStretchAndTheBusiestHostLeads() throws {
        let timeline = run {
            $0.net(20, .tx, bytes: 300, host: "a.example.com", link: .wifi)
            $0.net(21, .rx, bytes: 900, host: "b.example.com", link: .wifi)
            $0.net(22, .tx, bytes: 700, host: "a.example.com", link: .wifi)
            $0.lifecycle(25, .suspended)
            $0.net(40, .rx, bytes: 100, host: "a.example.com", link: .wifi)
        }
        let finding = try #require(evaluate(timeline).findings(of: id).first)
        #expect(finding.number("transfers") == 4)
        #expect(finding.number("bytes sent") == 1_000 && finding.number("bytes received") == 1_000)
        // a.example.com: 300 + 700 + 100 = 1,100 B; b.example.com: 900 B.
        #expect(finding.texts("busiest host") == ["a.example.com"])
        #expect(finding.texts("states") == ["background, suspended"])
        #expect(finding.timeRanges == [TimeRange(startS: 20, endS: 40)])
    }

    @Test func eachBackgroundStretchIsOneOccurrence() throws {
        let timeline = run {
            $0.net(20, .tx, bytes: 500, link: .wifi)
            $0.lifecycle(30, .active)
            $0.net(31, .tx, bytes: 500, link: .wifi)
            $0.lifecycle(40, .background)
            $0.lifecycle(41, .suspended)
            $0.net(50, .rx, bytes: 800, link: .wifi)
        }
        let occurrences = ruleFindings(NetBackgroundRule.self, timeline)
        #expect(occurrences.map { $0.number("entered background") } == [10, 40])
        #expect(occurrences.map { $0.number("bytes sent") } == [500, 0])
        #expect(occurrences.map { $0.texts("states") } == [["background"], ["suspended"]])
        #expect(isMerged(evaluate(timeline).findings(of: id), from: occurrences))
    }

    @Test func loopbackTrafficIsNotARadioTransfer() {
        let timeline = run { $0.net(30, .tx, bytes: 50_000, host: "localhost", link: .loopback) }
        #expect(evaluate(timeline).status(of: id) == .pass)
        var loopbackOnly = TimelineBuilder()
        loopbackOnly.lifecycle(0, .active)
        loopbackOnly.lifecycle(10, .background)
        loopbackOnly.net(30, .tx, bytes: 500, link: .loopback)
        #expect(evaluate(loopbackOnly.build(end: 60)).status(of: id) == .notApplicable)
    }

    @Test func runsWithoutALifecycleOrABackgroundAreNotJudged() {
        var noLifecycle = TimelineBuilder()
        noLifecycle.net(30, .tx, bytes: 500, link: .cellular)
        let unjudged = evaluate(noLifecycle.build(end: 60)).result(of: id)
        #expect(unjudged?.status == .notApplicable)
        var foreground = TimelineBuilder()
        foreground.lifecycle(0, .active)
        foreground.net(30, .tx, bytes: 500, link: .cellular)
        #expect(evaluate(foreground.build(end: 60)).status(of: id) == .notApplicable)
    }
}
