import DrainModel
import DrainReport
import DrainTrace

/// NET-SMALL-BURSTS: many small transfers, each keeping the radio up for a whole tail.
///
/// Bursts are the interface bursts of each radio (`BurstDetector`, `.link`). A burst is small
/// below `small_burst_bytes`. Its tail energy is what the radio spent after it until the next
/// burst or idle (`RadioTail.Meter`). When a radio has at least `min_bursts` small bursts
/// and their tail energy is more than `tail_share` of all the run's radio energy, the radio
/// gets a finding with the saving simulated for batching them.
///
/// **Batched** means: every event of the radio's small bursts is moved to the start of its
/// last small burst (the transfers are queued until then and sent together), keeping its
/// direction, bytes and span; all other traffic stays where it was. The radio's traffic is
/// priced again that way (`RadioSimulation`), and the saving is its priced energy minus the
/// batched energy. O(n) for n `net` events, plus one replay of the run's radios per radio with
/// small bursts (the tails), and when a finding is made, two more detections of the bursts and
/// one pricing of the radio's traffic (the batching). Bursts are taken one at a time and
/// nothing is kept per burst: the sizes of the small ones are counted for their median
/// (`BoundedMedian`), and the batching finds again which events are in small bursts.
public struct NetSmallBurstsRule: Rule {
    static let smallBurstBytes = RuleParameter("small_burst_bytes", default: 10_000, unit: "B", "bursts below this size are small (10 KB)")
    static let minBursts = RuleParameter("min_bursts", default: 5, unit: "bursts", "small bursts on one radio that can make a finding")
    static let tailShare = RuleParameter("tail_share", default: 0.5, unit: "fraction", "share of all radio energy that the small bursts' tails must exceed")

