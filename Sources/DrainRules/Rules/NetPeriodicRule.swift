import DrainModel
import DrainReport
import DrainTrace

/// NET-PERIODIC: an endpoint contacted at a regular interval, and the radio energy that cost.
///
/// Bursts are split per endpoint and radio (`BurstDetector`, `.endpoint`). Walking one
/// endpoint's bursts in time order, a run goes on while each interval between burst starts
/// lies in `[min_interval_s, max_interval_s]` and the coefficient of variation (population
/// standard deviation / mean) of the run's intervals, the new one included, stays at most
/// `max_variation`. A run of at least `min_bursts` bursts whose first and last burst starts are
/// at least `min_span_s` apart is periodic. A run that breaks short restarts at its last burst,
/// so the breaking interval can open a new run; a periodic run keeps its last burst. An
/// interval across a time gap of the run breaks a run (the bursts on either side were not
/// observed as one sequence). One finding per endpoint and radio, with a time range per run;
/// findings share a key when they share an endpoint, so the engine merges an endpoint's two
/// radios into one (`FindingMerger`: the lead's figures, the energy and ranges of both).
///
/// The energy of the pattern is what its bursts caused on their radio (`RadioAttribution`): the
/// promotions of the bursts that found the radio idle, and the radio time each burst added past
/// the point where the traffic before it would have let the radio go idle. A burst inside the
/// tail of another burst, the endpoint's own or other traffic's, causes no promotion, only the
/// tail it adds. The finding is info when that energy is less than `info_share` of all radio
/// energy, an error when it is more than `error_share`, else a warning. O(n + b log b + e log e)
/// for n events, b bursts and the e events of periodic bursts.
public struct NetPeriodicRule: Rule {
    static let minBursts = RuleParameter("min_bursts", default: 4, unit: "bursts", "bursts at a regular interval that make a finding")
    static let minInterval = RuleParameter("min_interval_s", default: 1, unit: "s", "the shortest interval between burst starts that counts as periodic")
    static let maxInterval = RuleParameter("max_interval_s", default: 1800, unit: "s", "the longest interval between burst starts that counts as periodic (30 min)")
    static let maxVariation = RuleParameter("max_variation", default: 0.25, unit: "CV", "the largest coefficient of variation (standard deviation / mean) of a run's intervals that is still regular")
    static let minSpan = RuleParameter("min_span_s", default: 60, unit: "s", "the shortest time from a run's first burst start to its last that is periodic")
    static let infoShare = RuleParameter("info_share", default: 0.01, unit: "fraction", "share of all radio energy below which the energy the bursts caused makes only an info")
    static let errorShare = RuleParameter("error_share", default: 0.25, unit: "fraction", "share of all radio energy above which the energy the bursts caused makes an error")

