import DrainTrace
import Testing
@testable import DrainModel

/// 5G NSA energies worked out by hand from the loaded model's parameters (`iphone-5g-nsa`: an
/// NR leg on AT&T ARO's LTE anchor).
struct NSAStateMachineTests {
    let lte: DeviceModel.LTE
    let nr: DeviceModel.NR

    init() throws {
        let radio = try builtinModel("iphone-5g-nsa").radio
        lte = try #require(radio.lte)
        nr = try #require(radio.nr)
    }

    var shortDrxW: Double {
        (lte.drxOnS.value * lte.drxOnW.value + (lte.shortDrxCycleS.value - lte.drxOnS.value) * lte.drxBaseW.value)
            / lte.shortDrxCycleS.value
    }
    var longDrxW: Double {
        (lte.drxOnS.value * lte.drxOnW.value + (lte.longDrxCycleS.value - lte.drxOnS.value) * lte.drxBaseW.value)
            / lte.longDrxCycleS.value
    }
    var idleW: Double { lte.idlePagingW.value * lte.idlePagingS.value / lte.idlePagingPeriodS.value }
    var ltePromotionJ: Double { lte.promotionS.value * lte.promotionW.value }
    var nrAdditionJ: Double { nr.promotionS.value * nr.promotionW.value }
    /// The inactivity timer is the anchor's, spent on NR.
    var inactivityJ: Double { lte.inactivityS.value * nr.connectedW.value }
    /// Seconds from the end of the inactivity timer to idle: the LTE DRX tail.
    var lteTailS: Double { lte.shortDrxS.value + lte.longDrxS.value }
    /// The NR leg's share of that tail.
    var nrTailS: Double { min(nr.tailS.value, lteTailS) }

    /// The tail after the inactivity timer, NR tail first, then what is left of the LTE DRX
    /// stretches, `short` then `long`, each from where the NR tail ended.
    func tailJ(nrTail: Double) -> Double {
        let shortLeft = max(0, lte.shortDrxS.value - nrTail)
        let longLeft = lteTailS - max(nrTail, lte.shortDrxS.value)
        return nrTail * nr.tailW.value + shortLeft * shortDrxW + max(0, longLeft) * longDrxW
    }

    var isolatedJ: Double { ltePromotionJ + nrAdditionJ + inactivityJ + tailJ(nrTail: nrTailS) }
    var busySeconds: Double { lte.promotionS.value + nr.promotionS.value + lte.inactivityS.value + lteTailS }

    @Test func oneIsolatedPacketPaysBothPromotionsTheNRTailAndTheRestOfTheLTETail() {
        // 0.26 × 1.21 + 0.26 × 3.684 + 0.1 × 3.684 + 10.0 × 3.575 + 0.02 × 1.091
        //   = 0.3146 + 0.95784 + 0.3684 + 35.75 + 0.02182 = 37.41266 J
        // (the NR tail covers the 0.02 s short DRX; 0.02 s of long DRX is left on LTE alone).
        #expect(close(isolatedJ, 37.41266, tolerance: 1e-9))
        var machine = NSAStateMachine(lte: lte, nr: nr)
        let run = simulate(&machine, [TestPacket(seconds: 1)], end: 30)
        #expect(machine.promotions == 1)
        #expect(machine.wakeUps == 1)
        #expect(run.states == [.idle, .promotion, .promotion, .active, .tail, .tail, .idle])
        #expect(close(run.attributedJoules, isolatedJ))
        #expect(close(run.chargedJoules, isolatedJ))
        #expect(close(run.joules(chargedTo: 0), isolatedJ))
        #expect(close(run.joules(in: .promotion), ltePromotionJ + nrAdditionJ))
        #expect(close(run.joules(in: .active), inactivityJ))
        // The NR tail ends 10.0 s after the inactivity timer; the LTE tail 10.02 s after it.
        let receptionEnd = 1 + lte.promotionS.value + nr.promotionS.value + lte.inactivityS.value
        #expect(run.segments[4].end == Clock.nanoseconds(receptionEnd + nr.tailS.value))
        #expect(close(run.segments[4].joules, nr.tailS.value * nr.tailW.value))
        #expect(run.segments[5].end == Clock.nanoseconds(receptionEnd + lteTailS))
        #expect(close(run.segments[5].joules, 0.02 * longDrxW))
        #expect(close(run.joules(in: .idle), (30 - busySeconds) * idleW))
    }

