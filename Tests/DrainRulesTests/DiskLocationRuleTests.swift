import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct DiskLocationRuleTests {
    let id = "DISK-LOCATION"

    func write(_ paths: [String], bytes: Int64 = 1000) -> [Finding] {
        var run = TimelineBuilder()
        for (index, path) in paths.enumerated() { run.disk(Double(index), .write, bytes: bytes, path: path) }
        return evaluate(run.build(end: 60)).findings(of: id)
    }

    @Test(arguments: [
        ("/var/mobile/Containers/Data/Application/X/Documents/Caches/a.jpg", true),
        ("Documents/.cache/index", true),
        ("/Library/Application Support/tmp/download.part", true),
        ("/Users/me/Library/Preferences/TemporaryItems/x", true),
        ("Library/Caches/images/a.jpg", false),
        ("/Library/Caches/tmp/a", false),
        ("/tmp/upload.part", false),
        ("Documents/notes.txt", false),
        ("/Library/Application Support/store.sqlite", false),
        ("/data/Caches/a", false),
    ])
    func regenerableDataInBackedUpLocations(_ path: String, _ flagged: Bool) {
        #expect(write([path]).isEmpty == !flagged)
    }

    @Test func aboveTenMegabytesIsAWarning() throws {
        let path = "Documents/Caches/blob"
        #expect(write([path], bytes: 10_000_000).first?.severity == .info)
        let finding = try #require(write([path], bytes: 10_000_001).first)
        #expect(finding.severity == .warning)
        #expect(finding.number("bytes") == 10_000_001)
    }

    @Test func evidenceListsFilesByBytes() throws {
        var run = TimelineBuilder()
        run.disk(1, .write, bytes: 2_000, path: "Documents/tmp/a")
        run.disk(2, .write, bytes: 5_000, path: "Documents/tmp/b")
        run.disk(3, .write, bytes: 2_000, path: "Documents/tmp/a")
        run.disk(4, .write, bytes: 9_000, path: "Documents/keep.txt")
        run.disk(5, .read, bytes: 9_000, path: "Documents/tmp/c")
        let finding = try #require(evaluate(run.build(end: 10)).findings(of: id).first)
        #expect(finding.number("bytes") == 9_000)
        #expect(finding.number("files") == 2)
        #expect(finding.number("writes") == 3)
        #expect(finding.texts("path") == ["Documents/tmp/b: 5.00 KB in 1 writes", "Documents/tmp/a: 4.00 KB in 2 writes"])
        // 3 writes: 3 × 0.2 mJ + 0.009 MB × 10 mJ per MB.
        #expect(abs((finding.energyJ ?? 0) - (3 * TestModel.diskPerOpJ + 0.009 * TestModel.diskPerMbJ)) < 1e-12)
        #expect(finding.timeRanges == [TimeRange(startS: 1, endS: 3)])
    }

    @Test func writesWithoutPathsAreNotApplicable() {
        var run = TimelineBuilder()
        run.disk(1, .write, bytes: 100)
        run.disk(2, .read, bytes: 100, path: "Documents/tmp/x")
        #expect(evaluate(run.build(end: 5)).status(of: id) == .notApplicable)
    }
}
