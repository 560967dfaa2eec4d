import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct DiskVolumeRuleTests {
    let id = "DISK-VOLUME"

    /// Ten writes adding up to `bytes`, one every sixteenth of the run, and a large read,
    /// which does not count. By default the run lasts 864 s: a day is exactly 100 runs, so
    /// the projection is `bytes` × 100.
    func written(_ bytes: Int64, runSeconds: Double = 864) -> RuleEvaluation {
        var run = TimelineBuilder()
        for write in 0..<10 {
            let share = bytes / 10 + (write < bytes % 10 ? 1 : 0)
            run.disk(Double(write) * runSeconds / 16, .write, bytes: share, path: "/d/log")
        }
        run.disk(runSeconds * 0.9, .read, bytes: 5_000_000_000, path: "/d/log")
        return evaluate(run.build(end: runSeconds))
    }

    @Test func projectionsAboveOneGigabyteWarn() throws {
        #expect(written(10_000_000).status(of: id) == .pass)  // 1,000,000,000 B a day: not above
        let finding = try #require(written(10_000_001).findings(of: id).first)
        #expect(finding.severity == .warning)
        #expect(finding.number("bytes written") == 10_000_001)
        #expect(finding.number("writes") == 10)
        #expect(finding.number("run length") == 864)
        #expect(abs((finding.number("rate") ?? 0) - 10_000_001.0 / 864) < 1e-9)
        #expect(finding.number("projection") == 1_000_000_100)
        #expect(finding.number("threshold") == 1_000_000_000)
        #expect(finding.timeRanges == [TimeRange(startS: 0, endS: 486)])  // the tenth write, 9 × 864 s / 16
    }

    @Test func projectionsAboveTheSystemLimitAreErrors() throws {
        // The limit, 1,073,741,824 B a day, is 10,737,418.24 B over 864 s.
        #expect(written(10_737_418).findings(of: id).first?.severity == .warning)
        let finding = try #require(written(10_737_419).findings(of: id).first)
        #expect(finding.severity == .error)
        #expect(finding.number("projection") == 1_073_741_900)
        #expect(finding.number("threshold") == 1_073_741_824)
    }

    @Test func runsShorterThanAMinuteAreNotProjected() {
        #expect(written(1_000_000_000, runSeconds: 59.9).status(of: id) == .notApplicable)
        #expect(written(1_000_000_000, runSeconds: 60).findings(of: id).first?.severity == .error)
    }
}
