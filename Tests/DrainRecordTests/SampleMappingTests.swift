#if os(Linux)
import DrainImport
import DrainTrace
import DrainTraceWriter
import Testing

@testable import DrainRecord

@Suite struct SampleMappingTests {
    /// One 20 ms interval from t = 1 s: thread 10 ran 5 ms and woke twice, thread 11 woke
    /// once; process 10 dirtied 10 000 bytes in 5 write calls; 4 MiB resident; eth0
    /// received 1 500 bytes, loopback moved 99.
    private func interval() -> IntervalSample {
        var sample = IntervalSample(start: 1_000_000_000, end: 1_020_000_000)
        sample.threads = [
            .init(thread: 10, name: "worker \"1\"", cpu: 5_000_000, wakeups: 2),
            .init(thread: 11, name: "idle", cpu: 0, wakeups: 1),
        ]
        sample.writes = [.init(pid: 10, bytes: 10_000, calls: 5), .init(pid: 12, bytes: 0, calls: 7)]
        sample.residentBytes = 4 << 20
        sample.interfaces = [
            .init(name: "lo", link: .loopback, received: 99, transmitted: 99),
            .init(name: "eth0", link: .ethernet, received: 1_500, transmitted: 0),
        ]
        return sample
    }

    private func read(_ line: JSONLine) throws -> Timeline {
        var trace = JSONLine()
        trace.traceHeader(process: "test", pid: 1, device: nil, startNanosecondsSinceEpoch: 0)
        line.bytes.withUnsafeBytes { trace.raw($0) }
        return try DrainTraceImporter.read(bytes: trace.bytes, path: "mapping.jsonl").timeline
    }

    @Test func eachSignalBecomesItsEvents() throws {
        var mapping = SampleMapping()
        var line = JSONLine()
        mapping.write(interval(), into: &line)
        let timeline = try read(line)
        let rows = (0..<timeline.count).map { timeline[$0] }
        #expect(rows.map(\.kind) == [.cpu, .wakeup, .wakeup, .wakeup, .disk, .disk, .disk, .memory, .net])

        // The CPU slice starts the interval and lasts the CPU time.
        #expect(rows[0].time == 1_000_000_000 && rows[0].duration == 5_000_000)
        #expect(timeline.strings[rows[0].label] == "worker \"1\"")
        #expect(timeline.strings[rows[0].thread] == "10")

        // Wakeups at start + 20 ms·(2k+1)/(2n): thread 10 (n = 2) at 5 and 15 ms, thread
        // 11 (n = 1) at 10 ms, merged in time order.
        #expect(rows[1...3].map(\.time) == [1_005_000_000, 1_010_000_000, 1_015_000_000])
        #expect(rows[1...3].map { timeline.strings[$0.thread] } == ["10", "11", "10"])

        // 10 000 bytes are 3 pages (⌈10 000 / 4 096⌉); min(5 calls, 3 pages) = 3 writes of
        // 10 000 / 3 = 3 333 bytes, the first taking the remainder: 3 334.
        #expect(rows[4...6].map(\.amount) == [3_334, 3_333, 3_333])
        #expect(rows[4...6].allSatisfy { $0.time == 1_020_000_000 && $0.code == DiskOperation.write.rawValue })

        #expect(rows[7].amount == 4 << 20)
        // Loopback is left out; eth0's received bytes are one rx event.
        #expect(rows[8].code == NetDirection.rx.rawValue && rows[8].amount == 1_500)
        #expect(rows[8].code2 == LinkKind.ethernet.rawValue)
        #expect(timeline.strings[rows[8].label2] == "eth0")
    }

    @Test func memoryIsWrittenOnlyWhenItChanges() throws {
        var mapping = SampleMapping(signals: [.memory])
        var line = JSONLine()
        var sample = interval()
        mapping.write(sample, into: &line)
        sample.reset(start: 1_020_000_000, end: 1_040_000_000)
        sample.residentBytes = 4 << 20
        mapping.write(sample, into: &line)
        sample.reset(start: 1_040_000_000, end: 1_060_000_000)
        sample.residentBytes = 5 << 20
        mapping.write(sample, into: &line)
        let timeline = try read(line)
        #expect(Array(timeline.amount) == [4 << 20, 5 << 20])
        #expect(timeline.time == [1_020_000_000, 1_060_000_000])
    }

    @Test func signalsLeftOutUnderStraceAndCapture() throws {
        #expect(SampledSignals.recorded(strace: false, capture: false) == .all)
        #expect(SampledSignals.recorded(strace: true, capture: false) == [.cpu, .memory])
        #expect(SampledSignals.recorded(strace: false, capture: true) == [.cpu, .wakeups, .disk, .memory])
        var mapping = SampleMapping(signals: .recorded(strace: true, capture: true))
        var line = JSONLine()
        mapping.write(interval(), into: &line)
        #expect(try read(line).kind == [.cpu, .memory])
    }

    @Test func wakeupOffsetsStayInsideTheIntervalForHugeCounts() {
        let span: Int64 = 10_000_000_000
        let count: Int64 = 1 << 40
        #expect(SampleMapping.offset(of: 0, count: count, span: span) == 0)
        #expect(SampleMapping.offset(of: count - 1, count: count, span: span) == span - 1)
        #expect(SampleMapping.offset(of: count / 2, count: count, span: span) == span / 2)
    }
}
#endif
