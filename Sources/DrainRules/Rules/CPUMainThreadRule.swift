import DrainModel
import DrainReport
import DrainTrace

/// CPU-MAIN-THREAD: long slices and I/O on the main thread.
///
/// The main thread is the thread the trace names `"main"`. Two checks:
/// - long slices: `cpu` slices on the main thread longer than `long_slice_s` (warning), an
///   error when one is longer than `hang_s` (the app stops responding);
/// - I/O: any `net` or `disk` event recorded on the main thread (warning).
/// Not applicable when no event names the main thread. MetricKit hang diagnostics and
/// hang-time histograms are judged too (see `evaluateAggregates`). O(n + k log k) for k
/// flagged events.
public struct CPUMainThreadRule: AggregateRule {
    static let longSlice = RuleParameter("long_slice_s", default: 0.1, unit: "s", "main-thread slices longer than this are a warning")
    static let hang = RuleParameter("hang_s", default: 0.25, unit: "s", "main-thread slices longer than this are an error (a hang)")

    public static let description = RuleDescription(
        id: "CPU-MAIN-THREAD",
        title: "Work blocks the main thread",
        area: .cpu,
        severity: .warning,
        guidance: """
            The main thread handles touches and draws the interface; while it runs a long task \
            or waits for the network or the disk, the app cannot respond. Keep the main thread \
            for the interface and move long computation and every file and network access to \
            other queues.
            """,
        source: """
            MAIN "Move Work off the Main Thread" (App Programming Guide for iOS, Performance Tips); \
            the error level is a hang: the main thread unresponsive for more than 250 ms
            """,
        fix: "Move long computation, file access and network calls off the main thread (a background queue or task) and return only the result to it.",
        parameters: [longSlice, hang],
        triggeringExamples: [
            Scenario("a 150 ms layout pass on the main thread", expect: .warning) {
                var run = TimelineBuilder()
                run.cpu(1, duration: 0.15, name: "layout", thread: "main")
                run.cpu(2, duration: 0.01, name: "draw", thread: "main")
                return run.build(end: 5)
            },
            Scenario("a 400 ms hang", expect: .error) {
                var run = TimelineBuilder()
                run.cpu(1, duration: 0.4, name: "decode-image", thread: "main")
                return run.build(end: 5)
            },
            Scenario("a file read on the main thread", expect: .warning) {
                var run = TimelineBuilder()
                run.cpu(1, duration: 0.01, name: "tap", thread: "main")
                run.disk(1.01, .read, bytes: 200_000, path: "/data/settings.plist", thread: "main")
                return run.build(end: 5)
            },
            Scenario("MetricKit: a 20 s hang diagnostic", expect: .error) {
                .metricKit(seconds: 0) { $0.hangs = [.init(durationS: 20)] }
            },
            Scenario("MetricKit: hang histogram with 30 hangs of 400-700 ms", expect: .error) {
                .metricKit { $0.hangTime = .init(buckets: [.init(startS: 0, endS: 0.1, count: 50), .init(startS: 0.4, endS: 0.7, count: 30)]) }
            },
            Scenario("MetricKit: hang histogram with hangs of 150-200 ms", expect: .warning) {
                .metricKit { $0.hangTime = .init(buckets: [.init(startS: 0.15, endS: 0.2, count: 4)]) }
            },
        ],
        nonTriggeringExamples: [
            Scenario("MetricKit: hang histogram of short hangs only") {
                .metricKit { $0.hangTime = .init(buckets: [.init(startS: 0, endS: 0.1, count: 50), .init(startS: 0.4, endS: 0.7, count: 0)]) }
            },
            Scenario("short main-thread slices, I/O on a worker") {
                var run = TimelineBuilder()
                for frame in 0..<30 { run.cpu(Double(frame) * 0.1, duration: 0.008, name: "draw", thread: "main") }
                run.cpu(1, duration: 0.5, name: "parse", thread: "worker-1")
                run.net(1, .rx, bytes: 40_000, host: "api.example.com", thread: "worker-1")
                return run.build(end: 5)
            },
            Scenario("a slice of exactly 100 ms") {
                var run = TimelineBuilder()
                run.cpu(1, duration: 0.1, name: "layout", thread: "main")
                return run.build(end: 5)
            },
            Scenario("no thread names") {
                var run = TimelineBuilder()
                run.cpu(1, duration: 2)
                run.disk(2, .write, bytes: 1000, path: "/tmp/x")
                return run.build(end: 5)
            },
        ])

