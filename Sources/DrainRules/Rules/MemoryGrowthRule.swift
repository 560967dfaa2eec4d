import DrainModel
import DrainReport
import DrainTrace

/// MEM-GROWTH: a footprint that grows steadily over the run.
///
/// A least-squares line through all the run's `memory` samples (footprint in bytes against
/// time), when they span at least `min_span_s` and number at least three (two points always
/// fit a line exactly). Slope above `min_slope_mb_per_min` and R² above `min_r2` is a
/// warning. The whole run is fitted rather than its steepest stretch: a footprint that rises
/// and then levels off (a cache filling up) is bounded, and only growth that dominates the
/// run reads as a leak. O(n).
public struct MemoryGrowthRule: Rule {
    /// Fewer samples always fit their line (two) or say nothing (one).
    static let minimumSamples = 3

    static let minSlopeMbPerMin = RuleParameter("min_slope_mb_per_min", default: 1, unit: "MB/min", "growth rate of the fitted line above which the footprint is growing")
    static let minR2 = RuleParameter("min_r2", default: 0.8, unit: "fraction", "how closely the samples must follow the line (coefficient of determination)")
    static let minSpan = RuleParameter("min_span_s", default: 60, unit: "s", "shortest span of samples that is fitted")

    public static let description = RuleDescription(
        id: "MEM-GROWTH",
        title: "Steady memory growth",
        area: .memory,
        severity: .warning,
        guidance: """
            A footprint that keeps climbing at a steady rate usually means memory that is never \
            released: a leak, a cache without a limit, or a collection that grows with every \
            event. Sooner or later it reaches the limit and the app is terminated.
            """,
        source: """
            MEM "eliminate leaks; avoid unbounded problems" (App Programming Guide for iOS, Use \
            Memory Efficiently → Allocate Memory Wisely)
            """,
        fix: "Find what accumulates (Instruments' Leaks and Allocations generations) and release it, or bound the cache or collection that grows.",
        parameters: [minSlopeMbPerMin, minR2, minSpan],
        triggeringExamples: [
            Scenario("2 MB more every minute for ten minutes", expect: .warning) {
                var run = TimelineBuilder()
                for sample in 0...20 { run.memory(Double(sample) * 30, footprint: 80_000_000 + Int64(sample) * 1_000_000) }
                return run.build(end: 600)
            },
        ],
        nonTriggeringExamples: [
            Scenario("a flat footprint with noise") {
                var run = TimelineBuilder()
                let noise: [Int64] = [0, 3, -2, 4, -1, 2, -3, 1, 0, -4, 2]
                for (sample, offset) in noise.enumerated() {
                    run.memory(Double(sample) * 30, footprint: 120_000_000 + offset * 1_000_000)
                }
                return run.build(end: 300)
            },
            Scenario("growth for only 40 s") {
                var run = TimelineBuilder()
                for sample in 0...4 { run.memory(Double(sample) * 10, footprint: 80_000_000 + Int64(sample) * 5_000_000) }
                return run.build(end: 40)
            },
            Scenario("no footprint samples") {
                var run = TimelineBuilder()
                run.cpu(0, duration: 1)
                return run.build(end: 120)
            },
        ])

    public init() {}

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        var times: [Double] = []
        var footprints: [Double] = []
        for row in 0..<timeline.count where timeline.kind[row] == .memory {
            times.append(Clock.seconds(timeline.time[row]))
            footprints.append(Double(timeline.amount[row]))
        }
        guard times.count >= Self.minimumSamples else {
            return .notApplicable("the run has \(times.count) footprint sample(s); a fit needs \(Self.minimumSamples)")
        }
        let span = times[times.count - 1] - times[0]
        guard span > 0, span >= context[Self.minSpan], let fit = LinearFit(x: times, y: footprints) else {
            return .notApplicable("the footprint samples span \(fixed(span, 1)) s, shorter than the \(fixed(context[Self.minSpan], 0)) s a fit needs")
        }
        let slopePerMinute = fit.slope * 60 / 1e6
        let minimumSlope = context[Self.minSlopeMbPerMin], minimumR2 = context[Self.minR2]
        guard slopePerMinute > minimumSlope, fit.rSquared > minimumR2 else { return .findings([]) }
        let start = fit.intercept + fit.slope * times[0]
        let end = fit.intercept + fit.slope * times[times.count - 1]
        let evidence = [
            Evidence("slope", slopePerMinute, unit: "MB/min"),
            Evidence("R²", fit.rSquared),
            Evidence("window", span, unit: "s"),
            Evidence("samples", Double(times.count), unit: "samples"),
            Evidence("fitted start", start, unit: "B"),
            Evidence("fitted end", end, unit: "B"),
            Evidence("growth", end - start, unit: "B"),
            Evidence("slope threshold", minimumSlope, unit: "MB/min"),
            Evidence("R² threshold", minimumR2),
        ]
        return .findings([
            Self.description.finding(
                .warning,
                message: "The footprint grew \(fixed(slopePerMinute)) MB per minute over \(fixed(span, 0)) s (R² \(fixed(fit.rSquared, 3))), from about \(ByteFormat.string(start)) to \(ByteFormat.string(end)).",
                evidence: evidence, timeRanges: [TimeRange(startS: times[0], endS: times[times.count - 1])])
        ])
    }
}
