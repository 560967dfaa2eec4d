import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct CPUPollingRuleTests {
    let id = "CPU-POLLING"

    func polls(_ run: inout TimelineBuilder, count: Int, from start: Double, every interval: Double, source: String) {
        for index in 0..<count { run.poll(start + Double(index) * interval, source: source, interval: interval) }
    }

    @Test func tenChecksOneSecondApartAreFlagged() throws {
        var run = TimelineBuilder()
        polls(&run, count: 10, from: 0, every: 1.0, source: "mailbox")
        let finding = try #require(evaluate(run.build(end: 10)).findings(of: id).first)
        #expect(finding.severity == .warning)
        #expect(finding.number("polls") == 10)
        #expect(finding.number("interval") == 1)
    }

    @Test func checksJustOverTheIntervalAreNotPolling() {
        var run = TimelineBuilder()
        polls(&run, count: 30, from: 0, every: 1.01, source: "mailbox")
        #expect(evaluate(run.build(end: 31)).status(of: id) == .pass)
    }

    @Test func evidenceCountsIntervalAndEnergy() throws {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        polls(&run, count: 25, from: 2, every: 0.1, source: "socket")
        let finding = try #require(evaluate(run.build(end: 5)).findings(of: id).first)
        #expect(finding.texts("source") == ["socket"])
        #expect(finding.number("polls") == 25)
        #expect(finding.number("runs") == 1)
        #expect(abs((finding.number("interval") ?? 0) - 0.1) < 1e-9)
        #expect(finding.number("background polls") == 0)
        // Every poll is priced as one wakeup: 25 × 3.95 mJ.
        #expect(abs((finding.energyJ ?? 0) - 25 * TestModel.wakeupJ) < 1e-12)
        let range = try #require(finding.timeRanges.first)
        #expect(range.startS == 2 && abs(range.endS - 4.4) < 1e-9)
    }

    @Test func nineBackgroundChecksKeepAWarningAndTenMakeAnError() throws {
        func run(backgroundAt: Double) -> Finding? {
            var run = TimelineBuilder()
            run.lifecycle(0, .active)
            run.lifecycle(backgroundAt, .background)
            polls(&run, count: 20, from: 0, every: 0.5, source: "queue")  // polls at 0.0 … 9.5
            return evaluate(run.build(end: 12)).findings(of: id).first
        }
        let nine = try #require(run(backgroundAt: 5.25))  // polls at 5.5 … 9.5: 9 in the background
        #expect(nine.severity == .warning)
        #expect(nine.number("background polls") == 9)
        let ten = try #require(run(backgroundAt: 4.75))  // polls at 5.0 … 9.5: 10 in the background
        #expect(ten.severity == .error)
        #expect(ten.number("background polls") == 10)
    }

    @Test func sourcesAreJudgedSeparately() throws {
        var run = TimelineBuilder()
        polls(&run, count: 12, from: 0, every: 0.2, source: "a")
        polls(&run, count: 4, from: 0.1, every: 0.2, source: "b")
        let findings = evaluate(run.build(end: 3)).findings(of: id)
        #expect(findings.map { $0.texts("source") } == [["a"]])
    }

    @Test func runsFromFiveToNineChecksAreInfo() throws {
        func severity(_ count: Int, configuration: RuleConfiguration = RuleConfiguration()) -> Severity? {
            var run = TimelineBuilder()
            polls(&run, count: count, from: 0, every: 0.2, source: "flag file")
            return evaluate(run.build(end: 3), configuration: configuration).findings(of: id).first?.severity
        }
        #expect(severity(4) == nil)
        #expect(severity(5) == .info && severity(9) == .info)
        #expect(severity(10) == .warning)
        let noInfo = try configuration("rules: { CPU-POLLING: { info_count: 10 } }")
        #expect(severity(9, configuration: noInfo) == nil && severity(10, configuration: noInfo) == .warning)
        let five = try #require({
            var run = TimelineBuilder()
            polls(&run, count: 5, from: 0, every: 0.2, source: "flag file")
            return evaluate(run.build(end: 3)).findings(of: id).first
        }())
        #expect(five.number("polls") == 5 && five.number("longest run") == 5)
        #expect(abs((five.number("interval") ?? 0) - 0.2) < 1e-9)
        // Each poll is one wakeup of the test model.
        #expect(abs((five.energyJ ?? 0) - 5 * TestModel.wakeupJ) < 1e-12)
    }

    @Test func aChangeOfIntervalStartsANewRunFromTheLastCheck() throws {
        var run = TimelineBuilder()
        polls(&run, count: 4, from: 0.5, every: 0.5, source: "s")  // 0.5 … 2.0, too few
        polls(&run, count: 9, from: 2.1, every: 0.1, source: "s")  // 2.1 … 2.9: with 2.0, ten at 0.1 s
        let finding = try #require(evaluate(run.build(end: 4)).findings(of: id).first)
        #expect(finding.number("polls") == 10)
        #expect(finding.timeRanges.first?.startS == 2)
    }

    @Test func twoRunsOfOneSourceMakeOneFindingWithTwoRanges() throws {
        var run = TimelineBuilder()
        polls(&run, count: 10, from: 0, every: 0.1, source: "s")
        polls(&run, count: 15, from: 10, every: 0.2, source: "s")
        let finding = try #require(evaluate(run.build(end: 15)).findings(of: id).first)
        #expect(finding.number("runs") == 2)
        #expect(finding.number("polls") == 25)
        #expect(finding.number("longest run") == 15)
        // Mean gap over both runs: (9 × 0.1 + 14 × 0.2) / 23 s.
        #expect(abs((finding.number("interval") ?? 0) - (9 * 0.1 + 14 * 0.2) / 23) < 1e-9)
        #expect(finding.timeRanges.count == 2)
    }
}
