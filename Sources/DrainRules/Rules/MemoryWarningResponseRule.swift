import Algorithms
import DrainModel
import DrainReport
import DrainTrace

/// MEM-WARNING-RESPONSE: the footprint must fall soon after a memory warning.
///
/// For each `memory_warning`, the footprint before is the last `memory` sample at or before
/// the warning; the response is the lowest sample in `(warning, warning + window_s]`. The
/// warning is answered when that lowest sample is at least `min_drop` below the footprint
/// before. Otherwise it is a warning, and an error when even the lowest sample is above the
/// footprint before (the footprint rose). A warning without a sample before it or within
/// the window after it cannot be judged and is reported as info; when no warning can be
/// judged the rule is not applicable. O(n + m log s) for m warnings and s samples.
public struct MemoryWarningResponseRule: Rule {
    static let minDrop = RuleParameter("min_drop", default: 0.10, unit: "fraction", "how much the footprint must fall, as a share of the footprint before the warning")
    static let window = RuleParameter("window_s", default: 1, unit: "s", "how soon after the warning the footprint must have fallen")

    public static let description = RuleDescription(
        id: "MEM-WARNING-RESPONSE",
        title: "Memory warning not answered",
        area: .memory,
        severity: .warning,
        guidance: """
            A memory warning is the system's last request before it terminates apps to reclaim \
            memory. Answer it at once: drop caches, images and anything else that can be rebuilt, \
            so that the footprint visibly falls.
            """,
        source: """
            MEM "respond immediately; release unneeded objects" (App Programming Guide for iOS, Use \
            Memory Efficiently → Observe Low-Memory Warnings)
            """,
        fix: "Handle the memory warning by emptying caches and releasing objects that can be recreated, right away.",
        parameters: [minDrop, window],
        triggeringExamples: [
            Scenario("footprint barely moves after a warning", expect: .warning) {
                var run = TimelineBuilder()
                run.memory(0.5, footprint: 500_000_000)
                run.memoryWarning(1)
                run.memory(1.5, footprint: 480_000_000)
                return run.build(end: 3)
            },
            Scenario("footprint grows after a warning", expect: .error) {
                var run = TimelineBuilder()
                run.memory(0.5, footprint: 500_000_000)
                run.memoryWarning(1)
                run.memory(1.4, footprint: 520_000_000)
                run.memory(1.9, footprint: 550_000_000)
                return run.build(end: 3)
            },
            Scenario("a second warning with no sample after it", expect: .info) {
                var run = TimelineBuilder()
                run.memory(0.5, footprint: 500_000_000)
                run.memoryWarning(1)
                run.memory(1.2, footprint: 300_000_000)
                run.memoryWarning(5)
                return run.build(end: 8)
            },
        ],
        nonTriggeringExamples: [
            Scenario("footprint falls by 30 % within 200 ms") {
                var run = TimelineBuilder()
                run.memory(0.5, footprint: 500_000_000)
                run.memoryWarning(1)
                run.memory(1.2, footprint: 350_000_000)
                return run.build(end: 3)
            },
            Scenario("no memory warnings") {
                var run = TimelineBuilder()
                run.memory(0.5, footprint: 500_000_000)
                run.memory(1.5, footprint: 900_000_000)
                return run.build(end: 3)
            },
            Scenario("a warning with no footprint samples") {
                var run = TimelineBuilder()
                run.memoryWarning(1)
                return run.build(end: 3)
            },
        ])