    public static let description = RuleDescription(
        id: "NET-SMALL-BURSTS",
        title: "Small transfers keep the radio up",
        area: .network,
        severity: .warning,
        guidance: """
            After every transfer the radio stays in a high-power state for a tail of up to \
            several seconds, so a few kilobytes sent now and then cost far more in tails than in \
            transfer. Send data in large chunks at long intervals: queue small transfers and send \
            them together.
            """,
        source: """
            NET "transmit in large chunks at long intervals" (App Programming Guide for iOS, \
            Tune Your Networking Code)
            """,
        fix: "Queue small uploads and downloads and send them together, or piggyback them on transfers the app makes anyway.",
        parameters: [smallBurstBytes, minBursts, tailShare],
        triggeringExamples: [
            Scenario("a 1 KB upload every 20 s over cellular", expect: .warning) {
                var run = TimelineBuilder()
                for upload in 0..<8 { run.net(Double(upload) * 20, .tx, bytes: 1000, host: "log.example.com", link: .cellular) }
                return run.build(end: 170)
            },
            Scenario("small messages at random times over Wi-Fi", expect: .warning) {
                var run = TimelineBuilder()
                for t in [3.0, 17, 22, 41, 58, 66] {
                    run.net(t, .tx, bytes: 300, host: "chat.example.com", link: .wifi)
                    run.net(t + 0.08, .rx, bytes: 500, host: "chat.example.com", link: .wifi)
                }
                return run.build(end: 70)
            },
        ],
        nonTriggeringExamples: [
            Scenario("four small bursts") {
                var run = TimelineBuilder()
                for upload in 0..<4 { run.net(Double(upload) * 20, .tx, bytes: 1000, host: "log.example.com", link: .cellular) }
                return run.build(end: 80)
            },
            Scenario("large transfers") {
                var run = TimelineBuilder()
                for download in 0..<8 { run.net(Double(download) * 20, .rx, bytes: 2_000_000, host: "cdn.example.com", link: .cellular) }
                return run.build(end: 170)
            },
            Scenario("small bursts beside a long download") {
                var capture = CaptureBuilder()
                let download = capture.tcp(to: "cdn.example.com", link: .wifi)
                capture.packet(download, at: 0, .rx, bytes: 30_000_000, payload: 29_000_000, segments: 20_000, span: 60)
                for t in [70.0, 80, 90, 100, 110, 120] { capture.net(t, .tx, bytes: 500, host: "chat.example.com", link: .wifi) }
                return capture.build(end: 130)
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
        let radioEnergy = context.radioEnergy
        let limit = context[Self.smallBurstBytes]
        let minimum = max(1, context.count(Self.minBursts))
        var links = [LinkKind.cellular, .wifi].map { LinkBursts(link: $0, smallBelow: limit, context) }
        BurstDetector.forEachBurst(in: context.priced, model: context.model, by: .link, where: { _ in true }) { _, burst in
            links[burst.link == .cellular ? 0 : 1].add(burst, small: Double(burst.bytes) < limit)
        }
        var findings: [Finding] = []
        while !links.isEmpty {
            var bursts = links.removeFirst()
            bursts.finish()
            guard bursts.smallCount >= minimum, radioEnergy > 0 else { continue }
            let share = bursts.smallTailEnergy / radioEnergy
            guard share > context[Self.tailShare] else { continue }
            let batch = batched(bursts, smallBelow: limit, context)
            let median = bursts.smallSizes.median { count in
                forEachBurst(of: bursts.link, smallBelow: limit, context) { burst, small in if small { count(burst.bytes) } }
            }
            findings.append(finding(bursts, median: median, share: share, batch: batch, context))
        }
        return .findings(findings)
    }

    /// Calls `body` with each interface burst of the radio `link` (`.cellular`, or `.wifi` for
    /// every other), in time order, and whether it is small: below `limit` bytes. O(n) for n
    /// `net` events.
    private func forEachBurst(
        of link: LinkKind, smallBelow limit: Double, _ context: RuleContext, _ body: (Burst, _ small: Bool) -> Void
    ) {
        BurstDetector.forEachBurst(in: context.priced, model: context.model, by: .link, where: { _ in true }) { _, burst in
            if (burst.link == .cellular) == (link == .cellular) { body(burst, Double(burst.bytes) < limit) }
        }
    }

    /// One radio's interface bursts, taken in time order: how many, and of the small ones how
    /// many, their sizes, energy, tails and time.
    private struct LinkBursts {
        let link: LinkKind
        private let timeline: Timeline
        private let model: DeviceModel
        /// Made at the first small burst (only theirs are measured): it replays the run's
        /// radios as the bursts come.
        private var tails: RadioTail.Meter?
        private(set) var count = 0
        /// The rows from the first burst's first to the last one's last.
        private(set) var rows: ClosedRange<Int>?
        /// The last small burst's first and last row: every `net` row of the link between the
        /// two belongs to it.
        private(set) var lastSmallRows: ClosedRange<Int>?
        private(set) var smallSizes: BoundedMedian
        private(set) var smallBytes: Int64 = 0
        private(set) var smallEnergy = 0.0
        private(set) var smallTailEnergy = 0.0
        /// The first small burst's start, the last one's start, and their latest end.
        private(set) var firstSmallStart: Nanoseconds = 0
        private(set) var lastSmallStart: Nanoseconds = 0
        private(set) var lastSmallEnd: Nanoseconds = .min
        /// The latest burst, whose tail is known when the next begins.
        private var latest: (burst: Burst, small: Bool)?

        /// `limit`: the size, in bytes, that bursts are small below.
        init(link: LinkKind, smallBelow limit: Double, _ context: RuleContext) {
            self.link = link
            timeline = context.timeline
            model = context.model
            smallSizes = BoundedMedian(below: limit >= 0x1p63 ? .max : Int64(max(0, limit).rounded(.up)))
        }

        mutating func add(_ burst: Burst, small: Bool) {
            if small, tails == nil { tails = RadioTail.Meter(link: link, timeline: timeline, model: model) }
            endLatest(nextStart: burst.start)
            latest = (burst, small)
            count += 1
            rows = (rows?.lowerBound ?? burst.firstRow)...burst.lastRow
            guard small else { return }
            if lastSmallRows == nil { firstSmallStart = burst.start }
            lastSmallRows = burst.firstRow...burst.lastRow
            smallSizes.add(burst.bytes)
            smallBytes += burst.bytes
            smallEnergy += burst.energy
            lastSmallStart = burst.start
            lastSmallEnd = max(lastSmallEnd, burst.end)
        }

        var smallCount: Int { smallSizes.count }

        /// Ends the last burst's tail at the end of the run.
        mutating func finish() {
            endLatest(nextStart: .max)
            latest = nil
        }

        private mutating func endLatest(nextStart: Nanoseconds) {
            guard let latest, latest.small, let tail = tails?.energy(after: latest.burst, until: nextStart) else { return }
            smallTailEnergy += tail
        }
    }

    /// The link's radio energy as the run spent it, and as it would be with every small burst
    /// sent at the start of the last one. The moved events are placed in the order a stable
    /// sort by time gives: the unmoved ones before that time, then everything at it in row
    /// order, then the unmoved ones after it. Which events are in small bursts is found by
    /// detecting the bursts again, once for the events before that time and once for those at
    /// it; after it, only the last small burst's are. O(n) for n `net` events, nothing per
    /// event or burst.
    private func batched(
        _ bursts: LinkBursts, smallBelow limit: Double, _ context: RuleContext
    ) -> (before: Double, after: Double) {
        guard let rows = bursts.rows, let last = bursts.lastSmallRows else { return (0, 0) }
        let timeline = context.timeline
        let link = bursts.link
        let batchTime = bursts.lastSmallStart
        let radios = RadioLinks(radio: context.model.radio)
        /// Calls `body` with each of the link's `net` rows in `span` and its own link, in row
        /// order.
        func eachEvent(in span: ClosedRange<Int>, _ body: (_ row: Int, _ own: LinkKind) -> Void) {
            for row in span where timeline.kind[row] == .net {
                let own = LinkKind(rawValue: timeline.code2[row]) ?? .unspecified
                if radios.radio(for: own) == link { body(row, own) }
            }
        }
        let eventEnergy = context.priced.eventEnergy
        var before = 0.0
        eachEvent(in: rows) { row, _ in before += eventEnergy[row] }
        let after = RadioSimulation.energy(in: timeline, model: context.model) { events in
            forEachBurst(of: link, smallBelow: limit, context) { burst, small in
                guard !small, burst.start < batchTime else { return }
                eachEvent(in: burst.firstRow...burst.lastRow) { row, own in
                    if timeline.time[row] < batchTime { events.place(row: row, at: timeline.time[row], link: own) }
                }
            }
            forEachBurst(of: link, smallBelow: limit, context) { burst, small in
                guard burst.start <= batchTime else { return }
                eachEvent(in: burst.firstRow...burst.lastRow) { row, own in
                    if small || timeline.time[row] == batchTime { events.place(row: row, at: batchTime, link: own) }
                }
            }
            guard last.upperBound < rows.upperBound else { return }
            eachEvent(in: (last.upperBound + 1)...rows.upperBound) { row, own in
                if timeline.time[row] > batchTime { events.place(row: row, at: timeline.time[row], link: own) }
            }
        }
        return (before, after)
    }

    private func finding(
        _ bursts: LinkBursts, median middle: Double, share: Double, batch: (before: Double, after: Double),
        _ context: RuleContext
    ) -> Finding {
        let tailEnergy = bursts.smallTailEnergy
        let saving = batch.before - batch.after
        let radio = context.radioName(bursts.link)
        let evidence = [
            Evidence("link", text: radio),
            Evidence("small bursts", Double(bursts.smallCount), unit: "bursts"),
            Evidence("bursts", Double(bursts.count), unit: "bursts"),
            Evidence("median small burst", middle, unit: "B"),
            Evidence("small burst bytes", Double(bursts.smallBytes), unit: "B"),
            Evidence("tail energy", tailEnergy, unit: "J"),
            Evidence("tail share", share * 100, unit: "%"),
            Evidence("radio energy of the link", batch.before, unit: "J"),
            Evidence("radio energy batched", batch.after, unit: "J"),
            Evidence("saving if batched", saving, unit: "J"),
        ]
        return Self.description.finding(
            .warning, subject: radio,
            message: "\(bursts.smallCount) bursts smaller than \(ByteFormat.string(context[Self.smallBurstBytes])) (median \(ByteFormat.string(middle))) over \(radio) kept the radio up for \(fixed(tailEnergy, 3)) J of tails, \(percent(share)) of the run's radio energy; sent together they would save \(fixed(saving, 3)) J.",
            evidence: evidence, energyJ: bursts.smallEnergy,
            timeRanges: [TimeRange(from: bursts.firstSmallStart, to: bursts.lastSmallEnd)])
    }
}
