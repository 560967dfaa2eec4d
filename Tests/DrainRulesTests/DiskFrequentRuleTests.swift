import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct DiskFrequentRuleTests {
    let id = "DISK-FREQUENT"

    @Test func sixtyOneWritesWithinAMinuteWarn() throws {
        var run = TimelineBuilder()
        for index in 0..<61 { run.disk(Double(index) * 0.98, .write, bytes: 10_000, path: "/d/\(index % 2).bin") }
        let findings = evaluate(run.build(end: 70)).findings(of: id)
        let finding = try #require(findings.first { $0.title == "Frequent disk writes" })
        #expect(finding.number("writes in window") == 61)
        #expect(finding.number("threshold") == 60)
        #expect(finding.number("bytes written") == 610_000)
        #expect(finding.number("files") == 2)
        #expect(finding.texts("file") == ["/d/0.bin: 31 writes", "/d/1.bin: 30 writes"])
        // 61 writes × (0.2 mJ per op + 0.01 MB × 10 mJ per MB) = 61 × 0.3 mJ.
        #expect(abs((finding.energyJ ?? 0) - 61 * (TestModel.diskPerOpJ + 0.01 * TestModel.diskPerMbJ)) < 1e-12)
    }

    @Test func sixtyOneWritesSpanningExactlySixtySecondsFitNoHalfOpenMinute() {
        var run = TimelineBuilder()
        for index in 0...60 { run.disk(Double(index), .write, bytes: 10_000, path: "/d/a.bin") }
        #expect(evaluate(run.build(end: 60)).findings(of: id).isEmpty)
    }

    @Test func theBusiestMinuteCountsNotTheAverage() throws {
        var run = TimelineBuilder()
        for index in 0..<70 { run.disk(100 + Double(index) * 0.5, .write, bytes: 8192, path: "/d/burst.bin") }
        let finding = try #require(evaluate(run.build(end: 3600)).findings(of: id).first)
        #expect(finding.number("writes in window") == 70)
        #expect(finding.timeRanges == [TimeRange(startS: 100, endS: 134.5)])
    }

    @Test func fsyncRateIsAveragedOverTheWindow() throws {
        func flushes(_ count: Int) -> [Finding] {
            var run = TimelineBuilder()
            for index in 0..<count { run.disk(Double(index) * 0.9, .fsync, path: "/d/store.db") }
            return evaluate(run.build(end: 60)).findings(of: id)
        }
        #expect(flushes(60).isEmpty)  // 60 within 60 s: 1 per second, not more
        let finding = try #require(flushes(61).first)
        #expect(finding.title == "Frequent disk flushes")
        #expect(finding.number("fsyncs in window") == 61)
        #expect(finding.number("threshold") == 60)
        #expect(abs((finding.energyJ ?? 0) - 61 * TestModel.diskPerFsyncJ) < 1e-12)
    }

    @Test func smallWritesAreBelowFourKiB() throws {
        func appends(bytes: Int64) -> [Finding] {
            var run = TimelineBuilder()
            for index in 0..<20 { run.disk(Double(index) * 10, .write, bytes: bytes, path: "/d/app.log") }
            run.disk(100, .fsync, path: "/d/app.log")
            return evaluate(run.build(end: 200)).findings(of: id)
        }
        #expect(appends(bytes: 4096).isEmpty)
        let finding = try #require(appends(bytes: 4095).first)
        #expect(finding.title == "Small writes to one file")
        #expect(finding.texts("file") == ["/d/app.log"])
        #expect(finding.number("small writes") == 20)
        #expect(finding.number("bytes written") == Double(20 * 4095))
        #expect(finding.number("fsyncs") == 1)
        // 20 writes × (0.2 mJ + 0.004095 MB × 10 mJ/MB) + one fsync of 3 mJ.
        let expected = 20 * (TestModel.diskPerOpJ + 0.004095 * TestModel.diskPerMbJ) + TestModel.diskPerFsyncJ
        #expect(abs((finding.energyJ ?? 0) - expected) < 1e-9)
        #expect(finding.timeRanges == [TimeRange(startS: 0, endS: 190)])
    }

    @Test func smallWritesCountPerFile() {
        var run = TimelineBuilder()
        for index in 0..<30 { run.disk(Double(index) * 10, .write, bytes: 100, path: "/d/\(index % 2).log") }
        #expect(evaluate(run.build(end: 300)).findings(of: id).isEmpty)  // 15 small writes to each file
    }

    @Test func readsAloneAreApplicableAndPass() {
        var run = TimelineBuilder()
        for index in 0..<200 { run.disk(Double(index) * 0.1, .read, bytes: 100, path: "/d/in.bin") }
        #expect(evaluate(run.build(end: 20)).status(of: id) == .pass)
    }
}
