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

    /// The pricer's charges to the `net` rows of `timeline`, and what the simulation gives
    /// for those rows placed where they are.
    func chargedAndSimulated(_ timeline: Timeline, model: DeviceModel) -> (charged: Double, simulated: Double) {
        let priced = Pricer(model: model).price(timeline)
        let rows = (0..<timeline.count).filter { timeline.kind[$0] == .net }
        let charged = rows.reduce(0.0) { $0 + priced.eventEnergy[$1] }
        let simulated = RadioSimulation.energy(in: timeline, model: model) { events in
            for row in rows {
                events.place(row: row, at: timeline.time[row], link: LinkKind(rawValue: timeline.code2[row]) ?? .unspecified)
            }
        }
        return (charged, simulated)
    }

    @Test func theRunsOwnEventsCostWhatThePricerChargedThem() throws {
        let (charged, simulated) = chargedAndSimulated(run(), model: try builtinModel("iphone-lte"))
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

    /// Overlapping spans on both radios, as a capture's concurrent connections make them, on
    /// every cellular technology: the simulation, which keeps a radio up over the union of its
    /// spans, costs what the pricer charged, which keeps it up span by span.
    @Test(arguments: DeviceModel.CellularTechnology.allCases)
    func overlappingSpansCostWhatThePricerCharged(technology: DeviceModel.CellularTechnology) throws {
        var model = try builtinModel("iphone-5g-nsa")
        model.radio.cellular = technology
        var timeline = Timeline()
        var random = SplitMix64(seed: 19)
        var time: Nanoseconds = 0
        for _ in 0..<600 {
            // Mostly close together (spans overlap), now and then a gap past every tail.
            time += Nanoseconds(random.next() % UInt64(random.next() % 8 == 0 ? Clock.nanoseconds(40) : Clock.nanoseconds(1.5)))
            let link: LinkKind = [.wifi, .cellular, .unspecified][Int(random.next() % 3)]
            let direction: NetDirection = random.next() % 2 == 0 ? .tx : .rx
            timeline.append(
                Event(
                    time: time, kind: .net, code: direction.rawValue, code2: link.rawValue,
                    amount: Int64(random.next() % 300_000), duration: Nanoseconds(random.next() % UInt64(Clock.nanoseconds(12)))))
        }
        let (charged, simulated) = chargedAndSimulated(timeline, model: model)
        #expect(charged > 0)
        #expect(close(simulated, charged))
    }

    /// Spans moved to one instant, as NET-SMALL-BURSTS batches them: the longest keeps the
    /// LTE radio connected, so the five events cost one promotion, their transfers, connected
    /// time from the promotion's end to the longest span's end, the inactivity timer and one
    /// DRX tail.
    @Test func spansAtOneInstantKeepTheRadioUpUntilTheLongestEnds() throws {
        let model = try builtinModel("iphone-lte")
        let lte = try #require(model.radio.lte)
        var timeline = Timeline()
        for span in [3.0, 0.5, 7.25, 2.0, 7.0] {
            timeline.append(
                Event(
                    time: 0, kind: .net, code: NetDirection.rx.rawValue, code2: LinkKind.cellular.rawValue, amount: 2_000,
                    duration: Clock.nanoseconds(span)))
        }
        let merged = RadioSimulation.energy(in: timeline, model: model) { events in
            for row in 0..<timeline.count { events.place(row: row, at: 0, link: .cellular) }
        }
        func drxPower(cycle: Double) -> Double {
            LTEStateMachine.averagePower(cycle: cycle, on: lte.drxOnS.value, onPower: lte.drxOnW.value, offPower: lte.drxBaseW.value)
        }
        // 5 × 2,000 bytes down: 0.08 Mbit at α_down mW per Mbit/s.
        let transfer = 0.08 * lte.alphaDownMwPerMbps.value / 1000
        let connected = (7.25 - lte.promotionS.value + lte.inactivityS.value) * lte.connectedW.value
        let tail = lte.shortDrxS.value * drxPower(cycle: lte.shortDrxCycleS.value) + lte.longDrxS.value * drxPower(cycle: lte.longDrxCycleS.value)
        #expect(lte.promotionS.value < 0.5)
        #expect(close(merged, lte.promotionS.value * lte.promotionW.value + transfer + connected + tail))
    }
}
