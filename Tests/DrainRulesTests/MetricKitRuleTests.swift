import DrainModel
import DrainReport
import DrainRules
import DrainTrace
import Testing

/// Rules on runs of MetricKit aggregates: hand-derived projections, and rules that need
/// events finding such runs not applicable.
@Suite struct MetricKitRuleTests {
    static func run(seconds: Double = 86_400, _ fill: (inout MetricAggregates) -> Void) -> Timeline {
        var aggregates = MetricAggregates()
        aggregates.metricPayloads = 1
        aggregates.metricSeconds = seconds
        fill(&aggregates)
        var timeline = Timeline()
        timeline.aggregates = aggregates
        timeline.end = Clock.nanoseconds(seconds)
        return timeline
    }

    @Test func logicalWritesAreProjectedFromThePayloadWindow() throws {
        // 80,000 kB over 24 h projects to 80,000,000 B a day: below the 1 GB warning level.
        let day = evaluate(Self.run { $0.logicalWriteBytes = 80_000_000 })
        #expect(day.status(of: "DISK-VOLUME") == .pass)
        // The same 80,000 kB over 1 h projects to 80,000,000 × 24 = 1,920,000,000 B a day,
        // above the 1,073,741,824 B limit: an error.
        let hour = evaluate(Self.run(seconds: 3600) { $0.logicalWriteBytes = 80_000_000 })
        let finding = try #require(hour.findings(of: "DISK-VOLUME").first)
        #expect(finding.severity == .error)
        #expect(finding.number("projection") == 1_920_000_000)
        // 1,000,000 kB in a day is between the 1 GB warning and the 1073.74 MB limit.
        let warning = evaluate(Self.run { $0.logicalWriteBytes = 1_050_000_000 })
        #expect(warning.findings(of: "DISK-VOLUME").first?.severity == .warning)
    }

    @Test func rulesThatNeedEventsAreNotApplicableToAggregates() {
        let evaluation = evaluate(Self.run { $0.cpuTimeS = 100 })
        let aggregateRules = Set(RuleEngine.allRules.filter { $0 is any AggregateRule.Type }.map { $0.description.id })
        #expect(aggregateRules.contains("DISK-VOLUME"))
        for result in evaluation.results where !aggregateRules.contains(result.id) {
            #expect(result.status == .notApplicable, "\(result.id)")
            #expect(result.reason?.contains("MetricKit payloads are aggregates") == true, "\(result.id)")
        }
        #expect(evaluation.result(of: "DISK-VOLUME")?.reason?.contains("no logical writes") == true)
    }

    @Test func memoryLimitExitsAreEvidenceOfAMemoryPeakError() throws {
        let evaluation = evaluate(Self.run {
            $0.peakMemoryBytes = TestModel.memoryLimit * 0.5
            $0.exits = [.init(reason: "MemoryResourceLimit", foreground: 2)]
        })
        let finding = try #require(evaluation.findings(of: "MEM-PEAK").first)
        #expect(finding.severity == .error)
        #expect(finding.number("memory-limit exits") == 2)
        #expect(finding.number("share of limit") == 50)
    }

    @Test func aggregatesAndEventsAreJudgedTogether() throws {
        var run = TimelineBuilder()
        for write in 0..<12 { run.disk(Double(write) * 10, .write, bytes: 1_000_000, path: "/data/cache.bin") }
        var timeline = run.build(end: 120)
        timeline.aggregates = Self.run(seconds: 0) { $0.diskWriteExceptions = [.init(writesCausedBytes: 2_000)] }.aggregates
        let findings = evaluate(timeline).findings(of: "DISK-VOLUME")
        #expect(findings.count == 2)
        #expect(findings.contains { $0.title == "Disk-write exception" && $0.number("writes caused") == 2000 })
    }
}
