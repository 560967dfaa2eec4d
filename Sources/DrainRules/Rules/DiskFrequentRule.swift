import DrainModel
import DrainReport
import DrainTrace

/// DISK-FREQUENT: writes and flushes too often, or a file fed in small pieces.
///
/// Three checks, each its own finding:
/// - write rate: the busiest `rate_window_s` window (any window, not the average one) holds
///   more than `writes_per_min` × `rate_window_s` / 60 writes, across all files;
/// - flush rate: the busiest `rate_window_s` window holds more than `fsync_per_s` ×
///   `rate_window_s` fsyncs, so a rate must be kept up for a whole window, not reached by one
///   transaction's commit;
/// - small writes: at least `small_writes_per_file` writes smaller than `small_write_bytes`
///   to one file over the run (one finding per file).
/// O(n + k log k) for k files.
public struct DiskFrequentRule: Rule {
    static let writesPerMin = RuleParameter("writes_per_min", default: 60, unit: "writes/min", "write rate in the busiest window above which a warning is raised")
    static let fsyncPerSecond = RuleParameter("fsync_per_s", default: 1, unit: "fsyncs/s", "flush rate, averaged over the busiest window, above which a warning is raised")
    static let rateWindow = RuleParameter("rate_window_s", default: 60, unit: "s", "the sliding window the write and flush rates are measured over")
    static let smallWriteBytes = RuleParameter("small_write_bytes", default: 4096, unit: "B", "writes below this size count as small (4 KiB, a common page size: a smaller write still costs a page)")
    static let smallWritesPerFile = RuleParameter("small_writes_per_file", default: 20, unit: "writes", "small writes to one file that make a finding")

    public static let description = RuleDescription(
        id: "DISK-FREQUENT",
        title: "Frequent disk writes",
        area: .disk,
        severity: .warning,
        guidance: """
            Every write and every flush powers up the storage and costs a fixed amount on top of \
            the bytes moved; small writes pay that cost for almost nothing. Keep state in memory, \
            write it when it actually changes, and batch changes into fewer, larger writes.
            """,
        source: """
            PWR "do not access the disk too often; write state only when it changes and batch \
            changes" (App Programming Guide for iOS, Reduce Your App's Power Consumption)
            """,
        fix: "Batch changes in memory and write them together, and flush only when durability requires it.",
        parameters: [writesPerMin, fsyncPerSecond, rateWindow, smallWriteBytes, smallWritesPerFile],
        triggeringExamples: [
            Scenario("a 64 KB write every half second", expect: .warning) {
                var run = TimelineBuilder()
                for write in 0..<120 {
                    run.disk(Double(write) * 0.5, .write, bytes: 65_536, path: "/data/frames/\(write).bin")
                }
                return run.build(end: 60)
            },
            Scenario("a log appended 100 bytes at a time", expect: .warning) {
                var run = TimelineBuilder()
                for line in 0..<20 { run.disk(Double(line) * 10, .write, bytes: 100, path: "/data/app.log") }
                return run.build(end: 200)
            },
            Scenario("a flush every half second", expect: .warning) {
                var run = TimelineBuilder()
                for flush in 0..<100 { run.disk(Double(flush) * 0.5, .fsync, path: "/data/store.db") }
                return run.build(end: 50)
            },
        ],
        nonTriggeringExamples: [
            Scenario("ten 1 MB writes in a minute, flushed twice") {
                var run = TimelineBuilder()
                for write in 0..<10 { run.disk(Double(write) * 6, .write, bytes: 1_000_000, path: "/data/cache.bin") }
                run.disk(30, .fsync, path: "/data/cache.bin")
                run.disk(59, .fsync, path: "/data/cache.bin")
                return run.build(end: 60)
            },
            Scenario("nineteen small writes to one file") {
                var run = TimelineBuilder()
                for line in 0..<19 { run.disk(Double(line) * 5, .write, bytes: 200, path: "/data/app.log") }
                return run.build(end: 100)
            },
            Scenario("sixty writes in one minute") {
                var run = TimelineBuilder()
                for write in 0..<60 { run.disk(Double(write), .write, bytes: 8192, path: "/data/chunks.bin") }
                return run.build(end: 90)
            },
            Scenario("no disk activity") {
                var run = TimelineBuilder()
                run.cpu(0, duration: 1)
                return run.build(end: 10)
            },
        ])

    public init() {}

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        var writes: [Int] = []
        var fsyncs: [Int] = []
        var diskEvents = 0
        var files: [StringID: FileTally] = [:]
        let smallBytes = context[Self.smallWriteBytes]
        for row in 0..<timeline.count where timeline.kind[row] == .disk {
            diskEvents += 1
            switch DiskOperation(rawValue: timeline.code[row]) {
            case .write:
                writes.append(row)
                files[timeline.label[row], default: FileTally()].addWrite(row, small: Double(timeline.amount[row]) < smallBytes, context)
            case .fsync:
                fsyncs.append(row)
                files[timeline.label[row], default: FileTally()].addFsync(row, context)
            case .read, .truncate, nil:
                continue
            }
        }
        guard diskEvents > 0 else { return .notApplicable("the run records no disk events") }

