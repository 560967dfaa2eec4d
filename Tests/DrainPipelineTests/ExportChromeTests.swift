import DrainImport
import DrainModel
import DrainPipeline
import DrainTestSupport
import DrainTrace
import Foundation
import Testing

/// `drain export --chrome`: the JSON opens as a Chrome trace, adds up to the report, escapes
/// what it quotes, and reads back through the Chrome importer.
@Suite struct ExportChromeTests {
    var sample: String { Repository.root.appendingPathComponent("samples/app-session.jsonl").path }

    /// One row as compared across the round trip.
    struct Row: Equatable {
        var kind: EventKind
        var time: Nanoseconds
        var duration: Nanoseconds
        var thread: String
        var label: String
        var amount: Int64
    }

    static func rows(_ timeline: Timeline, _ kinds: Set<EventKind>) -> [Row] {
        (0..<timeline.count).filter { kinds.contains(timeline.kind[$0]) }.map {
            Row(
                kind: timeline.kind[$0], time: timeline.time[$0], duration: timeline.duration[$0],
                thread: timeline.strings[timeline.thread[$0]], label: timeline.strings[timeline.label[$0]],
                amount: timeline.amount[$0])
        }
    }

    /// Every column of a row, strings as text.
    struct FullRow: Equatable {
        var kind: EventKind, time: Nanoseconds, thread: String, code: UInt8, code2: UInt8
        var amount: Int64, amount2: Int64, duration: Nanoseconds, value: Double, value2: Double
        var label: String, label2: String
    }

    static func fullRows(_ timeline: Timeline, _ kinds: Set<EventKind>) -> [FullRow] {
        (0..<timeline.count).filter { kinds.contains(timeline.kind[$0]) }.map {
            FullRow(
                kind: timeline.kind[$0], time: timeline.time[$0], thread: timeline.strings[timeline.thread[$0]],
                code: timeline.code[$0], code2: timeline.code2[$0], amount: timeline.amount[$0],
                amount2: timeline.amount2[$0], duration: timeline.duration[$0], value: timeline.value[$0],
                value2: timeline.value2[$0], label: timeline.strings[timeline.label[$0]],
                label2: timeline.strings[timeline.label2[$0]])
        }
    }

    /// Every kind of the vocabulary, with every field set, survives export and import.
    @Test func everyEventKindReadsBackAsItself() throws {
        var run = TimelineBuilder()
        run.lifecycle(0, .active)
        run.wakeup(0.5, reason: "timer", source: "refresh", thread: "main")
        run.timer(1, name: "refresh", interval: 30, tolerance: 0.5, repeats: true, thread: "main")
        run.timer(1.5, name: "once", interval: 2, tolerance: 0, repeats: false)
        run.poll(2, source: "socket 7", interval: 0.1, thread: "io")
        run.net(3, .tx, bytes: 1_200, host: "api.example.com", link: .cellular, connection: "tcp 1", thread: "sync")
        run.net(3.25, .rx, bytes: 48_000, host: "api.example.com", link: .wifi)
        run.disk(4, .write, bytes: 4_096, path: "/data/db.sqlite", fileSize: 2_000_000, thread: "io")
        run.disk(4.5, .fsync, path: "/data/db.sqlite")
        run.memoryWarning(5)
        run.resource(6, kind: "camera", .start, id: "back")
        run.resource(7, kind: "camera", .stop, id: "back")
        run.backgroundTask(8, .start, id: "upload")
        run.backgroundTask(9, .expire, id: "upload")
        run.frame(10, changed: true)
        run.frame(10.016, changed: false)
        run.sensor(11, kind: "accelerometer", .start, rateHz: 100)
        run.sensor(12, kind: "accelerometer", .stop)
        run.location(13, .start, accuracyMeters: 10, distanceFilterMeters: 25)
        run.location(14, .stop)
        run.idleTimer(15, disabled: true)
        run.idleTimer(16, disabled: false)
        run.lifecycle(17, .background)
        let original = run.build(end: 20)
        let model = try ModelCatalog.load(nameOrPath: "iphone-lte")
        let priced = Pricer(model: model).price(original, grid: ChromeTraceExport.grid(for: original))
        let text = ChromeTraceExport.render(priced, model: model, process: "app")
        let reread = try ChromeTraceImporter.read(bytes: Array(text.utf8), path: "export.json").timeline
        let kinds = Set(EventKind.allCases)
        #expect(Self.fullRows(reread, kinds).count == original.count)
        #expect(Self.fullRows(reread, kinds) == Self.fullRows(original, kinds))
    }

