import DrainModel
import DrainReport
import DrainTrace

/// NET-PERIODIC: an endpoint contacted at a regular interval, each time waking the radio.
///
/// Bursts are split per endpoint and radio (`BurstDetector`, `.endpoint`). Walking one
/// endpoint's bursts in time order, a run goes on while each interval between burst starts
/// lies in `[min_interval_s, max_interval_s]` and the coefficient of variation (population
/// standard deviation / mean) of the run's intervals, the new one included, stays at most
/// `max_variation`. A run of at least `min_bursts` bursts is periodic. A run that breaks short
/// restarts at its last burst, so the breaking interval can open a new run; a periodic run
/// keeps its last burst. One finding per endpoint and radio, with a time range per run: an
/// error when the periodic bursts' radio energy is more than `error_share` of all radio
/// energy. O(n + b log b) for b bursts.
public struct NetPeriodicRule: Rule {
    static let minBursts = RuleParameter("min_bursts", default: 3, unit: "bursts", "bursts at a regular interval that make a finding")
    static let minInterval = RuleParameter("min_interval_s", default: 1, unit: "s", "the shortest interval between burst starts that counts as periodic")
    static let maxInterval = RuleParameter("max_interval_s", default: 1800, unit: "s", "the longest interval between burst starts that counts as periodic (30 min)")
    static let maxVariation = RuleParameter("max_variation", default: 0.25, unit: "CV", "the largest coefficient of variation (standard deviation / mean) of a run's intervals that is still regular")
    static let errorShare = RuleParameter("error_share", default: 0.25, unit: "fraction", "share of all radio energy above which the periodic bursts make an error")

    public static let description = RuleDescription(
        id: "NET-PERIODIC",
        title: "Periodic transfers to one endpoint",
        area: .network,
        severity: .warning,
        guidance: """
            Contacting a server on a clock wakes the radio each time, and every wake-up pays a \
            promotion and a tail of several seconds however little is sent. Let the server push \
            changes, or fetch them when the user needs them, and fold periodic work into \
            transfers that happen anyway.
            """,
        source: """
            PWR "do not poll the server" (App Programming Guide for iOS, Reduce Your App's Power \
            Consumption); NET "Tips for Efficient Networking"
            """,
        fix: "Replace the timer-driven request with push notifications or a background fetch the system schedules, or batch it with other transfers.",
        parameters: [minBursts, minInterval, maxInterval, maxVariation, errorShare],
        triggeringExamples: [
            Scenario("a status check every 30 s and nothing else", expect: .error) {
                var run = TimelineBuilder()
                for check in 0..<6 {
                    let t = 5 + Double(check) * 30
                    run.net(t, .tx, bytes: 400, host: "status.example.com")
                    run.net(t + 0.12, .rx, bytes: 800, host: "status.example.com")
                }
                return run.build(end: 180)
            },
            Scenario("a poll every 60 s beside a larger download", expect: .warning) {
                var capture = CaptureBuilder()
                let download = capture.tcp(to: "cdn.example.com")
                capture.packet(download, at: 1, .rx, bytes: 20_000_000, payload: 19_000_000, segments: 13_000, span: 120)
                for poll in 0..<5 {
                    capture.net(200 + Double(poll) * 60, .tx, bytes: 300, host: "poll.example.com")
                    capture.net(200.2 + Double(poll) * 60, .rx, bytes: 500, host: "poll.example.com")
                }
                return capture.build(end: 500)
            },
            Scenario("a heartbeat every 15 s with jitter", expect: .error) {
                var run = TimelineBuilder()
                for (beat, jitter) in [0.0, 1.5, -1.0, 0.5, -1.5, 1.0, 0.0, -0.5].enumerated() {
                    run.net(2 + Double(beat) * 15 + jitter, .tx, bytes: 120, host: "push.example.net", link: .cellular)
                }
                return run.build(end: 130)
            },
        ],
        nonTriggeringExamples: [
            Scenario("requests at irregular times") {
                var run = TimelineBuilder()
                for t in [0.0, 5, 45, 57, 147, 150] { run.net(t, .tx, bytes: 600, host: "api.example.com") }
                return run.build(end: 160)
            },
            Scenario("two checks only") {
                var run = TimelineBuilder()
                run.net(0, .tx, bytes: 400, host: "status.example.com")
                run.net(30, .tx, bytes: 400, host: "status.example.com")
                return run.build(end: 40)
            },
            Scenario("a check every 45 minutes") {
                var run = TimelineBuilder()
                for check in 0..<4 { run.net(Double(check) * 2700, .tx, bytes: 400, host: "status.example.com") }
                return run.build(end: 8200)
            },
            Scenario("no network traffic") {
                var run = TimelineBuilder()
                run.cpu(0, duration: 1)
                return run.build(end: 10)
            },
        ])

    public init() {}