    @Test func costsMoreThanThreeTimesTheLTEModelForOnePacket() throws {
        let lteModel = try #require(try builtinModel("iphone-lte").radio.lte)
        var lteMachine = LTEStateMachine(parameters: lteModel)
        let lteRun = simulate(&lteMachine, [TestPacket(seconds: 1)], end: 30)
        // 37.41266 J against 11.36704 J.
        #expect(close(isolatedJ / lteRun.attributedJoules, 37.41266 / 11.36704, tolerance: 1e-9))
        #expect(isolatedJ / lteRun.attributedJoules > 3)
    }

    @Test func packetInTheNRTailReturnsToNRWithoutPromotion() {
        // Packets at 1 s and 5 s: the first's NR tail runs from 1.62 s to 11.62 s.
        var machine = NSAStateMachine(lte: lte, nr: nr)
        let run = simulate(&machine, [TestPacket(seconds: 1), TestPacket(seconds: 5)], end: 40)
        let receptionEnd = 1 + lte.promotionS.value + nr.promotionS.value + lte.inactivityS.value
        let firstJ = ltePromotionJ + nrAdditionJ + inactivityJ + (5 - receptionEnd) * nr.tailW.value
        let secondJ = inactivityJ + tailJ(nrTail: nrTailS)
        #expect(machine.promotions == 1)
        #expect(machine.wakeUps == 1)
        #expect(run.states == [.idle, .promotion, .promotion, .active, .tail, .active, .tail, .tail, .idle])
        #expect(close(run.joules(chargedTo: 0), firstJ))
        #expect(close(run.joules(chargedTo: 1), secondJ))
        #expect(close(run.attributedJoules, firstJ + secondJ))
    }