    static func traceEvents(_ text: String) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        return try #require(object["traceEvents"] as? [[String: Any]])
    }

    @Test func aRunReadsBackWithItsSlicesMarksAndMemoryAtTheSameTimes() throws {
        let text = try ChromeTraceExport.render(AnalysisOptions(inputs: [sample]))
        let original = try DrainTraceImporter.read(path: sample).timeline
        let reread = try ChromeTraceImporter.read(bytes: Array(text.utf8), path: "export.json")
        // Every event is exported as one event, so every one comes back as one.
        #expect(reread.timeline.count == original.count)
        // CPU and GPU slices keep time, duration (whole microseconds here, and written exactly),
        // thread and name; those of no thread come back on the track named after their kind.
        let slices = Self.rows(original, [.cpu, .gpu]).map { row in
            var row = row
            if row.thread.isEmpty { row.thread = row.kind.traceName }
            return row
        }
        #expect(slices.count == 951)
        #expect(Self.rows(reread.timeline, [.cpu, .gpu]) == slices)
        #expect(Self.rows(reread.timeline, [.memory]) == Self.rows(original, [.memory]))
        // Every other kind comes back as itself, every column equal.
        let others = Set(EventKind.allCases).subtracting([.cpu, .gpu, .memory])
        #expect(Self.fullRows(reread.timeline, others) == Self.fullRows(original, others))
        #expect(reread.info.process == "SyncNotes")
        #expect(reread.info.diagnostics.entries.map(\.code) == ["derived-skipped"])
    }

    /// The export, analysed, is the same run: the same energy per category and findings.
    @Test func anExportAnalysesToTheSameEnergyAndFindings() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let exported = directory.appendingPathComponent("export.json")
        try ChromeTraceExport.render(AnalysisOptions(inputs: [sample])).write(to: exported, atomically: true, encoding: .utf8)
        let original = try Analysis.run(AnalysisOptions(inputs: [sample]))
        let reread = try Analysis.run(AnalysisOptions(inputs: [exported.path]))
        #expect(reread.durationS == original.durationS)
        for (category, joules) in original.energy.byCategory {
            // Summed in another order, in the category kernel's `Float` blocks: equal within
            // its bound, 1.86 × 10⁻⁶ of the total (`CategoryTotalsKernel`).
            #expect(abs((reread.energy.byCategory[category] ?? -1) - joules) <= 1.9e-6 * max(1, joules), "\(category)")
        }
        #expect(reread.findings.map(\.rule) == original.findings.map(\.rule))
        #expect(reread.findings.map(\.severity) == original.findings.map(\.severity))
    }

    @Test func theEnergyCountersAddUpToTheReport() throws {
        let options = AnalysisOptions(inputs: [sample], binSeconds: 10)
        let report = try Analysis.run(options)
        let events = try Self.traceEvents(try ChromeTraceExport.render(options))
        let energy = events.filter { $0["name"] as? String == "energy (J)" }
        let power = events.filter { $0["name"] as? String == "power (mW)" }
        #expect(energy.count == power.count)
        // The last cumulative sample is each category's total.
        let totals = try #require(energy.last?["args"] as? [String: Double])
        for (category, joules) in report.energy.byCategory where joules > 0 {
            let exported = try #require(totals[category], "\(category)")
            #expect(abs(exported - joules) <= 1e-6 * joules, "\(category)")
        }
        // Power × bin width: bins are 10 s up to the run's end; the last sample closes the track.
        var integrated: [String: Double] = [:]
        for (index, sample) in power.dropLast().enumerated() {
            let start = try #require(sample["ts"] as? Double) / 1e6
            let end = try #require(power[index + 1]["ts"] as? Double) / 1e6
            #expect(end - start <= 10)
            for (category, milliwatts) in try #require(sample["args"] as? [String: Double]) {
                integrated[category, default: 0] += milliwatts / 1000 * (end - start)
            }
        }
        for (category, joules) in report.energy.byCategory where joules > 0 {
            #expect(abs(integrated[category]! - joules) <= 1e-6 * joules, "\(category)")
        }
        // The radio's states are slices on their own track.
        let radioTrack = try #require(events.first {
            $0["ph"] as? String == "M" && ($0["args"] as? [String: Any])?["name"] as? String == "radio (cellular)"
        }?["tid"] as? Int)
        let radio = events.filter { $0["tid"] as? Int == radioTrack && $0["ph"] as? String == "X" }
        #expect(!radio.isEmpty)
        #expect(Set(radio.compactMap { $0["name"] as? String }).isSubset(of: ["promotion", "active", "fach", "tail"]))
    }

    @Test func hostileStringsAreEscapedAndReadBackExactly() throws {
        let hostile = "a\"b\\c\n\r\t\u{0}\u{1B}[31m</script>\u{2028}\u{2029}é😀"
        var builder = TimelineBuilder()
        builder.cpu(0, duration: 0.5, name: hostile, thread: hostile)
        builder.net(1, .rx, bytes: 1000, host: hostile, link: .wifi, connection: hostile)
        builder.disk(2, .write, bytes: 10, path: hostile)
        builder.mark(3, name: hostile)
        let model = try ModelCatalog.load(nameOrPath: "iphone-lte")
        let run = builder.build()
        let priced = Pricer(model: model).price(run, grid: ChromeTraceExport.grid(for: run))
        let text = ChromeTraceExport.render(priced, model: model, process: hostile)
        #expect(!text.contains("\u{2028}"))
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        let events = try Self.traceEvents(text)
        let strings = events.flatMap { event -> [String] in
            let arguments = (event["args"] as? [String: Any])?.values.compactMap { $0 as? String } ?? []
            return [event["name"] as? String].compactMap { $0 } + arguments
        }
        #expect(strings.filter { $0 == hostile }.count == 7)  // slice, mark, host, conn, path, thread and process names
        let reread = try ChromeTraceImporter.read(bytes: Array(text.utf8), path: "export.json")
        #expect(Self.rows(reread.timeline, [.cpu]).map(\.label) == [hostile])
        #expect(Self.rows(reread.timeline, [.cpu]).map(\.thread) == [hostile])
        #expect(reread.info.process == hostile)
    }

    @Test func theSameRunGivesTheSameBytes() throws {
        let options = AnalysisOptions(inputs: [sample])
        #expect(try ChromeTraceExport.render(options) == (try ChromeTraceExport.render(options)))
    }

    @Test func theCommandWritesTheFileAtomicallyAndExitsLikeAnalyze() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = try DrainCommand.run(["export", "--chrome", "run.json", sample], in: directory)
        #expect(written.status == 0, "\(written.standardError)")
        #expect(written.standardOutput.isEmpty)
        let file = try String(contentsOf: directory.appendingPathComponent("run.json"), encoding: .utf8)
        #expect(try Self.traceEvents(file).count > 5000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["run.json"])

        let toStandardOutput = try DrainCommand.run(["export", "--chrome", "-", sample])
        #expect(toStandardOutput.status == 0)
        #expect(toStandardOutput.standardOutput == file)

        let garbage = directory.appendingPathComponent("garbage.json")
        try Data("[{\"ph\":\"X\",\"ts\":\"soon\"}]".utf8).write(to: garbage)
        let bad = try DrainCommand.run(["export", "--chrome", "out.json", garbage.path], in: directory)
        #expect(bad.status == 65)
        #expect(bad.standardError.contains(garbage.path))
        #expect(bad.standardError.contains("line 1, column 17"))
        let missing = try DrainCommand.run(["export", "--chrome", "out.json", "/nonexistent/trace.jsonl"], in: directory)
        #expect(missing.status == 66)
        let unwritable = try DrainCommand.run(["export", "--chrome", "/nonexistent/dir/run.json", sample])
        #expect(unwritable.status == 73)
        #expect(unwritable.standardError.contains("/nonexistent/dir/run.json"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.json").path))
    }
}