    public func evaluate(_ context: RuleContext) -> RuleOutcome {
        guard context.hasNetEvents else { return .notApplicable(RuleContext.noTrafficReason) }
        let bursts = BurstDetector.bursts(in: context.priced, model: context.model, by: .endpoint)
        var groups: [GroupKey: [Int]] = [:]
        var order: [GroupKey] = []
        for (index, burst) in bursts.enumerated() {
            let key = GroupKey(endpoint: burst.endpoint, link: burst.link)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(index)
        }
        let limits = Limits(
            minBursts: max(2, context.count(Self.minBursts)),
            minInterval: context[Self.minInterval],
            maxInterval: context[Self.maxInterval],
            maxVariation: context[Self.maxVariation])
        let radioEnergy = context.radioEnergy
        var findings: [Finding] = []
        for key in order {
            let members = groups[key] ?? []
            let runs = Self.periodicRuns(members.map { bursts[$0].start }, limits)
            guard !runs.isEmpty else { continue }
            let periodic = runs.map { run in run.bursts.map { bursts[members[$0]] } }
            findings.append(finding(key, runs: runs, bursts: periodic, radioEnergy: radioEnergy, context))
        }
        return .findings(findings)
    }

    private func finding(
        _ key: GroupKey, runs: [Run], bursts: [[Burst]], radioEnergy: Double, _ context: RuleContext
    ) -> Finding {
        let endpoint = context.timeline.name(key.endpoint, or: "(unnamed endpoint)")
        let all = bursts.joined()
        let intervals = runs.reduce(0) { $0 + $1.intervals.count }
        let period = runs.reduce(0) { $0 + $1.intervals.sum } / Double(max(1, intervals))
        let bytes = all.reduce(Int64(0)) { $0 + $1.bytes }
        let energy = all.reduce(0) { $0 + $1.energy }
        let share = radioEnergy > 0 ? energy / radioEnergy : 0
        let errorShare = context[Self.errorShare]
        let evidence = [
            Evidence("endpoint", text: endpoint),
            Evidence("link", text: context.radioName(key.link)),
            Evidence("period", period, unit: "s"),
            Evidence("bursts", Double(all.count), unit: "bursts"),
            Evidence("runs", Double(runs.count), unit: "runs"),
            Evidence("interval variation", runs.map(\.intervals.variation).max() ?? 0, unit: "CV"),
            Evidence("bytes", Double(bytes), unit: "B"),
            Evidence("radio energy", energy, unit: "J"),
            Evidence("share of radio energy", share * 100, unit: "%"),
        ]
        return Self.description.finding(
            share > errorShare ? .error : .warning, subject: endpoint,
            message: "\(endpoint) was contacted every \(fixed(period, 1)) s over \(context.radioName(key.link)) (\(all.count) bursts, \(ByteFormat.string(Double(bytes)))); waking the radio for each cost \(fixed(energy, 3)) J of promotions, transfers and tails, \(percent(share)) of the run's radio energy.",
            evidence: evidence, energyJ: energy,
            timeRanges: bursts.map { TimeRange(from: $0.first?.start ?? 0, to: $0.map(\.end).max() ?? 0) })
    }

    /// The periodic runs among burst start times (sorted), as index ranges into them.
    private static func periodicRuns(_ starts: [Nanoseconds], _ limits: Limits) -> [Run] {
        var runs: [Run] = []
        var first = 0
        var intervals = IntervalStatistics()
        for index in starts.indices.dropFirst() {
            let interval = Clock.seconds(starts[index] - starts[index - 1])
            let inRange = interval >= limits.minInterval && interval <= limits.maxInterval && interval > 0
            if inRange, intervals.adding(interval).variation <= limits.maxVariation {
                intervals = intervals.adding(interval)
                continue
            }
            if index - first >= limits.minBursts {
                runs.append(Run(bursts: first..<index, intervals: intervals))
                first = index
                intervals = IntervalStatistics()
            } else if inRange {
                first = index - 1
                intervals = IntervalStatistics().adding(interval)
            } else {
                first = index
                intervals = IntervalStatistics()
            }
        }
        if starts.count - first >= limits.minBursts {
            runs.append(Run(bursts: first..<starts.count, intervals: intervals))
        }
        return runs
    }

    private struct Limits {
        var minBursts: Int
        var minInterval: Double
        var maxInterval: Double
        var maxVariation: Double
    }

    /// Bursts `bursts` (indices into one endpoint's bursts) at a regular interval.
    private struct Run {
        var bursts: Range<Int>
        var intervals: IntervalStatistics
    }

    /// Count, sum and sum of squares of intervals, for their mean and coefficient of variation.
    private struct IntervalStatistics {
        var count = 0
        var sum = 0.0
        var sumOfSquares = 0.0

        func adding(_ interval: Double) -> IntervalStatistics {
            IntervalStatistics(count: count + 1, sum: sum + interval, sumOfSquares: sumOfSquares + interval * interval)
        }

        /// Population standard deviation over the mean; 0 for fewer than two intervals.
        var variation: Double {
            guard count > 1, sum > 0 else { return 0 }
            let mean = sum / Double(count)
            let variance = max(0, sumOfSquares / Double(count) - mean * mean)
            return variance.squareRoot() / mean
        }
    }

    private struct GroupKey: Hashable {
        var endpoint: StringID
        var link: LinkKind
    }
}
