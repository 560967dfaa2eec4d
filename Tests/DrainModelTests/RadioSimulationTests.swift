import DrainTrace
import Testing

@testable import DrainModel

@Suite struct RadioSimulationTests {
    /// `net` events on both radios, two of them capture spans, a CPU slice between them.
    func run() -> Timeline {
        var timeline = Timeline()
        func net(_ t: Double, _ direction: NetDirection, _ bytes: Int64, _ link: LinkKind, span: Double = 0) {
            timeline.append(
                Event(
                    time: Clock.nanoseconds(t), kind: .net, code: direction.rawValue, code2: link.rawValue, amount: bytes,
                    duration: Clock.nanoseconds(span)))
        }
        net(0, .tx, 800, .cellular)
        net(0.4, .rx, 120_000, .cellular, span: 1.5)
        timeline.append(Event(time: Clock.nanoseconds(1), kind: .cpu, duration: Clock.nanoseconds(0.2)))
        net(3, .tx, 500, .wifi)
        net(25, .rx, 30_000, .wifi, span: 0.6)
        net(40, .tx, 900, .cellular)
        return timeline
    }

    @Test func theRunsOwnEventsCostWhatThePricerChargedThem() throws {
        let model = try builtinModel("iphone-lte")
        let timeline = run()
        let priced = Pricer(model: model).price(timeline)
        let rows = (0..<timeline.count).filter { timeline.kind[$0] == .net }
        let charged = rows.reduce(0.0) { $0 + priced.eventEnergy[$1] }
        let simulated = RadioSimulation.energy(in: timeline, model: model) { events in
            for row in rows {
                events.place(row: row, at: timeline.time[row], link: LinkKind(rawValue: timeline.code2[row]) ?? .unspecified)
            }
        }
        #expect(charged > 0)
        #expect(close(simulated, charged))
    }

    @Test func twoUploadsTogetherPayOnePromotionAndOneTail() throws {
        let model = try builtinModel("iphone-lte")
        let lte = try #require(model.radio.lte)
        var timeline = Timeline()
        for t in [0.0, 30.0] {
            timeline.append(
                Event(time: Clock.nanoseconds(t), kind: .net, code: NetDirection.tx.rawValue, code2: LinkKind.cellular.rawValue, amount: 1_000))
        }
        func energy(at times: [Double]) -> Double {
            RadioSimulation.energy(in: timeline, model: model) { events in
                for (row, time) in times.enumerated() { events.place(row: row, at: Clock.nanoseconds(time), link: .cellular) }
            }
        }
        // 1,000 bytes up: 8,000 bits = 0.008 Mbit at α_up mW per Mbit/s, in joules.
        let transfer = 0.008 * lte.alphaUpMwPerMbps.value / 1000
        let one = energy(at: [0])
        // 30 s apart, more than the tail: the radio goes idle between them and each pays it all.
        #expect(close(energy(at: [0, 30]), 2 * one))
        // Together the second adds only its own transfer.
        #expect(close(energy(at: [0, 0]), one + transfer))
        #expect(transfer > 0 && one > 10 * transfer)
    }
}
