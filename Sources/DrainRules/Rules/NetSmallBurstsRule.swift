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
/// batched energy. O(n + b log b) for b bursts, plus one replay of the run's radios per radio
/// with small bursts (the tails) and one pricing of the radio's traffic when a finding is
/// made. Bursts are taken one at a time: what is kept is 16 bytes per small burst (its rows
/// and size, for the batching and the median).
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
        var links = [LinkKind.cellular, .wifi].map { LinkBursts(link: $0, context) }
        BurstDetector.forEachBurst(in: context.priced, model: context.model, by: .link, where: { _ in true }) { _, burst in
            links[burst.link == .cellular ? 0 : 1].add(burst, small: Double(burst.bytes) < limit)
        }
        var findings: [Finding] = []
        while !links.isEmpty {
            // Taken out of the list, so that its sizes are sorted for the median in place.
            var bursts = links.removeFirst()
            bursts.finish()
            guard bursts.smallCount >= minimum, radioEnergy > 0 else { continue }
            let share = bursts.smallTailEnergy / radioEnergy
            guard share > context[Self.tailShare] else { continue }
            let batch = batched(bursts, context)
            findings.append(finding(bursts, median: bursts.medianSmallSize(), share: share, batch: batch, context))
        }
        return .findings(findings)
    }

    /// One radio's interface bursts, taken in time order: how many, and of the small ones their
    /// rows, sizes, energy, tails and time.
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
        /// Each small burst's first and last row, in time order: every `net` row of the link
        /// between the two is the burst's.
        private(set) var smallRows: [(first: UInt32, last: UInt32)] = []
        private var smallSizes: [Double] = []
        private(set) var smallBytes: Int64 = 0
        private(set) var smallEnergy = 0.0
        private(set) var smallTailEnergy = 0.0
        /// The first small burst's start, the last one's start, and their latest end.
        private(set) var firstSmallStart: Nanoseconds = 0
        private(set) var lastSmallStart: Nanoseconds = 0
        private(set) var lastSmallEnd: Nanoseconds = .min
        /// The latest burst, whose tail is known when the next begins.
        private var latest: (burst: Burst, small: Bool)?

        init(link: LinkKind, _ context: RuleContext) {
            self.link = link
            timeline = context.timeline
            model = context.model
        }

        mutating func add(_ burst: Burst, small: Bool) {
            if small, tails == nil { tails = RadioTail.Meter(link: link, timeline: timeline, model: model) }
            endLatest(nextStart: burst.start)
            latest = (burst, small)
            count += 1
            rows = (rows?.lowerBound ?? burst.firstRow)...burst.lastRow
            guard small else { return }
            if smallRows.isEmpty { firstSmallStart = burst.start }
            smallRows.append((UInt32(burst.firstRow), UInt32(burst.lastRow)))
            smallSizes.append(Double(burst.bytes))
            smallBytes += burst.bytes
            smallEnergy += burst.energy
            lastSmallStart = burst.start
            lastSmallEnd = max(lastSmallEnd, burst.end)
        }

        var smallCount: Int { smallRows.count }

        /// The median size of the small bursts; sorts their sizes in place.
        mutating func medianSmallSize() -> Double { median(sorting: &smallSizes) }

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
    /// order, then the unmoved ones after it. O(rows in the bursts' span), nothing per event
    /// beyond the simulation's joules.
    private func batched(_ bursts: LinkBursts, _ context: RuleContext) -> (before: Double, after: Double) {
        let timeline = context.timeline
        let link = bursts.link
        let batchTime = bursts.lastSmallStart
        let radios = RadioLinks(radio: context.model.radio)
        let eventEnergy = context.priced.eventEnergy
        /// Calls `body` with each of the link's `net` rows, its own link and whether it is in
        /// a small burst, in row order.
        func eachEvent(_ body: (_ row: Int, _ own: LinkKind, _ moved: Bool) -> Void) {
            guard let rows = bursts.rows else { return }
            var small = 0
            for row in rows where timeline.kind[row] == .net {
                let own = LinkKind(rawValue: timeline.code2[row]) ?? .unspecified
                guard radios.radio(for: own) == link else { continue }
                while small < bursts.smallRows.count, Int(bursts.smallRows[small].last) < row { small += 1 }
                body(row, own, small < bursts.smallRows.count && Int(bursts.smallRows[small].first) <= row)
            }
        }
        var before = 0.0
        let after = RadioSimulation.energy(in: timeline, model: context.model) { events in
            eachEvent { row, own, moved in
                if !moved, timeline.time[row] < batchTime { events.place(row: row, at: timeline.time[row], link: own) }
            }
            eachEvent { row, own, moved in
                before += eventEnergy[row]
                if moved || timeline.time[row] == batchTime { events.place(row: row, at: batchTime, link: own) }
            }
            eachEvent { row, own, moved in
                if !moved, timeline.time[row] > batchTime { events.place(row: row, at: timeline.time[row], link: own) }
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