    public init() {}

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        let timeline = context.timeline
        // Rows, not copies of their times and footprints: 4 bytes a sample instead of 16.
        let samples = timeline.rows(of: [.memory])
        let warnings = timeline.rows(of: [.memoryWarning])
        func sampleTime(_ index: Int) -> Nanoseconds { timeline.time[Int(samples[index])] }
        func footprint(_ index: Int) -> Int64 { timeline.amount[Int(samples[index])] }
        guard !warnings.isEmpty else { return .notApplicable("the run has no memory warnings") }
        guard !samples.isEmpty else {
            return .notApplicable("the run has \(warnings.count) memory warning(s) but no footprint samples")
        }
        let window = context.span(Self.window)
        let minimumDrop = context[Self.minDrop]
        // Merged as they are made: a long run repeats the same unanswered warning thousands of times.
        var merger = FindingMerger<Int>()
        var judged = 0
        for (order, warningRow) in warnings.enumerated() {
            let warning = timeline.time[Int(warningRow)]
            let afterStart = Self.firstIndex(count: samples.count, after: warning, time: sampleTime)
            let afterEnd = Self.firstIndex(count: samples.count, after: warning + window, time: sampleTime)
            guard afterStart > 0 else {
                merger.add(unjudged(warning, reason: "no footprint sample at or before it", context), at: order)
                continue
            }
            guard footprint(afterStart - 1) > 0 else {
                merger.add(unjudged(warning, reason: "a zero footprint sample before it", context), at: order)
                continue
            }
            guard afterEnd > afterStart else {
                merger.add(unjudged(warning, reason: "no footprint sample within \(fixed(context[Self.window])) s after it", context), at: order)
                continue
            }
            judged += 1
            let before = footprint(afterStart - 1)
            var lowest = afterStart
            for index in afterStart..<afterEnd where footprint(index) < footprint(lowest) { lowest = index }
            let drop = Double(before - footprint(lowest)) / Double(before)
            guard drop < minimumDrop else { continue }
            let response = Response(
                warning: warning, before: before, after: footprint(lowest), latency: sampleTime(lowest) - warning,
                samples: afterEnd - afterStart, lastSample: sampleTime(afterEnd - 1))
            merger.add(unanswered(response, drop: drop, context), at: order)
        }
        guard judged > 0 else {
            return .notApplicable("none of the \(warnings.count) memory warning(s) has a footprint sample before it and one within \(fixed(context[Self.window])) s after it")
        }
        return .findings(merger.findings())
    }

    /// The index of the first of `count` sorted instants (`time(index)`) later than `instant`.
    /// O(log count).
    static func firstIndex(count: Int, after instant: Nanoseconds, time: (Int) -> Nanoseconds) -> Int {
        (0..<count).partitioningIndex { time($0) > instant }
    }

    private struct Response {
        var warning: Nanoseconds
        var before: Int64
        var after: Int64
        var latency: Nanoseconds
        var samples: Int
        var lastSample: Nanoseconds
    }

    private func unanswered(_ response: Response, drop: Double, _ context: RuleContext) -> Finding {
        let rose = response.after > response.before
        let windowSeconds = context[Self.window]
        let evidence = [
            Evidence("warning time", Clock.seconds(response.warning), unit: "s"),
            Evidence("footprint before", Double(response.before), unit: "B"),
            Evidence("footprint after", Double(response.after), unit: "B"),
            Evidence("change", -drop * 100, unit: "%"),
            Evidence("latency", Clock.seconds(response.latency), unit: "s"),
            Evidence("samples in window", Double(response.samples), unit: "samples"),
            Evidence("required drop", context[Self.minDrop] * 100, unit: "%"),
        ]
        let change = rose ? "rose" : "fell only"
        return Self.description.finding(
            rose ? .error : .warning,
            message: "After the memory warning at \(fixed(Clock.seconds(response.warning))) s the footprint \(change) from \(ByteFormat.string(Double(response.before))) to at best \(ByteFormat.string(Double(response.after))) (\(fixed(-drop * 100, 1)) %) within \(fixed(windowSeconds)) s; it should fall by \(fixed(context[Self.minDrop] * 100, 0)) %.",
            evidence: evidence, timeRanges: [TimeRange(from: response.warning, to: response.lastSample)])
    }

    private func unjudged(_ warning: Nanoseconds, reason: String, _ context: RuleContext) -> Finding {
        Self.description.finding(
            .info, subject: "not measured", title: "Memory warning response not measured",
            message: "The response to the memory warning at \(fixed(Clock.seconds(warning))) s cannot be measured: there is \(reason).",
            evidence: [Evidence("warning time", Clock.seconds(warning), unit: "s"), Evidence("missing", text: reason)],
            timeRanges: [TimeRange(from: warning, to: warning)])
    }
}