        let window = context[Self.rateWindow]
        var findings: [Finding] = []
        if let finding = rateFinding(writes, of: .write, limit: context[Self.writesPerMin] * window / 60, context) {
            findings.append(finding)
        }
        if let finding = rateFinding(fsyncs, of: .fsync, limit: context[Self.fsyncPerSecond] * window, context) {
            findings.append(finding)
        }
        let minimumSmall = context[Self.smallWritesPerFile]
        let smallFiles = files.filter { Double($0.value.smallWrites) >= minimumSmall && $0.value.smallWrites > 0 }
            .sorted { $0.value.first != $1.value.first ? $0.value.first < $1.value.first : $0.key < $1.key }
        for (file, tally) in smallFiles {
            findings.append(smallWritesFinding(timeline.name(file, or: "(unnamed file)"), tally, context))
        }
        return .findings(findings)
    }

    /// The finding for the busiest window of `rows` (all of one operation) when it holds more
    /// than `limit` of them.
    private func rateFinding(_ rows: [Int], of operation: DiskOperation, limit: Double, _ context: RuleContext) -> Finding? {
        let timeline = context.timeline
        let windowSeconds = context[Self.rateWindow]
        let times = rows.map { timeline.time[$0] }
        guard let busiest = DensestWindow.find(in: times, length: context.span(Self.rateWindow)),
              busiest.count > 0, Double(busiest.count) > limit
        else { return nil }
        var perFile: [StringID: FileTally] = [:]
        var window = FileTally()
        for index in busiest.range {
            let row = rows[index]
            if operation == .fsync {
                window.addFsync(row, context)
                perFile[timeline.label[row], default: FileTally()].addFsync(row, context)
            } else {
                window.addWrite(row, small: false, context)
                perFile[timeline.label[row], default: FileTally()].addWrite(row, small: false, context)
            }
        }
        let top = perFile.map { (name: timeline.name($0.key, or: "(unnamed file)"), count: $0.value.writes + $0.value.fsyncs) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }
        let noun = operation == .fsync ? "fsyncs" : "writes"
        var evidence = [
            Evidence("\(noun) in window", Double(busiest.count), unit: noun),
            Evidence("window", windowSeconds, unit: "s"),
            Evidence("threshold", limit, unit: noun),
        ]
        if operation == .write { evidence.append(Evidence("bytes written", Double(window.bytes), unit: "B")) }
        evidence.append(Evidence("files", Double(perFile.count), unit: "files"))
        evidence += top.prefix(3).map { Evidence("file", text: "\($0.name): \($0.count) \(noun)") }
        let first = times[busiest.first], last = times[busiest.first + busiest.count - 1]
        let title = operation == .fsync ? "Frequent disk flushes" : "Frequent disk writes"
        return Self.description.finding(
            .warning, subject: operation == .fsync ? "fsync" : "write", title: title,
            message: "\(busiest.count) \(noun) within \(fixed(windowSeconds, 0)) s, above \(fixed(limit, 0)) (busiest window from \(fixed(Clock.seconds(first))) s), to \(perFile.count) file(s).",
            evidence: evidence, energyJ: window.energy, timeRanges: [TimeRange(from: first, to: last)])
    }

    private func smallWritesFinding(_ file: String, _ tally: FileTally, _ context: RuleContext) -> Finding {
        let limit = context[Self.smallWriteBytes]
        let evidence = [
            Evidence("file", text: file),
            Evidence("small writes", Double(tally.smallWrites), unit: "writes"),
            Evidence("writes", Double(tally.writes), unit: "writes"),
            Evidence("bytes written", Double(tally.bytes), unit: "B"),
            Evidence("fsyncs", Double(tally.fsyncs), unit: "fsyncs"),
            Evidence("small write size", limit, unit: "B"),
        ]
        return Self.description.finding(
            .warning, subject: file, title: "Small writes to one file",
            message: "\(file) received \(tally.smallWrites) writes smaller than \(fixed(limit, 0)) B (\(tally.writes) writes, \(ByteFormat.string(Double(tally.bytes))) in all).",
            evidence: evidence, energyJ: tally.energy, timeRanges: [TimeRange(from: tally.first, to: tally.last)])
    }

    /// Writes and flushes of one file (or one window).
    private struct FileTally {
        var writes = 0
        var smallWrites = 0
        var fsyncs = 0
        var bytes: Int64 = 0
        var energy = 0.0
        var first: Nanoseconds = .max
        var last: Nanoseconds = .min

        mutating func addWrite(_ row: Int, small: Bool, _ context: RuleContext) {
            writes += 1
            if small { smallWrites += 1 }
            bytes += max(0, context.timeline.amount[row])
            see(row, context)
        }

        mutating func addFsync(_ row: Int, _ context: RuleContext) {
            fsyncs += 1
            see(row, context)
        }

        private mutating func see(_ row: Int, _ context: RuleContext) {
            energy += context.priced.eventEnergy[row]
            first = min(first, context.timeline.time[row])
            last = max(last, context.timeline.time[row])
        }
    }
}
