import DrainTrace
import Testing
@testable import DrainModel

/// LTE energies worked out by hand from the loaded model's parameters (ARO lte.conf values in
/// `iphone-lte`).
struct LTEStateMachineTests {
    let lte: DeviceModel.LTE

    init() throws {
        lte = try #require(try builtinModel("iphone-lte").radio.lte)
    }

    // Average DRX powers: on-duration at drx_on_w, the rest of the cycle at drx_base_w.
    var shortDrxW: Double {
        (lte.drxOnS.value * lte.drxOnW.value + (lte.shortDrxCycleS.value - lte.drxOnS.value) * lte.drxBaseW.value)
            / lte.shortDrxCycleS.value
    }
    var longDrxW: Double {
        (lte.drxOnS.value * lte.drxOnW.value + (lte.longDrxCycleS.value - lte.drxOnS.value) * lte.drxBaseW.value)
            / lte.longDrxCycleS.value
    }
    var idleW: Double { lte.idlePagingW.value * lte.idlePagingS.value / lte.idlePagingPeriodS.value }
    var promotionJ: Double { lte.promotionS.value * lte.promotionW.value }
    var inactivityJ: Double { lte.inactivityS.value * lte.connectedW.value }
    var tailJ: Double { lte.shortDrxS.value * shortDrxW + lte.longDrxS.value * longDrxW }
    /// promotion + inactivity timer + short DRX + long DRX.
    var isolatedJ: Double { promotionJ + inactivityJ + tailJ }
    /// promotion_s + inactivity_s + short_drx_s + long_drx_s.
    var busySeconds: Double { lte.promotionS.value + lte.inactivityS.value + lte.shortDrxS.value + lte.longDrxS.value }

    func alphaJ(bytes: Int64, _ direction: NetDirection) -> Double {
        let alpha = direction == .tx ? lte.alphaUpMwPerMbps.value : lte.alphaDownMwPerMbps.value
        return Double(bytes) * 8 / 1e6 * alpha / 1000  // mW per Mbps × Mbit = mJ
    }

    @Test func averageDrxPowersMatchTheAROFigures() {
        // (0.002 × 1.68 + 0.018 × 1.06) / 0.02 and (0.002 × 1.68 + 0.038 × 1.06) / 0.04
        #expect(close(shortDrxW, 1.122, tolerance: 1e-12))
        #expect(close(longDrxW, 1.091, tolerance: 1e-12))
    }

    @Test func oneIsolatedExchangeCostsAbout11Point37Joules() {
        // 0.26 × 1.21 + 0.1 × 1.2 + 0.02 × 1.122 + 10 × 1.091 = 11.36704 J
        #expect(close(isolatedJ, 11.36704, tolerance: 1e-9))
        var machine = LTEStateMachine(parameters: lte)
        let run = simulate(&machine, [TestPacket(seconds: 1)], end: 30)
        #expect(machine.promotions == 1)
        #expect(close(run.attributedJoules, isolatedJ))
        #expect(close(run.chargedJoules, isolatedJ))
        #expect(close(run.joules(chargedTo: 0), isolatedJ))
        #expect(run.states == [.idle, .promotion, .active, .tail, .tail, .idle])
        #expect(close(run.joules(in: .promotion), promotionJ))
        #expect(close(run.joules(in: .active), inactivityJ))
        #expect(close(run.joules(in: .tail), tailJ))
        // Idle paging before (1 s) and after (30 − 1 − busy) the exchange, charged to no one.
        #expect(close(run.joules(in: .idle), (1 + 30 - 1 - busySeconds) * idleW))
        #expect(run.segments.last?.end == Clock.nanoseconds(30))
    }

    @Test func secondExchangeInsideTheTailReturnsToContinuousReceptionWithoutPromotion() {
        // Packets at 1 s and 3 s. The first's tail runs from 1.36 s (short DRX to 1.38 s,
        // long DRX to 3 s), then the second restarts continuous reception and gets a full tail.
        var machine = LTEStateMachine(parameters: lte)
        let run = simulate(&machine, [TestPacket(seconds: 1), TestPacket(seconds: 3)], end: 30)
        let longDrxStart = 1 + lte.promotionS.value + lte.inactivityS.value + lte.shortDrxS.value
        let partialLongDrxJ = (3 - longDrxStart) * longDrxW
        let firstJ = promotionJ + inactivityJ + lte.shortDrxS.value * shortDrxW + partialLongDrxJ
        let secondJ = inactivityJ + tailJ
        #expect(machine.promotions == 1)
        #expect(machine.wakeUps == 1)
        #expect(run.states == [.idle, .promotion, .active, .tail, .tail, .active, .tail, .tail, .idle])
        #expect(close(run.joules(chargedTo: 0), firstJ))
        #expect(close(run.joules(chargedTo: 1), secondJ))
        #expect(close(run.attributedJoules, firstJ + secondJ))
        #expect(run.segments[4].end == Clock.nanoseconds(3))
        #expect(run.segments[5].start == Clock.nanoseconds(3))
    }

