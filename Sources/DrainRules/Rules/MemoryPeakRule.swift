import DrainModel
import DrainReport
import DrainTrace

/// MEM-PEAK: the highest footprint sampled, against the device model's memory limit.
///
/// A warning when the peak is above `warning_share` of `model.memory.limit_bytes`, an error
/// above `error_share`. The time ranges are the stretches spent above the warning level:
/// from the first sample above it to the first sample back at or below it (or the last
/// sample). MetricKit peak memory and memory-limit exits are judged too (see
/// `evaluateAggregates`). O(n).
public struct MemoryPeakRule: AggregateRule {
    static let warningShare = RuleParameter("warning_share", default: 0.8, unit: "fraction", "share of the model's memory limit above which the peak is a warning")
    static let errorShare = RuleParameter("error_share", default: 1.0, unit: "fraction", "share of the model's memory limit above which the peak is an error (the system would terminate the app)")

    public static let description = RuleDescription(
        id: "MEM-PEAK",
        title: "Memory footprint near the limit",
        area: .memory,
        severity: .warning,
        guidance: """
            The system terminates an app whose footprint passes the device's limit, and an app \
            close to it is among the first to go when memory runs short. Keep the footprint well \
            below the limit: load large data lazily, in pieces, and let go of it when done.
            """,
        source: """
            MEM "use as little memory as possible" (App Programming Guide for iOS, Use Memory \
            Efficiently → Reduce Your App's Memory Footprint)
            """,
        fix: "Find what holds the peak (images, caches, whole files in memory) and load it lazily, in smaller pieces, or release it sooner.",
        parameters: [warningShare, errorShare],
        triggeringExamples: [
            Scenario("peak at 90 % of the limit", expect: .warning, model: { model in
                let limit = model.memory.limitBytes.value
                var run = TimelineBuilder()
                run.memory(0, footprint: Int64(limit * 0.5))
                run.memory(1, footprint: Int64(limit * 0.9))
                run.memory(2, footprint: Int64(limit * 0.6))
                return run.build(end: 3)
            }),
            Scenario("peak above the limit", expect: .error, model: { model in
                let limit = model.memory.limitBytes.value
                var run = TimelineBuilder()
                run.memory(0, footprint: Int64(limit * 0.7))
                run.memory(1, footprint: Int64(limit * 1.1))
                return run.build(end: 2)
            }),
            Scenario("MetricKit: peak memory at 90 % of the limit", expect: .warning, model: { model in
                .metricKit { $0.peakMemoryBytes = model.memory.limitBytes.value * 0.9 }
            }),
            Scenario("MetricKit: two memory-limit exits", expect: .error) {
                .metricKit { $0.exits = [.init(reason: "MemoryResourceLimit", foreground: 1, background: 1)] }
            },
        ],
        nonTriggeringExamples: [
            Scenario("MetricKit: peak memory at half the limit", model: { model in
                .metricKit { $0.peakMemoryBytes = model.memory.limitBytes.value * 0.5 }
            }),
            Scenario("peak at half the limit", model: { model in
                let limit = model.memory.limitBytes.value
                var run = TimelineBuilder()
                run.memory(0, footprint: Int64(limit * 0.3))
                run.memory(1, footprint: Int64(limit * 0.5))
                return run.build(end: 2)
            }),
            Scenario("no footprint samples") {
                var run = TimelineBuilder()
                run.cpu(0, duration: 1)
                return run.build(end: 2)
            },
        ])

    public init() {}

    public func evaluateEvents(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        let limit = context.model.memory.limitBytes.value
        guard limit > 0 else { return .notApplicable("the device model \(context.model.name) states no memory limit") }
        let warningLevel = context[Self.warningShare] * limit
        var peak: (row: Int, bytes: Int64)?
        var samples = 0
        var ranges: [TimeRange] = []
        var above: (start: Nanoseconds, last: Nanoseconds)?
        for row in 0..<timeline.count where timeline.kind[row] == .memory {
            samples += 1
            let bytes = timeline.amount[row], time = timeline.time[row]
            if bytes > peak?.bytes ?? .min { peak = (row, bytes) }
            if Double(bytes) > warningLevel {
                above = (above?.start ?? time, time)
            } else if let stretch = above {
                ranges.append(TimeRange(from: stretch.start, to: time))
                above = nil
            }
        }
        guard let peak else { return .notApplicable("the run has no memory footprint samples") }
        if let stretch = above { ranges.append(TimeRange(from: stretch.start, to: stretch.last)) }
        let share = Double(peak.bytes) / limit
        let severity: Severity
        if share > context[Self.errorShare] {
            severity = .error
        } else if share > context[Self.warningShare] {
            severity = .warning
        } else {
            return .findings([])
        }
        let peakTime = timeline.time[peak.row]
        let evidence = [
            Evidence("peak", Double(peak.bytes), unit: "B"),
            Evidence("limit", limit, unit: "B"),
            Evidence("share of limit", share * 100, unit: "%"),
            Evidence("time of peak", Clock.seconds(peakTime), unit: "s"),
            Evidence("samples", Double(samples), unit: "samples"),
        ]
        let level = context[severity == .error ? Self.errorShare : Self.warningShare]
        return .findings([
            Self.description.finding(
                severity,
                message: "Peak footprint \(ByteFormat.string(Double(peak.bytes))) at \(fixed(Clock.seconds(peakTime))) s is \(fixed(share * 100, 1)) % of the \(ByteFormat.string(limit)) limit of \(context.model.name), above \(fixed(level * 100, 0)) % of it.",
                evidence: evidence, timeRanges: ranges)
        ])
    }
}
