import DrainTrace
import Testing
@testable import DrainModel

/// 3G energies worked out by hand from the loaded model's parameters (ARO 3G values in
/// `iphone-lte`'s `umts` section).
struct UMTSStateMachineTests {
    let umts: DeviceModel.UMTS

    init() throws {
        umts = try #require(try builtinModel("iphone-lte").radio.umts)
    }

    var promotionJ: Double { umts.idleToDchS.value * umts.idleToDchW.value }
    var dchTailJ: Double { umts.dchTailS.value * umts.dchW.value }
    var fachTailJ: Double { umts.fachTailS.value * umts.fachW.value }
    /// When the DCH timer of a packet at 1 s runs out: 1 + promotion + DCH tail.
    var fachStart: Double { 1 + umts.idleToDchS.value + umts.dchTailS.value }

    @Test func isolatedPacketPaysPromotionDCHTailAndFACHTail() {
        // 2.0 × 0.65 + 4.0 × 1.3 + 10 × 0.3 = 9.5 J
        #expect(close(promotionJ + dchTailJ + fachTailJ, 9.5, tolerance: 1e-12))
        var machine = UMTSStateMachine(parameters: umts)
        let run = simulate(&machine, [TestPacket(seconds: 1, bytes: 100)], end: 60)
        #expect(machine.promotions == 1)
        #expect(run.states == [.idle, .promotion, .active, .fach, .idle])
        #expect(close(run.joules(in: .promotion), promotionJ))
        #expect(close(run.joules(in: .active), dchTailJ))
        #expect(close(run.joules(in: .fach), fachTailJ))
        #expect(close(run.joules(chargedTo: 0), promotionJ + dchTailJ + fachTailJ))
        #expect(run.joules(in: .idle) == 0)
    }

    @Test func packetInDCHExtendsIt() {
        // DCH starts at 3 s (after the 2 s promotion); a packet at 5 s keeps it 2 s longer.
        var machine = UMTSStateMachine(parameters: umts)
        let run = simulate(&machine, [TestPacket(seconds: 1), TestPacket(seconds: 5)], end: 60)
        let extraDch = 5 - (1 + umts.idleToDchS.value)
        #expect(machine.promotions == 1)
        #expect(close(run.joules(chargedTo: 0), promotionJ))
        #expect(close(run.joules(chargedTo: 1), extraDch * umts.dchW.value + dchTailJ + fachTailJ))
    }

    @Test func smallPacketInFACHStaysInFACHAndRestartsItsTimer() {
        // FACH from 7 s; an uplink packet of 100 B (≤ 543 B) at 9 s is sent in FACH, which then
        // lasts until 9 + 10 s.
        #expect(Double(100) <= umts.fachUpBytes.value)
        let small = fachStart + 2
        var machine = UMTSStateMachine(parameters: umts)
        let run = simulate(
            &machine, [TestPacket(seconds: 1, bytes: 100), TestPacket(seconds: small, bytes: 100, direction: .tx)], end: 60)
        #expect(machine.promotions == 1)
        #expect(run.states == [.idle, .promotion, .active, .fach, .idle])
        #expect(close(run.joules(chargedTo: 0), promotionJ + dchTailJ + 2 * umts.fachW.value))
        #expect(close(run.joules(chargedTo: 1), fachTailJ))
        let fach = run.segments[3]
        #expect(fach.start == Clock.nanoseconds(fachStart))
        #expect(fach.end == Clock.nanoseconds(small + umts.fachTailS.value))
    }

    @Test func largePacketInFACHIsPromotedToDCH() {
        // A downlink packet of 1000 B (> 475 B) at 9 s: FACH → DCH promotion, then DCH and FACH tails.
        #expect(Double(1000) > umts.fachDownBytes.value)
        let large = fachStart + 2
        var machine = UMTSStateMachine(parameters: umts)
        let run = simulate(
            &machine, [TestPacket(seconds: 1, bytes: 100), TestPacket(seconds: large, bytes: 1000, direction: .rx)], end: 60)
        let fachPromotionJ = umts.fachToDchS.value * umts.fachToDchW.value
        #expect(machine.promotions == 2)
        // The radio was up in FACH: the second promotion wakes nothing.
        #expect(machine.wakeUps == 1)
        #expect(run.states == [.idle, .promotion, .active, .fach, .promotion, .active, .fach, .idle])
        #expect(close(run.joules(chargedTo: 0), promotionJ + dchTailJ + 2 * umts.fachW.value))
        #expect(close(run.joules(chargedTo: 1), fachPromotionJ + dchTailJ + fachTailJ))
        #expect(close(run.attributedJoules, run.chargedJoules))
    }

    @Test func packetAfterFACHRanOutStartsFromIdle() {
        let later = fachStart + umts.fachTailS.value + 1
        var machine = UMTSStateMachine(parameters: umts)
        let run = simulate(&machine, [TestPacket(seconds: 1), TestPacket(seconds: later)], end: 60)
        #expect(machine.promotions == 2)
        #expect(machine.wakeUps == 2)
        #expect(close(run.joules(chargedTo: 1), promotionJ + dchTailJ + fachTailJ))
    }
}
