import DrainTrace
import Testing
@testable import DrainModel

/// Bursts split by the model's `burst_gap_s` (1 s in the built-in models), and the shortcuts the
/// report and the rules take — the first bursts with a count, the bursts at chosen ordinals, the
/// bursts as they begin — held to the full list.
struct BurstDetectorTests {
    let model: DeviceModel

    init() throws {
        model = try builtinModel("iphone-lte")
    }

    /// A run of sent packets (time in seconds, bytes, host, link), priced; it ends at 10 s.
    func priced(_ packets: [(at: Double, bytes: Int64, host: String?, link: LinkKind)]) -> PricedTimeline {
        var run = TimelineBuilder()
        for packet in packets { run.net(packet.at, .tx, bytes: packet.bytes, host: packet.host, link: packet.link) }
        return Pricer(model: model).price(run.build(end: 10))
    }

    @Test func theBuiltInGapIsOneSecond() {
        #expect(model.radio.burstGapS.value == 1)
    }

    @Test func aGapOfTheBurstGapOrMoreStartsANewBurst() {
        // Gaps 0.5 s (same burst), 1 s (new: the gap is not shorter than 1 s), 0.99 s (same).
        let priced = priced([
            (0, 100, "a.example", .cellular), (0.5, 200, "a.example", .cellular), (1.5, 300, "a.example", .cellular),
            (2.49, 400, "a.example", .cellular),
        ])
        let bursts = BurstDetector.bursts(in: priced, model: model, by: .link)
        #expect(bursts.map(\.events) == [2, 2])
        #expect(bursts.map(\.bytes) == [300, 700])
        #expect(bursts.map(\.firstRow) == [0, 2])
        #expect(bursts.map(\.lastRow) == [1, 3])
        #expect(bursts.map(\.start) == [0, Clock.nanoseconds(1.5)])
    }

    @Test func byEndpointEachHostsTrafficOnEachRadioIsItsOwn() {
        // Interleaved hosts a and b on cellular, a again on Wi-Fi, and a host-less packet.
        let priced = priced([
            (0, 1, "a.example", .cellular), (0.2, 2, "b.example", .cellular), (0.4, 4, "a.example", .wifi),
            (0.6, 8, "a.example", .cellular), (0.8, 16, nil, .cellular),
        ])
        let bursts = BurstDetector.bursts(in: priced, model: model, by: .endpoint)
        #expect(bursts.map(\.bytes) == [9, 2, 4])
        #expect(bursts.map(\.link) == [.cellular, .cellular, .wifi])
        #expect(BurstDetector.bursts(in: priced, model: model, by: .link).map(\.bytes) == [27, 4])
    }

    @Test func theFirstBurstsAreThePrefixOfAllAndTheCountIsAll() {
        let priced = Pricer(model: model).price(Self.randomRun(seed: 7))
        for grouping in [BurstDetector.Grouping.link, .endpoint] {
            let all = BurstDetector.bursts(in: priced, model: model, by: grouping)
            #expect(all.count > 50)
            for limit in [0, 1, 5, all.count - 1, all.count, all.count + 10] {
                let first = BurstDetector.firstBursts(in: priced, model: model, by: grouping, limit: limit)
                #expect(first.count == all.count)
                #expect(first.bursts == Array(all.prefix(limit)))
            }
        }
    }

    /// The bursts chosen by ordinal are those of the full list, whole and in its order, however
    /// their ends interleave; each ordinal is offered once, ascending. The starts seen as bursts
    /// begin are the full list's, in its order.
    @Test func burstsAtOrdinalsAndBurstStartsAreTheFullListsOwn() {
        // Long enough that more than 256 chosen bursts are passed on, when the held ones move up.
        let priced = Pricer(model: model).price(Self.randomRun(seed: 13, events: 4_000))
        for grouping in [BurstDetector.Grouping.link, .endpoint] {
            let all = BurstDetector.bursts(in: priced, model: model, by: grouping)
            #expect(all.count > 600)
            for ordinals in [[], [0], [1, 2, 3], Array(stride(from: 0, to: all.count, by: 7)), [all.count - 1], Array(all.indices)] {
                var offered: [Int] = []
                var passed: [(ordinal: Int, burst: Burst)] = []
                BurstDetector.forEachBurst(
                    in: priced, model: model, by: grouping,
                    where: { ordinal in
                        offered.append(ordinal)
                        return ordinals.contains(ordinal)
                    },
                    { passed.append(($0, $1)) })
                #expect(offered == Array(all.indices))
                #expect(passed.map(\.ordinal) == ordinals)
                #expect(passed.map(\.burst) == ordinals.map { all[$0] })
            }
            var starts: [Burst] = []
            BurstDetector.forEachBurstStart(in: priced, model: model, by: grouping) { burst, _ in starts.append(burst) }
            #expect(starts.map(\.start) == all.map(\.start))
            #expect(starts.map(\.firstRow) == all.map(\.firstRow))
            #expect(starts.map(\.link) == all.map(\.link))
            #expect(starts.map(\.endpoint) == all.map(\.endpoint))
        }
    }

    /// Bursts are held by two rules at once when memory peaks: keep them at 56 bytes.
    @Test func aBurstTakes56Bytes() {
        #expect(MemoryLayout<Burst>.stride == 56)
    }

    /// Packets of four hosts (and some without one) over both radios, an unstated link and
    /// ethernet, every seventh spanning up to 2 s, at gaps around the burst gap, partly out of
    /// time order.
    static func randomRun(seed: UInt64, events: Int = 600) -> Timeline {
        var generator = SplitMix64(seed: seed)
        var timeline = Timeline()
        let hosts: [StringID] = [0] + ["a.example", "b.example", "c.example", "d.example"].map { timeline.strings.intern($0) }
        let links: [LinkKind] = [.cellular, .wifi, .unspecified, .ethernet]
        var time = 0.0
        for index in 0..<events {
            time += Double.random(in: 0...1.6, using: &generator)
            let at = max(0, time - Double.random(in: 0...0.3, using: &generator))
            timeline.append(
                Event(
                    time: Clock.nanoseconds(at), kind: .net,
                    code: Bool.random(using: &generator) ? NetDirection.tx.rawValue : NetDirection.rx.rawValue,
                    code2: links.randomElement(using: &generator)!.rawValue, amount: Int64.random(in: 0...5_000, using: &generator),
                    duration: index % 7 == 0 ? Clock.nanoseconds(Double.random(in: 0...2, using: &generator)) : 0,
                    label: hosts.randomElement(using: &generator)!))
        }
        var diagnostics = ImportDiagnostics()
        timeline.finish(diagnostics: &diagnostics)
        return timeline
    }
}
