import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct DiskRewriteRuleTests {
    let id = "DISK-REWRITE"

    /// `count` writes of `bytes` to one file whose size after each write is `size`.
    func saves(_ count: Int, bytes: Int64, size: Int64?) -> [Finding] {
        var run = TimelineBuilder()
        for save in 0..<count { run.disk(Double(save) * 10, .write, bytes: bytes, path: "/d/settings.json", fileSize: size) }
        return evaluate(run.build(end: 60)).findings(of: id)
    }

    @Test func threeWholeWritesAreFlagged() throws {
        #expect(saves(2, bytes: 1_000_000, size: 1_000_000).isEmpty)
        let finding = try #require(saves(3, bytes: 1_000_000, size: 1_000_000).first)
        #expect(finding.severity == .warning)
        #expect(finding.texts("file") == ["/d/settings.json"])
        #expect(finding.number("rewrites") == 3)
        #expect(finding.number("whole writes") == 3)
        #expect(finding.number("truncate rewrites") == 0)
        #expect(finding.number("bytes rewritten") == 3_000_000)
        #expect(finding.number("average rewrite") == 1_000_000)
        // 3 × (0.2 mJ per operation + 1 MB × 10 mJ per MB).
        #expect(abs((finding.energyJ ?? 0) - 3 * (TestModel.diskPerOpJ + TestModel.diskPerMbJ)) < 1e-12)
        #expect(finding.timeRanges == [TimeRange(startS: 0, endS: 20)])
    }

    @Test func aWholeWriteIsAtLeastNinetyPercentOfTheFile() {
        #expect(saves(3, bytes: 900, size: 1000).count == 1)
        #expect(saves(3, bytes: 899, size: 1000).isEmpty)
        #expect(saves(3, bytes: 1000, size: nil).isEmpty)  // unknown size: not judged
    }

    @Test func truncateThenWriteIsOneRewriteWithItsFollowingWrites() throws {
        var run = TimelineBuilder()
        for save in 0..<3 {
            let time = Double(save) * 5
            run.disk(time, .truncate, path: "/d/state.json", fileSize: 0)
            run.disk(time + 0.1, .write, bytes: 30_000, path: "/d/state.json")
            run.disk(time + 0.2, .write, bytes: 20_000, path: "/d/state.json")
        }
        let finding = try #require(evaluate(run.build(end: 20)).findings(of: id).first)
        #expect(finding.number("rewrites") == 3)
        #expect(finding.number("truncate rewrites") == 3)
        #expect(finding.number("bytes rewritten") == 150_000)
        // 3 truncates at 0.2 mJ, 6 writes at 0.2 mJ, and 0.15 MB at 10 mJ per MB.
        #expect(abs((finding.energyJ ?? 0) - (9 * TestModel.diskPerOpJ + 0.15 * TestModel.diskPerMbJ)) < 1e-12)
        #expect(finding.timeRanges == [TimeRange(startS: 0, endS: 10.2)])
    }

    @Test func aTruncateThatKeepsContentStartsNoRewrite() {
        var run = TimelineBuilder()
        for save in 0..<3 {
            run.disk(Double(save), .truncate, path: "/d/db-wal", fileSize: 4096)
            run.disk(Double(save) + 0.1, .write, bytes: 100, path: "/d/db-wal")
        }
        #expect(evaluate(run.build(end: 5)).status(of: id) == .pass)
    }

    @Test func rewritesAreCountedPerFileAndNeedAPath() {
        var run = TimelineBuilder()
        for save in 0..<4 {
            run.disk(Double(save), .write, bytes: 500, path: "/d/\(save % 2).json", fileSize: 500)
            run.disk(Double(save), .write, bytes: 500, fileSize: 500)
        }
        #expect(evaluate(run.build(end: 5)).status(of: id) == .pass)
    }
}
