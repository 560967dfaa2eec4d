import DrainTrace
import Testing
@testable import DrainModel

/// What each packet caused on its radio, worked out by hand from `iphone-lte`'s parameters.
struct RadioAttributionTests {
    let model: DeviceModel
    let lte: DeviceModel.LTE

    init() throws {
        model = try builtinModel("iphone-lte")
        lte = try #require(model.radio.lte)
    }

    func drxW(cycle: Double) -> Double {
        (lte.drxOnS.value * lte.drxOnW.value + (cycle - lte.drxOnS.value) * lte.drxBaseW.value) / cycle
    }

    var promotionJ: Double { lte.promotionS.value * lte.promotionW.value }

    /// The first `seconds` of an LTE tail: the inactivity timer at β, then short and long DRX.
    func tailJ(over seconds: Double = .infinity) -> Double {
        let inactivity = min(seconds, lte.inactivityS.value)
        let short = min(max(0, seconds - lte.inactivityS.value), lte.shortDrxS.value)
        let long = min(max(0, seconds - lte.inactivityS.value - lte.shortDrxS.value), lte.longDrxS.value)
        return inactivity * lte.connectedW.value + short * drxW(cycle: lte.shortDrxCycleS.value)
            + long * drxW(cycle: lte.longDrxCycleS.value)
    }

    func transferJ(_ bytes: Int64, _ direction: NetDirection) -> Double {
        let alpha = direction == .tx ? lte.alphaUpMwPerMbps.value : lte.alphaDownMwPerMbps.value
        return Double(bytes) * 8 / 1e6 * alpha / 1000
    }

    /// The shares of every row of `timeline`.
    static func attribution(of timeline: Timeline, _ model: DeviceModel) -> RadioAttribution {
        RadioAttribution(timeline, model: model, rows: (0..<timeline.count).map(UInt32.init))
    }

    @Test func aPacketOnAnIdleRadioCausesAPromotionAndAWholeTail() {
        var run = TimelineBuilder()
        run.net(1, .tx, bytes: 500, host: "a.example", link: .cellular)
        run.net(40, .tx, bytes: 500, host: "a.example", link: .cellular)
        let attribution = Self.attribution(of: run.build(end: 60), model)
        // 0.26 × 1.21 + 0.1 × 1.2 + 0.02 × 1.122 + 10 × 1.091 = 11.36704 J each; no transfer.
        #expect(close(promotionJ + tailJ(), 11.36704, tolerance: 1e-9))
        #expect(close(attribution.addedJoules[0], promotionJ + tailJ()))
        #expect(close(attribution.addedJoules[1], promotionJ + tailJ()))
        #expect(Array(attribution.wokeRadio) == [true, true])
    }

    @Test func aPacketInAnotherPacketsTailAddsOnlyThePartOfATailItCutShort() {
        // The first packet is served at 1.26 s; the second, at 4 s, is 2.74 s into its tail.
        // Without the second the radio would idle at 1.26 + 10.12 s, with it at 4 + 10.12 s.
        var run = TimelineBuilder()
        run.net(1, .rx, bytes: 2_000, host: "a.example", link: .cellular)
        run.net(4, .tx, bytes: 500, host: "b.example", link: .cellular)
        let attribution = Self.attribution(of: run.build(end: 30), model)
        #expect(close(attribution.addedJoules[0], promotionJ + tailJ()))
        #expect(close(attribution.addedJoules[1], tailJ(over: 4 - 1 - lte.promotionS.value)))
        #expect(Array(attribution.wokeRadio) == [true, false])
    }

    @Test func aPacketOnTheOtherRadioChangesNothingOfThisRadiosShares() {
        // The same two LTE packets as above with a Wi-Fi packet between them: each radio's
        // tails are its own, so every share is what that radio's packets alone would give.
        var run = TimelineBuilder()
        run.net(1, .rx, bytes: 2_000, host: "a.example", link: .cellular)
        run.net(2.5, .rx, bytes: 1_500, host: "w.example", link: .wifi)
        run.net(4, .tx, bytes: 500, host: "b.example", link: .cellular)
        let attribution = Self.attribution(of: run.build(end: 30), model)
        var alone = TimelineBuilder()
        alone.net(2.5, .rx, bytes: 1_500, host: "w.example", link: .wifi)
        let wifiAlone = Self.attribution(of: alone.build(end: 30), model)
        #expect(close(attribution.addedJoules[0], promotionJ + tailJ()))
        #expect(close(attribution.addedJoules[1], wifiAlone.addedJoules[0]))
        #expect(wifiAlone.addedJoules[0] > 0)
        #expect(close(attribution.addedJoules[2], tailJ(over: 4 - 1 - lte.promotionS.value)))
        #expect(Array(attribution.wokeRadio) == [true, true, false])
    }

