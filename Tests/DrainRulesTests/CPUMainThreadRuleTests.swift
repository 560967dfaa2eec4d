import DrainReport
import DrainRules
import DrainTrace
import Testing

@Suite struct CPUMainThreadRuleTests {
    let id = "CPU-MAIN-THREAD"

    func slice(_ duration: Double, thread: String = "main") -> [Finding] {
        var run = TimelineBuilder()
        run.cpu(0.5, duration: 0.01, name: "tap", thread: "main")
        run.cpu(1, duration: duration, name: "layout", thread: thread)
        return evaluate(run.build(end: 5)).findings(of: id)
    }

    @Test func sliceSeveritiesAtTheirThresholds() {
        #expect(slice(0.1).isEmpty)
        #expect(slice(0.100001).map(\.severity) == [.warning])
        #expect(slice(0.25).map(\.severity) == [.warning])
        #expect(slice(0.250001).map(\.severity) == [.error])
        #expect(slice(2, thread: "worker").isEmpty)
    }

    @Test func longSlicesCarryTheirNamesAndDurations() throws {
        var run = TimelineBuilder()
        run.cpu(1, duration: 0.15, name: "layout", thread: "main")
        run.cpu(3, duration: 0.4, name: "decode", thread: "main")
        run.cpu(4, duration: 0.05, name: "draw", thread: "main")
        let finding = try #require(evaluate(run.build(end: 5)).findings(of: id).first)
        #expect(finding.title == "Main thread hang")
        #expect(finding.number("long slices") == 2)
        #expect(abs((finding.number("longest") ?? 0) - 400) < 1e-9)
        #expect(abs((finding.number("time in long slices") ?? 0) - 0.55) < 1e-12)
        #expect(finding.texts("slice") == ["decode: 400.0 ms at 3.00 s", "layout: 150.0 ms at 1.00 s"])
        // 0.55 s of main-thread work at the model's 1.2 W = 0.66 J.
        #expect(abs((finding.energyJ ?? 0) - 0.55 * 1.2) < 1e-12)
        #expect(finding.timeRanges == [TimeRange(startS: 1, endS: 1.15), TimeRange(startS: 3, endS: 3.4)])
    }

    @Test func anyIOOnTheMainThreadWarns() throws {
        var run = TimelineBuilder()
        run.cpu(0, duration: 0.01, thread: "main")
        run.disk(1, .write, bytes: 20_000, path: "/d/state.json", thread: "main")
        run.disk(2, .write, bytes: 30_000, path: "/d/state.json", thread: "main")
        run.disk(3, .write, bytes: 1_000_000, path: "/d/blob", thread: "io")
        let finding = try #require(evaluate(run.build(end: 5)).findings(of: id).first)
        #expect(finding.title == "I/O on the main thread")
        #expect(finding.severity == .warning)
        #expect(finding.number("disk events") == 2)
        #expect(finding.number("network events") == 0)
        #expect(finding.number("bytes") == 50_000)
        #expect(finding.texts("operation") == ["disk write /d/state.json: 2"])
        // Two writes: 2 × 0.2 mJ per operation + 0.05 MB × 10 mJ per MB.
        #expect(abs((finding.energyJ ?? 0) - (2 * TestModel.diskPerOpJ + 0.05 * TestModel.diskPerMbJ)) < 1e-12)
        #expect(finding.timeRanges == [TimeRange(startS: 1, endS: 2)])
    }

    @Test func networkOnTheMainThreadIsNamedByHost() throws {
        var run = TimelineBuilder()
        run.net(1, .tx, bytes: 300, host: "api.example.com", thread: "main")
        let finding = try #require(evaluate(run.build(end: 5)).findings(of: id).first)
        #expect(finding.texts("operation") == ["net api.example.com: 1"])
    }

    @Test func withoutAMainThreadTheRuleIsNotApplicable() {
        var run = TimelineBuilder()
        run.cpu(1, duration: 1, thread: "7")
        run.disk(2, .write, bytes: 1, path: "main")
        #expect(evaluate(run.build(end: 5)).status(of: id) == .notApplicable)
    }
}
