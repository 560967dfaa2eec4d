import DrainModel
import DrainReport
import DrainTrace

/// MEM-BACKGROUND: memory kept after moving to the background.
///
/// For each background stretch that lasts more than `delay_s`, the footprint `delay_s` after
/// it began is the last `memory` sample of the stretch at or before that instant, or, when
/// the stretch has none by then, its first sample after it (a suspended app is not sampled,
/// and its footprint does not change while suspended). The foreground peak is the highest
/// sample taken in the foreground before the stretch. A footprint above `max_share` of that
/// peak and above `min_bytes` is a warning, one finding per stretch. A stretch without a
/// sample, or without a foreground sample before it, cannot be judged. O(n + m log s) for
/// m samples and s stretches. MetricKit's average suspended memory against its peak memory is
/// judged too (see `evaluateAggregates`).
public struct MemoryBackgroundRule: AggregateRule {
    static let delay = RuleParameter("delay_s", default: 5, unit: "s", "how long after entering the background the footprint is taken")
    static let maxShare = RuleParameter("max_share", default: 0.5, unit: "fraction of the foreground peak", "background footprint above this share of the foreground peak is too high")
    static let minBytes = RuleParameter("min_bytes", default: 50_000_000, unit: "B", "background footprint that is too high only above this size (50 MB)")

    public static let description = RuleDescription(
        id: "MEM-BACKGROUND",
        title: "Memory kept in the background",
        area: .memory,
        severity: .warning,
        guidance: """
            When memory runs short the system terminates background apps, the largest first. \
            On entering the background, release what can be rebuilt (images, caches, views) so \
            that the app is cheap to keep and more likely to be there when the user comes back.
            """,
        source: """
            BG "free memory when entering the background" (Preparing your UI to run in the \
            background; Background Execution → Being a Responsible Background App)
            """,
        fix: "On entering the background, empty caches and release images, views and other objects that can be recreated.",
        parameters: [delay, maxShare, minBytes],
        triggeringExamples: [
            Scenario("300 MB kept of a 400 MB peak", expect: .warning) {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.memory(1, footprint: 250_000_000)
                run.memory(5, footprint: 400_000_000)
                run.lifecycle(10, .background)
                run.memory(12, footprint: 320_000_000)
                run.memory(15, footprint: 300_000_000)
                run.lifecycle(16, .suspended)
                return run.build(end: 60)
            },
            Scenario("MetricKit: 300 MB suspended of a 400 MB peak", expect: .warning) {
                .metricKit {
                    $0.peakMemoryBytes = 400_000_000
                    $0.averageSuspendedMemoryBytes = 300_000_000
                }
            },
        ],
        nonTriggeringExamples: [
            Scenario("MetricKit: 100,000 kB suspended of a 200,000 kB peak") {
                .metricKit {
                    $0.peakMemoryBytes = 200_000_000
                    $0.averageSuspendedMemoryBytes = 100_000_000
                }
            },
            Scenario("memory released on entering the background") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.memory(5, footprint: 400_000_000)
                run.lifecycle(10, .background)
                run.memory(11, footprint: 150_000_000)
                run.lifecycle(12, .suspended)
                return run.build(end: 60)
            },
            Scenario("a small app keeps most of its 60 MB") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.memory(5, footprint: 60_000_000)
                run.lifecycle(10, .background)
                run.memory(16, footprint: 45_000_000)
                return run.build(end: 60)
            },
            Scenario("no background") {
                var run = TimelineBuilder()
                run.lifecycle(0, .active)
                run.memory(5, footprint: 400_000_000)
                return run.build(end: 60)
            },
        ])

    public init() {}

    public func evaluateEvents(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        let track = context.lifecycleTrack
        guard !track.stretches.isEmpty else { return .notApplicable("the run never enters the background") }
        let delay = context.span(Self.delay)
        var peak: Sample?
        var judged: [Judgement?] = Array(repeating: nil, count: track.stretches.count)
        var samples = 0
        for row in 0..<timeline.count where timeline.kind[row] == .memory {
            samples += 1
            let sample = Sample(time: timeline.time[row], bytes: timeline.amount[row])
            guard let index = track.stretch(atRow: row) else {
                if sample.bytes > peak?.bytes ?? .min { peak = sample }
                continue
            }
            let stretch = track.stretches[index]
            guard stretch.end > stretch.start.plus(delay), let peak, peak.bytes > 0 else { continue }
            // Samples come in time order: a later one at or before the instant replaces the
            // current one; after the instant, the first one found stays.
            if judged[index] == nil {
                judged[index] = Judgement(stretch: index, peak: peak, sample: sample)
            } else if sample.time <= stretch.start.plus(delay) {
                judged[index]?.sample = sample
            }
        }
        guard samples > 0 else { return .notApplicable("the run has no memory footprint samples") }
        let judgements = judged.compactMap { $0 }
        guard !judgements.isEmpty else {
            return .notApplicable("no background stretch lasting \(fixed(context[Self.delay], 0)) s has a footprint sample and a foreground sample before it")
        }
        return .findings(judgements.compactMap { finding($0, track: track, context) })
    }

    private func finding(_ judgement: Judgement, track: LifecycleTrack, _ context: RuleContext) -> Finding? {
        let after = Double(judgement.sample.bytes), peak = Double(judgement.peak.bytes)
        let maximumShare = context[Self.maxShare], minimum = context[Self.minBytes]
        let share = after / peak
        guard share > maximumShare, after > minimum else { return nil }
        let entered = track.stretches[judgement.stretch].start
        let evidence = [
            Evidence("entered background", Clock.seconds(entered), unit: "s"),
            Evidence("background footprint", after, unit: "B"),
            Evidence("measured at", Clock.seconds(judgement.sample.time), unit: "s"),
            Evidence("foreground peak", peak, unit: "B"),
            Evidence("time of peak", Clock.seconds(judgement.peak.time), unit: "s"),
            Evidence("share of peak", share * 100, unit: "%"),
            Evidence("max share", maximumShare * 100, unit: "%"),
            Evidence("min footprint", minimum, unit: "B"),
        ]
        return Self.description.finding(
            .warning,
            message: "\(fixed(context[Self.delay], 0)) s after entering the background at \(fixed(Clock.seconds(entered))) s the footprint was \(ByteFormat.string(after)), \(fixed(share * 100, 1)) % of the \(ByteFormat.string(peak)) foreground peak.",
            evidence: evidence, timeRanges: [TimeRange(from: entered, to: judgement.sample.time)])
    }

    private struct Sample {
        var time: Nanoseconds
        var bytes: Int64
    }

    /// The footprint that judges one stretch and the foreground peak before it.
    private struct Judgement {
        var stretch: Int
        var peak: Sample
        var sample: Sample
    }
}