    public static let description = RuleDescription(
        id: "NET-PERIODIC",
        title: "Periodic transfers to one endpoint",
        area: .network,
        severity: .warning,
        guidance: """
            Contacting a server on a clock wakes the radio whenever the interval is longer than \
            its tail, and every wake-up pays a promotion and a tail of several seconds however \
            little is sent; a shorter interval keeps the radio up the whole time. Let the server \
            push changes, or fetch them when the user needs them, and fold periodic work into \
            transfers that happen anyway.
            """,
        source: """
            PWR "do not poll the server" (App Programming Guide for iOS, Reduce Your App's Power \
            Consumption); NET "Tips for Efficient Networking"
            """,
        fix: "Replace the timer-driven request with push notifications or a background fetch the system schedules, or batch it with other transfers.",
        parameters: [minBursts, minInterval, maxInterval, maxVariation, minSpan, infoShare, errorShare],
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
            Scenario("a poll every 2 s for two minutes, which keeps the radio up throughout", expect: .error) {
                var run = TimelineBuilder()
                for poll in 0...60 { run.net(Double(poll) * 2, .tx, bytes: 200, host: "live.example.com", link: .cellular) }
                return run.build(end: 140)
            },
            Scenario("a heartbeat every 20 s while a download keeps the radio up", expect: .info) {
                var capture = CaptureBuilder()
                let download = capture.tcp(to: "cdn.example.com", link: .cellular)
                capture.packet(download, at: 0, .rx, bytes: 50_000_000, payload: 48_000_000, segments: 33_000, span: 200)
                for beat in 0..<9 { capture.net(10 + Double(beat) * 20, .tx, bytes: 120, host: "push.example.net", link: .cellular) }
                return capture.build(end: 220)
            },
        ],
        nonTriggeringExamples: [
            Scenario("requests at irregular times") {
                var run = TimelineBuilder()
                for t in [0.0, 5, 45, 57, 147, 150] { run.net(t, .tx, bytes: 600, host: "api.example.com") }
                return run.build(end: 160)
            },
            Scenario("3 bursts 2 s apart") {
                var run = TimelineBuilder()
                for t in [0.0, 2, 4] { run.net(t, .tx, bytes: 400, host: "192.168.1.1", link: .cellular) }
                return run.build(end: 20)
            },
            Scenario("four checks 10 s apart, spanning less than a minute") {
                var run = TimelineBuilder()
                for check in 0..<4 { run.net(Double(check) * 10, .tx, bytes: 400, host: "status.example.com") }
                return run.build(end: 40)
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
        let limits = Limits(
            minBursts: max(2, context.count(Self.minBursts)),
            minInterval: context[Self.minInterval],
            maxInterval: context[Self.maxInterval],
            maxVariation: context[Self.maxVariation],
            minSpan: context.span(Self.minSpan))
        // Runs are found from the bursts' starts alone; then only the bursts of periodic runs
        // are taken whole, and folded into their runs' figures one at a time (a long capture has
        // hundreds of thousands of bursts, and this rule runs beside others when memory peaks).
        let starts = BurstStarts(context)
        var patterns: [Pattern] = []
        var chosen: [(ordinal: Int, pattern: Int32, run: Int32)] = []
        for group in starts.groups.indices where starts.count(of: group) >= limits.minBursts {
            let ordinals = starts.ordinals(of: group)
            let runs = Self.periodicRuns(ordinals.map { starts.start[$0] }, limits, gaps: context.timeline.gaps)
            guard !runs.isEmpty else { continue }
            for (index, run) in runs.enumerated() {
                chosen += ordinals[run.bursts].map { ($0, Int32(patterns.count), Int32(index)) }
            }
            patterns.append(Pattern(key: starts.groups[group], runs: runs))
        }
        guard !patterns.isEmpty else { return .findings([]) }
        // Each burst is one endpoint's on one radio, and a group's runs do not overlap: the
        // chosen ordinals are distinct.
        chosen.sort { $0.ordinal < $1.ordinal }
        let radios = RadioLinks(radio: context.model.radio)
        // The events of each chosen burst, in the order the bursts come: what they caused on
        // their radio is worked out for them alone once they are all known.
        var burstEvents = BurstEvents()
        var asked = 0, passed = 0
        BurstDetector.forEachBurst(
            in: context.priced, model: context.model, by: .endpoint,
            where: { ordinal in
                while asked < chosen.count, chosen[asked].ordinal < ordinal { asked += 1 }
                return asked < chosen.count && chosen[asked].ordinal == ordinal
            },
            { ordinal, burst in
                while chosen[passed].ordinal < ordinal { passed += 1 }
                let pattern = Int(chosen[passed].pattern)
                patterns[pattern].summaries[Int(chosen[passed].run)].add(burst)
                burstEvents.add(burst, of: pattern, context.timeline, radios)
            })
        let attribution = RadioAttribution(context.timeline, model: context.model, rows: burstEvents.rowsAscending())
        burstEvents.forEach { pattern, rows in patterns[pattern].cost.add(rows, attribution) }
        let radioEnergy = context.radioEnergy
        return .findings(patterns.map { finding($0, radioEnergy: radioEnergy, context) })
    }

    private func finding(_ pattern: Pattern, radioEnergy: Double, _ context: RuleContext) -> Finding {
        let endpoint = context.timeline.name(pattern.key.endpoint, or: "(unnamed endpoint)")
        let radio = context.radioName(pattern.key.link)
        let cost = pattern.cost
        let bursts = pattern.summaries.reduce(0) { $0 + $1.bursts }
        let intervals = pattern.runs.reduce(0) { $0 + $1.intervals.count }
        let period = pattern.runs.reduce(0) { $0 + $1.intervals.sum } / Double(max(1, intervals))
        let span = pattern.runs.map(\.intervals.sum).max() ?? 0
        let bytes = pattern.summaries.reduce(Int64(0)) { $0 + $1.bytes }
        let share = radioEnergy > 0 ? cost.joules / radioEnergy : 0
        let severity: Severity =
            share > context[Self.errorShare] ? .error : share < context[Self.infoShare] ? .info : .warning
        let evidence = [
            Evidence("endpoint", text: endpoint),
            Evidence("link", text: radio),
            Evidence("period", period, unit: "s"),
            Evidence("bursts", Double(bursts), unit: "bursts"),
            Evidence("runs", Double(pattern.runs.count), unit: "runs"),
            Evidence("longest run", span, unit: "s"),
            Evidence("interval variation", pattern.runs.map(\.intervals.variation).max() ?? 0, unit: "CV"),
            Evidence("bytes", Double(bytes), unit: "B"),
            Evidence("wake-ups", Double(cost.wakeUps), unit: "wake-ups"),
            Evidence("bursts while the radio was up", Double(cost.burstsWhileUp), unit: "bursts"),
            Evidence("promotion and tail energy", cost.joules, unit: "J"),
            Evidence("share of radio energy", share * 100, unit: "%"),
        ]
        let contacted = "\(endpoint) was contacted every \(fixed(period, 1)) s over \(radio) (\(bursts) bursts, \(ByteFormat.string(Double(bytes))))"
        let effect: String
        if cost.wakeUps == 0 {
            let added =
                isMeasurable(cost.joules)
                ? "; they lengthened its tail by \(fixed(cost.joules, 3)) J, \(percent(share)) of the run's radio energy"
                : " and added no measurable radio energy"
            effect = "the radio was already up for every burst, so they never woke it\(added)"
        } else {
            let whileUp = cost.burstsWhileUp > 0 ? " (\(cost.burstsWhileUp) of the bursts came while it was still up)" : ""
            let made = context.wakeUpCost(on: pattern.key.link, promotions: cost.wakeUps, tails: bursts)
            effect = "the bursts woke the radio \(times(cost.wakeUps))\(whileUp), costing \(fixed(cost.joules, 3)) J of \(made), \(percent(share)) of the run's radio energy"
        }
        return Self.description.finding(
            severity, subject: endpoint, message: "\(contacted); \(effect).", evidence: evidence, energyJ: cost.joules,
            timeRanges: pattern.summaries.map { TimeRange(from: $0.start, to: $0.end) })
    }

    /// The periodic runs among burst start times (sorted), as index ranges into them.
    private static func periodicRuns(_ starts: [Nanoseconds], _ limits: Limits, gaps: TimeGaps) -> [Run] {
        var runs: [Run] = []
        var first = 0
        var intervals = IntervalStatistics()
        for index in starts.indices.dropFirst() {
            let interval = Clock.seconds(starts[index] - starts[index - 1])
            let inRange =
                interval >= limits.minInterval && interval <= limits.maxInterval && interval > 0
                && !gaps.separates(starts[index - 1], starts[index])
            if inRange, intervals.adding(interval).variation <= limits.maxVariation {
                intervals = intervals.adding(interval)
                continue
            }
            if limits.isPeriodic(starts[first...(index - 1)]) {
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
        if limits.isPeriodic(starts[first...]) {
            runs.append(Run(bursts: first..<starts.count, intervals: intervals))
        }
        return runs
    }

    private struct Limits {
        var minBursts: Int
        var minInterval: Double
        var maxInterval: Double
        var maxVariation: Double
        var minSpan: Nanoseconds

        /// Whether a regular run with these burst starts has enough bursts over a long enough time.
        func isPeriodic(_ starts: ArraySlice<Nanoseconds>) -> Bool {
            guard let first = starts.first, let last = starts.last else { return false }
            return starts.count >= minBursts && last - first >= minSpan
        }
    }

    /// One endpoint's periodic runs on one radio, with their bursts' figures.
    private struct Pattern {
        var key: GroupKey
        var runs: [Run]
        /// One per run, in the same order.
        var summaries: [RunSummary]
        var cost = Cost()

        init(key: GroupKey, runs: [Run]) {
            self.key = key
            self.runs = runs
            summaries = Array(repeating: RunSummary(), count: runs.count)
        }
    }

    /// A run's bursts: how many, their bytes, and the time from the first one's start to the
    /// latest end.
    private struct RunSummary {
        var bursts = 0
        var bytes: Int64 = 0
        var start: Nanoseconds = .max
        var end: Nanoseconds = .min

        mutating func add(_ burst: Burst) {
            bursts += 1
            bytes += burst.bytes
            start = min(start, burst.start)
            end = max(end, burst.end)
        }
    }

    /// The events of the chosen bursts, burst after burst: the events of a burst are its
    /// endpoint's events on its radio between its first and last row. 4 bytes per event and 8
    /// per burst.
    private struct BurstEvents {
        private var rows: [UInt32] = []
        /// Per burst, its pattern and the end of its events in `rows`.
        private var bursts: [(pattern: Int32, end: Int32)] = []

        mutating func add(_ burst: Burst, of pattern: Int, _ timeline: Timeline, _ radios: RadioLinks) {
            for row in burst.firstRow...burst.lastRow
            where timeline.kind[row] == .net && timeline.label[row] == burst.endpoint
                && radios.radio(forCode: timeline.code2[row]) == burst.link
            {
                rows.append(UInt32(row))
            }
            bursts.append((Int32(pattern), Int32(rows.count)))
        }

        /// Every burst's events, ascending.
        func rowsAscending() -> [UInt32] { rows.sorted() }

        /// Calls `body` with each burst's pattern and events, in the order they were added.
        func forEach(_ body: (Int, ArraySlice<UInt32>) -> Void) {
            var start = 0
            for burst in bursts {
                body(Int(burst.pattern), rows[start..<Int(burst.end)])
                start = Int(burst.end)
            }
        }
    }

    /// What a pattern's bursts caused on their radio (`RadioAttribution`).
    private struct Cost {
        private var addedJoules = 0.0
        var wakeUps = 0
        var burstsWhileUp = 0

        /// Traffic lowers what is still to come only where a radio's tail costs less early than
        /// late, which no built-in model's does; such a saving is no cost of the pattern.
        var joules: Double { max(0, addedJoules) }

        /// Takes in what a burst caused, given its events (`BurstEvents`).
        mutating func add(_ rows: ArraySlice<UInt32>, _ attribution: RadioAttribution) {
            var woke = false
            for row in rows {
                let share = attribution[Int(row)]
                addedJoules += share.addedJoules
                if share.wokeRadio {
                    wakeUps += 1
                    woke = true
                }
            }
            if !woke { burstsWhileUp += 1 }
        }
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

    /// The start of every burst split by endpoint and radio, and the bursts of each endpoint on
    /// each radio: 16 bytes a burst and 20 a group. The groups are the burst detector's slots,
    /// not keys of a dictionary: a capture of a million hosts, each sent one datagram, has a
    /// million groups, and the dictionary of them was about 4 % of its run, besides an array
    /// per group.
    private struct BurstStarts {
        /// The (endpoint, radio) pairs, in the order their first bursts began.
        private(set) var groups: [GroupKey] = []
        /// Each burst's start, by its ordinal: its place in `BurstDetector.bursts(in:model:by: .endpoint)`.
        private(set) var start: [Nanoseconds] = []
        /// The ordinals of every group's bursts, group after group, each group's in time order:
        /// those of group g are `members[memberStart[g]..<memberStart[g + 1]]`.
        private var members: [Int32] = []
        private var memberStart: [Int32] = []

        /// O(n + strings + bursts).
        init(_ context: RuleContext) {
            // The group of each of the detector's slots (two per endpoint), -1 until its first burst.
            var groupOfSlot: [Int32] = []
            var groupOfBurst: [Int32] = []
            BurstDetector.forEachBurstStart(in: context.priced, model: context.model, by: .endpoint) { burst, slot in
                if slot >= groupOfSlot.count { groupOfSlot.append(contentsOf: repeatElement(-1, count: slot + 1 - groupOfSlot.count)) }
                if groupOfSlot[slot] < 0 {
                    groupOfSlot[slot] = Int32(groups.count)
                    groups.append(GroupKey(endpoint: burst.endpoint, link: burst.link))
                }
                groupOfBurst.append(groupOfSlot[slot])
                start.append(burst.start)
            }
            // A counting sort of the ordinals by group; stable, so each group's stay in time order.
            memberStart = [Int32](repeating: 0, count: groups.count + 1)
            for group in groupOfBurst { memberStart[Int(group) + 1] += 1 }
            for group in groups.indices { memberStart[group + 1] += memberStart[group] }
            var next = memberStart
            members = [Int32](repeating: 0, count: groupOfBurst.count)
            for (ordinal, group) in groupOfBurst.enumerated() {
                members[Int(next[Int(group)])] = Int32(ordinal)
                next[Int(group)] += 1
            }
        }

        /// How many bursts `groups[group]` has. O(1).
        func count(of group: Int) -> Int { Int(memberStart[group + 1] - memberStart[group]) }

        /// The ordinals of the bursts of `groups[group]`, in time order.
        func ordinals(of group: Int) -> [Int] {
            members[Int(memberStart[group])..<Int(memberStart[group + 1])].map(Int.init)
        }
    }
}
