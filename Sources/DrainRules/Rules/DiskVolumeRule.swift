import DrainModel
import DrainReport
import DrainTrace

/// DISK-VOLUME: the write volume, extrapolated to a day, against the system's write limit.
///
/// The bytes of every `disk` write divided by the run's length (time zero to its end) is the
/// write rate; × 86,400 s it is the daily projection. Above `warning_bytes_per_day` (1 GB) a
/// warning; above `limit_bytes_per_day` (1073.74 MB, the volume after which Apple's system
/// reports a disk-write exception) an error. A run shorter than `min_run_s` is not projected:
/// a day extrapolated from seconds is noise. MetricKit aggregates are judged too (see
/// `evaluateAggregates`). O(n).
public struct DiskVolumeRule: AggregateRule {
    /// Seconds in the day the projection is made for.
    static let day = 86_400.0

    static let warningBytesPerDay = RuleParameter("warning_bytes_per_day", default: 1_000_000_000, unit: "B/day", "projected daily writes above which a warning is raised (1 GB)")
    static let limitBytesPerDay = RuleParameter("limit_bytes_per_day", default: 1_073_741_824, unit: "B/day", "projected daily writes above which the system would report a disk-write exception (1073.74 MB)")
    static let minRun = RuleParameter("min_run_s", default: 60, unit: "s", "shortest run whose writes are projected to a day")

    public static let description = RuleDescription(
        id: "DISK-VOLUME",
        title: "Heavy write volume",
        area: .disk,
        severity: .warning,
        guidance: """
            Every byte written costs energy and wears the flash storage, and the system reports \
            an app that writes more than about a gigabyte a day. Write less: keep data in memory \
            until it must persist, write deltas instead of whole files, and avoid rewriting data \
            that did not change.
            """,
        source: """
            FILE "Improve Your File Management" (App Programming Guide for iOS); limit: 1073.74 MB \
            per 86,400 s, the disk-write exception seen in Apple resource reports and MetricKit
            """,
        fix: "Cut the bytes written: batch and deduplicate writes, write only what changed, and keep transient data in memory or in caches that are not rewritten.",
        parameters: [warningBytesPerDay, limitBytesPerDay, minRun],
        triggeringExamples: [
            Scenario("12 KB/s for two minutes", expect: .warning) {
                var run = TimelineBuilder()
                for second in 0..<120 { run.disk(Double(second), .write, bytes: 12_000, path: "/data/log.bin") }
                return run.build(end: 120)
            },
            Scenario("1 MB every 10 s", expect: .error) {
                var run = TimelineBuilder()
                for write in 0..<12 { run.disk(Double(write) * 10, .write, bytes: 1_000_000, path: "/data/cache.bin") }
                return run.build(end: 120)
            },
            Scenario("MetricKit: 1,200,000 kB of logical writes in a day", expect: .error) {
                .metricKit { $0.logicalWriteBytes = 1_200_000_000 }
            },
            Scenario("MetricKit: a disk-write exception", expect: .error) {
                .metricKit(seconds: 0) { $0.diskWriteExceptions = [.init(writesCausedBytes: 2_000)] }
            },
        ],
        nonTriggeringExamples: [
            Scenario("MetricKit: 80,000 kB of logical writes in a day") {
                .metricKit { $0.logicalWriteBytes = 80_000_000 }
            },
            Scenario("10 KB/s for two minutes") {
                var run = TimelineBuilder()
                for second in 0..<120 { run.disk(Double(second), .write, bytes: 10_000, path: "/data/log.bin") }
                return run.build(end: 120)
            },
            Scenario("a large write in a run too short to project") {
                var run = TimelineBuilder()
                run.disk(1, .write, bytes: 50_000_000, path: "/data/import.db")
                return run.build(end: 30)
            },
            Scenario("no disk events") {
                var run = TimelineBuilder()
                run.cpu(1, duration: 0.1)
                return run.build(end: 120)
            },
        ])

    public init() {}

    public func evaluateEvents(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        var diskEvents = 0
        var writes = 0
        var bytes = 0.0
        var energy = 0.0
        var first: Nanoseconds?
        var last: Nanoseconds = 0
        for row in 0..<timeline.count where timeline.kind[row] == .disk {
            diskEvents += 1
            guard timeline.code[row] == DiskOperation.write.rawValue else { continue }
            writes += 1
            bytes += Double(max(0, timeline.amount[row]))
            energy += context.priced.eventEnergy[row]
            if first == nil { first = timeline.time[row] }
            last = timeline.time[row]
        }
        guard diskEvents > 0 else { return .notApplicable("the run records no disk events") }
        // Projected from the time the run was observed, not across its time gaps.
        let runSeconds = Clock.seconds(timeline.end - timeline.gaps.total)
        guard runSeconds > 0, runSeconds >= context[Self.minRun] else {
            return .notApplicable("the run lasts \(fixed(runSeconds, 1)) s, shorter than the \(fixed(context[Self.minRun], 0)) s needed to project its writes to a day")
        }
        guard let first else { return .findings([]) }
        let rate = bytes / runSeconds
        let projection = bytes * (Self.day / runSeconds)
        let warning = context[Self.warningBytesPerDay], limit = context[Self.limitBytesPerDay]
        guard projection > warning || projection > limit else { return .findings([]) }
        let severity: Severity = projection > limit ? .error : .warning
        let threshold = severity == .error ? limit : warning
        let evidence = [
            Evidence("bytes written", bytes, unit: "B"),
            Evidence("writes", Double(writes), unit: "writes"),
            Evidence("run length", runSeconds, unit: "s"),
            Evidence("rate", rate, unit: "B/s"),
            Evidence("projection", projection, unit: "B/day"),
            Evidence("threshold", threshold, unit: "B/day"),
        ]
        let level = severity == .error ? "the system's disk-write limit" : "the warning level"
        return .findings([
            Self.description.finding(
                severity,
                message: "\(ByteFormat.string(bytes)) written in \(fixed(runSeconds, 1)) s (\(ByteFormat.string(rate))/s) projects to \(ByteFormat.string(projection)) a day, above \(level) of \(ByteFormat.string(threshold)).",
                evidence: evidence, energyJ: energy, timeRanges: [TimeRange(from: first, to: last)])
        ])
    }
}
