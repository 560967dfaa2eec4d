import DrainModel
import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct MemoryWarningResponseRuleTests {
    let id = "MEM-WARNING-RESPONSE"

    func response(before: Int64, after: Int64, at delay: Double = 0.5) -> RuleEvaluation {
        var run = TimelineBuilder()
        run.memory(9, footprint: before)
        run.memoryWarning(10)
        run.memory(10 + delay, footprint: after)
        return evaluate(run.build(end: 15))
    }

    @Test func aDropOfExactlyTenPercentAnswersTheWarning() {
        #expect(response(before: 500_000_000, after: 450_000_000).status(of: id) == .pass)
    }

    @Test func aSmallerDropWarnsWithTheNumbers() throws {
        let finding = try #require(response(before: 500_000_000, after: 455_000_000).findings(of: id).first)
        #expect(finding.severity == .warning)
        #expect(finding.number("warning time") == 10)
        #expect(finding.number("footprint before") == 500_000_000)
        #expect(finding.number("footprint after") == 455_000_000)
        #expect(abs((finding.number("change") ?? 0) - -9.0) < 1e-9)  // (455 − 500) / 500 = −9 %
        #expect(finding.number("latency") == 0.5)
        #expect(finding.number("required drop") == 10)
        #expect(finding.timeRanges == [TimeRange(startS: 10, endS: 10.5)])
    }

    @Test func aRiseIsAnError() throws {
        let finding = try #require(response(before: 500_000_000, after: 500_000_001).findings(of: id).first)
        #expect(finding.severity == .error)
        #expect((finding.number("change") ?? 0) > 0)
    }

    @Test func anUnchangedFootprintIsAWarningNotAnError() throws {
        let finding = try #require(response(before: 500_000_000, after: 500_000_000).findings(of: id).first)
        #expect(finding.severity == .warning)
    }

    @Test func theWindowEndsOneSecondAfterTheWarning() throws {
        #expect(response(before: 500_000_000, after: 400_000_000, at: 1.0).status(of: id) == .pass)
        let late = try #require(response(before: 500_000_000, after: 400_000_000, at: 1.001).result(of: id))
        #expect(late.status == .notApplicable)
        #expect(late.reason?.contains("1.00 s after") == true)
    }

    @Test func theLowestSampleInTheWindowIsTheResponse() throws {
        var run = TimelineBuilder()
        run.memory(9, footprint: 500_000_000)
        run.memoryWarning(10)
        run.memory(10.2, footprint: 520_000_000)
        run.memory(10.6, footprint: 440_000_000)
        run.memory(10.9, footprint: 600_000_000)
        #expect(evaluate(run.build(end: 12)).status(of: id) == .pass)
    }

    @Test func aSampleAtTheWarningsInstantIsTheFootprintBefore() throws {
        var run = TimelineBuilder()
        run.memory(9, footprint: 900_000_000)
        run.memoryWarning(10)
        run.memory(10, footprint: 500_000_000)
        run.memory(10.5, footprint: 480_000_000)
        let finding = try #require(evaluate(run.build(end: 12)).findings(of: id).first)
        #expect(finding.number("footprint before") == 500_000_000)
    }

    @Test func aWarningThatCannotBeJudgedBesideOneThatCanIsInfo() throws {
        var run = TimelineBuilder()
        run.memoryWarning(1)  // no sample before it
        run.memory(2, footprint: 500_000_000)
        run.memoryWarning(3)
        run.memory(3.5, footprint: 300_000_000)
        let evaluation = evaluate(run.build(end: 5))
        let findings = evaluation.findings(of: id)
        try #require(findings.count == 1)
        #expect(findings[0].severity == .info)
        #expect(findings[0].texts("missing") == ["no footprint sample at or before it"])
        #expect(evaluation.status(of: id) == .info)
    }
}

@Suite struct MemoryPeakRuleTests {
    let id = "MEM-PEAK"

    func peak(_ bytes: Int64, model: DeviceModel = TestModel.phone) -> RuleEvaluation {
        var run = TimelineBuilder()
        run.memory(0, footprint: 100_000_000)
        run.memory(2, footprint: bytes)
        run.memory(4, footprint: 100_000_000)
        return evaluate(run.build(end: 5), model: model)
    }

    @Test func thresholdsAreSharesOfTheModelLimit() {
        // The test model's limit is 2 GB: 80 % is 1.6 GB.
        #expect(peak(1_600_000_000).status(of: id) == .pass)
        #expect(peak(1_600_000_001).status(of: id) == .warning)
        #expect(peak(2_000_000_000).status(of: id) == .warning)
        #expect(peak(2_000_000_001).status(of: id) == .error)
    }

    @Test func theLimitComesFromTheModel() {
        let small = TestModel.make(memoryLimit: 1_000_000_000)
        #expect(peak(900_000_000, model: TestModel.phone).status(of: id) == .pass)
        #expect(peak(900_000_000, model: small).status(of: id) == .warning)
    }

    @Test func evidenceNamesPeakLimitShareAndTime() throws {
        let finding = try #require(peak(1_700_000_000).findings(of: id).first)
        #expect(finding.number("peak") == 1_700_000_000)
        #expect(finding.number("limit") == 2_000_000_000)
        #expect(abs((finding.number("share of limit") ?? 0) - 85) < 1e-9)
        #expect(finding.number("time of peak") == 2)
        #expect(finding.number("samples") == 3)
        #expect(finding.timeRanges == [TimeRange(startS: 2, endS: 4)])
        #expect(finding.energyJ == nil)
    }
}