    @Test func exchangesFurtherApartThanTheTailPayTwoPromotionsAndTwoTails() {
        let gap = busySeconds + 5
        var machine = LTEStateMachine(parameters: lte)
        let run = simulate(&machine, [TestPacket(seconds: 1), TestPacket(seconds: 1 + gap)], end: 1 + gap + 20)
        #expect(machine.promotions == 2)
        #expect(machine.wakeUps == 2)
        #expect(close(run.joules(chargedTo: 0), isolatedJ))
        #expect(close(run.joules(chargedTo: 1), isolatedJ))
        #expect(close(run.attributedJoules, 2 * isolatedJ))
        // The 5 s between the first tail and the second promotion are idle.
        let idleBetween = run.segments[5]
        #expect(idleBetween.state == .idle)
        #expect(close(Clock.seconds(idleBetween.end - idleBetween.start), 5))
        #expect(close(idleBetween.joules, 5 * idleW))
    }

    @Test func packetWithinTheInactivityTimerExtendsContinuousReception() {
        // Promotion ends at 1.26 s; a packet at 1.3 s keeps the radio connected 0.04 s longer.
        var machine = LTEStateMachine(parameters: lte)
        let run = simulate(&machine, [TestPacket(seconds: 1), TestPacket(seconds: 1.3)], end: 30)
        let extension_ = 1.3 - (1 + lte.promotionS.value)
        #expect(machine.promotions == 1)
        #expect(close(run.joules(chargedTo: 0), promotionJ))
        #expect(close(run.joules(chargedTo: 1), extension_ * lte.connectedW.value + inactivityJ + tailJ))
        #expect(close(run.joules(in: .active), (extension_ + lte.inactivityS.value) * lte.connectedW.value))
    }

    @Test func packetsDuringThePromotionAreServedWhenItEnds() {
        let packets = [
            TestPacket(seconds: 1.0, bytes: 1000, direction: .tx), TestPacket(seconds: 1.1, bytes: 2000, direction: .rx),
            TestPacket(seconds: 1.2, bytes: 3000, direction: .rx),
        ]
        var machine = LTEStateMachine(parameters: lte)
        let run = simulate(&machine, packets, end: 30)
        #expect(machine.promotions == 1)
        #expect(close(run.joules(chargedTo: 0), promotionJ + alphaJ(bytes: 1000, .tx)))
        #expect(close(run.joules(chargedTo: 1), alphaJ(bytes: 2000, .rx)))
        #expect(close(run.joules(chargedTo: 2), alphaJ(bytes: 3000, .rx) + inactivityJ + tailJ))
        // Continuous reception starts at the end of the promotion and lasts only the timer.
        let active = run.segments[2]
        #expect(active.state == .active)
        #expect(active.start == Clock.nanoseconds(1 + lte.promotionS.value))
        #expect(active.end == Clock.nanoseconds(1 + lte.promotionS.value + lte.inactivityS.value))
    }

    @Test func transferEnergyIsAlphaTimesMegabits() {
        // 125,000 bytes = 1 Mbit: 438.39 mJ up, 51.97 mJ down.
        #expect(close(alphaJ(bytes: 125_000, .tx), 0.43839, tolerance: 1e-12))
        var machine = LTEStateMachine(parameters: lte)
        let run = simulate(
            &machine,
            [TestPacket(seconds: 1, bytes: 125_000, direction: .tx), TestPacket(seconds: 1.3, bytes: 250_000, direction: .rx)],
            end: 30)
        let expected = isolatedJ + (1.3 - 1 - lte.promotionS.value) * lte.connectedW.value + 0.43839 + 2 * 0.05197
        #expect(close(run.attributedJoules, expected))
        #expect(close(run.joules(in: .active), expected - promotionJ - tailJ))
    }

    @Test func tailStillRunningAtTheEndIsChargedInFull() {
        var machine = LTEStateMachine(parameters: lte)
        let run = simulate(&machine, [TestPacket(seconds: 1)], end: 2)
        #expect(close(run.attributedJoules, isolatedJ))
        #expect(run.segments.last?.state == .tail)
        #expect(run.segments.last?.end == Clock.nanoseconds(1 + busySeconds))
    }

    @Test func packetsOutOfOrderAreTreatedAsSimultaneous() {
        var machine = LTEStateMachine(parameters: lte)
        let run = simulate(&machine, [TestPacket(seconds: 2), TestPacket(seconds: 1)], end: 30)
        #expect(machine.promotions == 1)
        #expect(close(run.attributedJoules, isolatedJ))
        #expect(zip(run.segments, run.segments.dropFirst()).allSatisfy { $0.end <= $1.start })
    }
}