    @Test func packetInTheLTEOnlyTailAddsNRAgainButIsNoWakeUp() {
        // With a 2 s NR tail the leg is released 2 s into the 10.02 s LTE tail: a packet 5 s
        // into it pays an NR addition, no LTE promotion.
        var shortNR = nr
        shortNR.tailS = Sourced(2, source: "test: an NR leg released early")
        var machine = NSAStateMachine(lte: lte, nr: shortNR)
        let receptionEnd = 1 + lte.promotionS.value + nr.promotionS.value + lte.inactivityS.value
        let second = receptionEnd + 5
        let run = simulate(&machine, [TestPacket(seconds: 1), TestPacket(seconds: second)], end: 40)
        // First packet's tail: 2 s NR tail, then LTE long DRX from 2 s to 5 s (the 0.02 s short
        // DRX lay inside the NR tail).
        let firstJ = ltePromotionJ + nrAdditionJ + inactivityJ + 2 * shortNR.tailW.value + 3 * longDrxW
        let secondJ = nrAdditionJ + inactivityJ + 2 * shortNR.tailW.value + (lteTailS - 2) * longDrxW
        #expect(machine.promotions == 2)
        #expect(machine.wakeUps == 1)
        #expect(
            run.states == [.idle, .promotion, .promotion, .active, .tail, .tail, .promotion, .active, .tail, .tail, .idle])
        #expect(close(run.joules(chargedTo: 0), firstJ))
        #expect(close(run.joules(chargedTo: 1), secondJ))
        #expect(run.segments[6].start == Clock.nanoseconds(second))
        #expect(run.segments[7].start == Clock.nanoseconds(second + nr.promotionS.value))
    }

    @Test func nrTailLongerThanTheLTETailEndsWithTheConnection() {
        var longNR = nr
        longNR.tailS = Sourced(30, source: "test: an NR timer longer than the LTE tail")
        var machine = NSAStateMachine(lte: lte, nr: longNR)
        let run = simulate(&machine, [TestPacket(seconds: 1)], end: 60)
        // The whole 10.02 s LTE tail is spent with the NR leg up, then idle.
        #expect(close(run.attributedJoules, ltePromotionJ + nrAdditionJ + inactivityJ + lteTailS * longNR.tailW.value))
        #expect(run.states == [.idle, .promotion, .promotion, .active, .tail, .idle])
        #expect(run.segments[4].end == Clock.nanoseconds(1 + busySeconds))
    }

    @Test func transferEnergyUsesTheNRAlpha() {
        // 1 Mbit down and 1 Mbit up on NR: 8.46 mJ + 438.39 mJ.
        let packets = [
            TestPacket(seconds: 1, bytes: 125_000, direction: .rx), TestPacket(seconds: 1.6, bytes: 125_000, direction: .tx),
        ]
        var machine = NSAStateMachine(lte: lte, nr: nr)
        let run = simulate(&machine, packets, end: 40)
        // The first packet is served when the NR addition ends at 1.52 s; the second comes
        // 0.08 s later, inside the 0.1 s inactivity timer.
        let connected = (1.6 - (1 + lte.promotionS.value + nr.promotionS.value)) * nr.connectedW.value
        #expect(close(run.joules(chargedTo: 0), ltePromotionJ + nrAdditionJ + 0.00846))
        #expect(close(run.joules(chargedTo: 1), connected + 0.43839 + inactivityJ + tailJ(nrTail: nrTailS)))
    }

    @Test func cellularTrafficOfTheNSAModelGoesToTheNSAMachine() throws {
        let model = try builtinModel("iphone-5g-nsa")
        var radios = DeviceRadios(radio: model.radio)
        var recorder = RadioRecorder()
        radios.packet(RadioPacket(row: 0, time: Clock.nanoseconds(1), bytes: 0, direction: .tx), link: .cellular, into: &recorder)
        radios.finish(at: Clock.nanoseconds(30), into: &recorder)
        #expect(radios.promotions == 1)
        #expect(close(recorder.chargedJoules, isolatedJ))
        // The radio stays up for the anchor's whole tail.
        #expect(
            RadioTail.length(of: .cellular, model: model)
                == Clock.nanoseconds(lte.inactivityS.value + lte.shortDrxS.value + lte.longDrxS.value))
        #expect(RadioTail.connectedPower(of: .cellular, model: model) == nr.connectedW.value)
        let packet = RadioPacket(row: 0, time: 0, bytes: 125_000, direction: .rx)
        #expect(close(radios.transferEnergy(of: packet, link: .cellular), 0.00846))
    }

    @Test func pricingAndAttributionAgreeOnTheNSAModel() throws {
        let model = try builtinModel("iphone-5g-nsa")
        var builder = TimelineBuilder()
        builder.net(1, .tx, bytes: 0, host: "api.example", link: .cellular)
        builder.net(5, .rx, bytes: 0, host: "api.example", link: .cellular)
        let timeline = builder.build(end: 40)
        let priced = Pricer(model: model).price(timeline)
        let attribution = RadioAttribution(timeline, model: model, rows: (0..<timeline.count).map(UInt32.init))
        // The first packet wakes the radio and adds both promotions and a whole tail; the
        // second, in the NR tail, only moves the tail out. No transfer energy (0 bytes), so
        // the shares add up to the priced energy.
        #expect(Array(attribution.wokeRadio) == [true, false])
        #expect(close(attribution.addedJoules[0], isolatedJ))
        #expect(close(attribution.addedJoules.reduce(0, +), priced.eventEnergy.reduce(0, +)))
        #expect(priced.radio.promotions == 1)
    }
}