    public init() {}

    public func evaluateEvents(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        let unattributed = RuleOutcome.notApplicable("no event is attributed to the main thread (thread \"main\")")
        guard let main = timeline.mainThreadID else { return unattributed }
        let longSlice = context.span(Self.longSlice)
        var onMain = 0
        var slices: [Int] = []
        var io: [Int] = []
        for row in 0..<timeline.count where timeline.thread[row] == main {
            onMain += 1
            switch timeline.kind[row] {
            case .cpu where timeline.duration[row] > longSlice: slices.append(row)
            case .net, .disk: io.append(row)
            default: continue
            }
        }
        guard onMain > 0 else { return unattributed }
        var findings: [Finding] = []
        if !slices.isEmpty { findings.append(sliceFinding(slices, context)) }
        if !io.isEmpty { findings.append(ioFinding(io, context)) }
        return .findings(findings)
    }

    private func sliceFinding(_ rows: [Int], _ context: RuleContext) -> Finding {
        let timeline = context.timeline
        let longest = rows.map { timeline.duration[$0] }.max() ?? 0
        let total = rows.reduce(0.0) { $0 + Clock.seconds(timeline.duration[$1]) }
        let hang = longest > context.span(Self.hang)
        let byLength = rows.sorted { timeline.duration[$0] != timeline.duration[$1] ? timeline.duration[$0] > timeline.duration[$1] : $0 < $1 }
        var evidence = [
            Evidence("long slices", Double(rows.count), unit: "slices"),
            Evidence("longest", Clock.seconds(longest) * 1000, unit: "ms"),
            Evidence("time in long slices", total, unit: "s"),
            Evidence(hang ? "hang threshold" : "threshold", context[hang ? Self.hang : Self.longSlice] * 1000, unit: "ms"),
        ]
        evidence += byLength.prefix(5).map { row in
            let name = timeline.name(timeline.label[row], or: "(unnamed slice)")
            return Evidence("slice", text: "\(name): \(fixed(Clock.seconds(timeline.duration[row]) * 1000, 1)) ms at \(fixed(Clock.seconds(timeline.time[row]))) s")
        }
        let longestName = timeline.name(timeline.label[byLength[0]], or: "(unnamed slice)")
        let what = hang ? "hung the main thread" : "held the main thread"
        return Self.description.finding(
            hang ? .error : .warning, title: hang ? "Main thread hang" : "Long main-thread work",
            message: "\(rows.count) main-thread slice(s) longer than \(fixed(context[Self.longSlice] * 1000, 0)) ms; the longest, \(longestName), \(what) for \(fixed(Clock.seconds(longest) * 1000, 1)) ms.",
            evidence: evidence, energyJ: rows.reduce(0) { $0 + context.priced.eventEnergy[$1] },
            timeRanges: rows.map { TimeRange(from: timeline.time[$0], to: timeline.time[$0] + timeline.duration[$0]) })
    }

    private func ioFinding(_ rows: [Int], _ context: RuleContext) -> Finding {
        let timeline = context.timeline
        var operations: [String: Int] = [:]
        var network = 0, disk = 0
        var bytes = 0.0
        for row in rows {
            bytes += Double(max(0, timeline.amount[row]))
            if timeline.kind[row] == .net {
                network += 1
                operations["net " + timeline.name(timeline.label[row], or: "(unnamed host)"), default: 0] += 1
            } else {
                disk += 1
                let operation = DiskOperation(rawValue: timeline.code[row])?.traceName ?? "disk"
                operations["disk \(operation) " + timeline.name(timeline.label[row], or: "(unnamed file)"), default: 0] += 1
            }
        }
        let top = operations.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(5)
        let evidence = [
            Evidence("network events", Double(network), unit: "events"),
            Evidence("disk events", Double(disk), unit: "events"),
            Evidence("bytes", bytes, unit: "B"),
        ] + top.map { Evidence("operation", text: "\($0.key): \($0.value)") }
        let first = timeline.time[rows[0]], last = timeline.time[rows[rows.count - 1]]
        return Self.description.finding(
            .warning, subject: "I/O", title: "I/O on the main thread",
            message: "The main thread did \(network) network and \(disk) disk operation(s) (\(ByteFormat.string(bytes))), blocking the interface while they wait.",
            evidence: evidence, energyJ: rows.reduce(0) { $0 + context.priced.eventEnergy[$1] },
            timeRanges: [TimeRange(from: first, to: last)])
    }
}