    @Test func aPacketDuringThePromotionOrInsideASpanAddsNothing() {
        // The second packet waits for the promotion the first started and is served with it;
        // the third comes while a capture event's span keeps the radio connected.
        var run = TimelineBuilder()
        run.net(1, .tx, bytes: 500, host: "a.example", link: .cellular)
        run.net(1.1, .rx, bytes: 800, host: "a.example", link: .cellular)
        var timeline = run.build(end: 60)
        let cellular = LinkKind.cellular.rawValue
        timeline.append(
            Event(
                time: Clock.nanoseconds(20), kind: .net, code: NetDirection.rx.rawValue, code2: cellular, amount: 1_000_000,
                duration: Clock.nanoseconds(5)))
        timeline.append(Event(time: Clock.nanoseconds(22), kind: .net, code: NetDirection.tx.rawValue, code2: cellular, amount: 300))
        let attribution = Self.attribution(of: timeline, model)
        #expect(attribution.addedJoules[1] == 0)
        #expect(attribution.addedJoules[3] == 0)
        #expect(Array(attribution.wokeRadio) == [true, false, true, false])
        // The span: a promotion, connected from its end (20.26 s) to 25 s, then a tail.
        #expect(close(attribution.addedJoules[2], promotionJ + (5 - lte.promotionS.value) * lte.connectedW.value + tailJ()))
    }

    @Test func theSharesAddUpToThePricedEnergyLessTransfer() {
        var run = TimelineBuilder()
        let packets: [(Double, NetDirection, Int64, LinkKind)] = [
            (0, .tx, 300, .cellular), (0.2, .rx, 5_000, .cellular), (3, .tx, 200, .wifi), (4.5, .tx, 100, .cellular),
            (4.6, .rx, 900, .wifi), (30, .rx, 40_000, .cellular), (31.5, .tx, 300, .cellular), (31.6, .rx, 300, .wifi),
        ]
        for (t, direction, bytes, link) in packets { run.net(t, direction, bytes: bytes, host: "h.example", link: link) }
        let timeline = run.build(end: 60)
        let priced = Pricer(model: model).price(timeline)
        let attribution = Self.attribution(of: timeline, model)
        // The built-in Wi-Fi has no α: only LTE packets carry transfer energy.
        let transfer = packets.reduce(0) { $0 + ($1.3 == .cellular ? transferJ($1.2, $1.1) : 0) }
        #expect(close(attribution.addedJoules.reduce(0, +), priced.eventEnergy.reduce(0, +) - transfer))
        #expect(attribution.wokeRadio.filter { $0 }.count == 5)
    }

    @Test func eventsWithoutARadioCauseNothing() {
        var run = TimelineBuilder()
        run.net(1, .tx, bytes: 500, host: "lan.example", link: .ethernet)
        run.cpu(2, duration: 1)
        let attribution = Self.attribution(of: run.build(end: 10), model)
        #expect(Array(attribution.addedJoules) == [0, 0])
        #expect(Array(attribution.wokeRadio) == [false, false])
    }

    /// Asking for some rows gives them the shares a walk keeping every row gives them, bit for
    /// bit: capture events with spans (whose markers book on their rows later), two radios, a
    /// model of each cellular kind (`iphone-lte` with its UMTS parameters for 3G).
    @Test(arguments: ["iphone-lte", "umts", "iphone-5g-nsa", "iphone-wifi"])
    func theSharesOfRowsAskedForAreThoseOfEveryRow(modelName: String) throws {
        var model = try builtinModel(modelName == "umts" ? "iphone-lte" : modelName)
        if modelName == "umts" { model.radio.cellular = .umts }
        var random = SplitMix64(seed: 17)
        var timeline = Timeline()
        var time: Nanoseconds = 0
        for _ in 0..<3_000 {
            time += Nanoseconds.random(in: 0...40_000_000_000, using: &random) / Int64.random(in: 1...40, using: &random)
            let link: LinkKind = Bool.random(using: &random) ? .cellular : .wifi
            let direction: NetDirection = Bool.random(using: &random) ? .tx : .rx
            let span = Int.random(in: 0..<4, using: &random) == 0 ? Nanoseconds.random(in: 1...8_000_000_000, using: &random) : 0
            timeline.append(
                Event(
                    time: time, kind: .net, code: direction.rawValue, code2: link.rawValue,
                    amount: Int64.random(in: 40...200_000, using: &random), duration: span))
        }
        let every = Self.attribution(of: timeline, model)
        #expect(every.wokeRadio.contains(true) && every.addedJoules.contains { $0 > 0 })
        let asked = (0..<timeline.count).filter { _ in Int.random(in: 0..<7, using: &random) == 0 }
        let some = RadioAttribution(timeline, model: model, rows: asked.map(UInt32.init))
        #expect(some.rows == asked.map(UInt32.init))
        #expect(some.addedJoules == asked.map { every.addedJoules[$0] })
        #expect(some.wokeRadio == asked.map { every.wokeRadio[$0] })
        #expect(asked.allSatisfy { some[$0] == (every.addedJoules[$0], every.wokeRadio[$0]) })
        #expect(RadioAttribution(timeline, model: model, rows: []).addedJoules.isEmpty)
        // A row asked for twice is kept once, with the same share.
        let twice = RadioAttribution(timeline, model: model, rows: [asked[0], asked[0], asked[1]].map(UInt32.init))
        #expect(twice.rows == [UInt32(asked[0]), UInt32(asked[1])])
        #expect(twice.addedJoules == [every.addedJoules[asked[0]], every.addedJoules[asked[1]]])
    }
}
