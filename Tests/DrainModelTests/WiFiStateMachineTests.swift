import DrainTrace
import Testing
@testable import DrainModel

/// Wi-Fi energies worked out by hand from the loaded model's parameters (ARO WiFi.conf values in
/// `iphone-lte`'s `wifi` section).
struct WiFiStateMachineTests {
    let wifi: DeviceModel.WiFi

    init() throws {
        wifi = try builtinModel("iphone-lte").radio.wifi
    }

    var tailJ: Double { wifi.tailS.value * wifi.tailW.value }

    @Test func singlePacketCostsOneTail() {
        // 0.25 s × 0.403 W = 0.10075 J
        #expect(close(tailJ, 0.10075, tolerance: 1e-12))
        var machine = WiFiStateMachine(parameters: wifi)
        let run = simulate(&machine, [TestPacket(seconds: 1, bytes: 1500)], end: 10)
        #expect(machine.promotions == 0)
        #expect(close(run.attributedJoules, tailJ))
        #expect(close(run.joules(chargedTo: 0), tailJ))
        #expect(run.states == [.idle, .tail, .idle])
        // Standby before and after, charged to no one.
        #expect(close(run.joules(in: .idle), (10 - wifi.tailS.value) * wifi.standbyW.value))
    }

    @Test func burstStaysActiveWhileGapsAreShorterThanTheTail() {
        // Packets at 1.0, 1.1, 1.2 s: active 0.2 s, then one tail.
        var machine = WiFiStateMachine(parameters: wifi)
        let run = simulate(
            &machine, [TestPacket(seconds: 1.0), TestPacket(seconds: 1.1), TestPacket(seconds: 1.2)], end: 10)
        #expect(run.states == [.idle, .active, .tail, .idle])
        #expect(machine.wakeUps == 1)
        #expect(close(run.joules(in: .active), 0.2 * wifi.activeW.value))
        #expect(close(run.joules(chargedTo: 0), 0))
        #expect(close(run.joules(chargedTo: 1), 0.1 * wifi.activeW.value))
        #expect(close(run.joules(chargedTo: 2), 0.1 * wifi.activeW.value + tailJ))
    }

    @Test func gapLongerThanTheTailPaysTwoTails() {
        var machine = WiFiStateMachine(parameters: wifi)
        let run = simulate(&machine, [TestPacket(seconds: 1), TestPacket(seconds: 2)], end: 10)
        #expect(close(run.attributedJoules, 2 * tailJ))
        #expect(run.states == [.idle, .tail, .idle, .tail, .idle])
        // No promotion, but each packet woke the radio from power save.
        #expect(machine.promotions == 0)
        #expect(machine.wakeUps == 2)
    }

    @Test func alphaTermsApplyWhenTheModelGivesThem() {
        var parameters = wifi
        parameters.alphaUpMwPerMbps = Sourced(283.17, source: "test: Huang et al. Wi-Fi α_up")
        parameters.alphaDownMwPerMbps = Sourced(137.01, source: "test: Huang et al. Wi-Fi α_down")
        var machine = WiFiStateMachine(parameters: parameters)
        // 1 Mbit up, 2 Mbit down: 283.17 mJ + 2 × 137.01 mJ.
        let run = simulate(
            &machine,
            [TestPacket(seconds: 1, bytes: 125_000, direction: .tx), TestPacket(seconds: 1.1, bytes: 250_000, direction: .rx)],
            end: 10)
        #expect(close(run.joules(chargedTo: 0), 0.28317))
        #expect(close(run.joules(chargedTo: 1), 0.1 * wifi.activeW.value + 0.27402 + tailJ))
        #expect(close(run.attributedJoules, 0.28317 + 0.27402 + 0.1 * wifi.activeW.value + tailJ))
    }
}

/// 802.11 power save worked out by hand from `iphone-wifi`'s parameters: after the tail the
/// radio dozes at `standby_w` and listens for every DTIM beacon.
struct WiFiPowerSaveTests {
    let wifi: DeviceModel.WiFi
    let psm: DeviceModel.PowerSave

    init() throws {
        wifi = try builtinModel("iphone-wifi").radio.wifi
        psm = try #require(wifi.psm)
    }

    /// Beacon interval × DTIM period: 0.1024 s × 2 = 0.2048 s between listens.
    var listenPeriod: Double { psm.beaconIntervalS.value * psm.dtimPeriod.value }
    /// One listen above dozing through it.
    var listenExtraJ: Double { psm.listenS.value * (psm.listenW.value - wifi.standbyW.value) }

    @Test func silenceAfterOnePacketCostsTheDozeAndOneListenPerDTIMBeacon() {
        #expect(close(listenPeriod, 0.2048, tolerance: 1e-12))
        // A packet at 1 s, the tail to 1.25 s, power save until 10 s. Listens fall at
        // k × 0.2048 s: k = 0…4 before 1 s (0.8192 s is the last), k = 7…48 from 1.25 s
        // (1.4336 s) to 10 s (9.8304 s is the last): 5 + 42 = 47 listens.
        var machine = WiFiStateMachine(parameters: wifi)
        let run = simulate(&machine, [TestPacket(seconds: 1, bytes: 1500)], end: 10)
        let before = Int((1 / listenPeriod).rounded(.up))
        let after = Int((10 / listenPeriod).rounded(.up)) - Int((1.25 / listenPeriod).rounded(.up))
        #expect(before == 5)
        #expect(after == 42)
        let dozeSeconds = 10 - wifi.tailS.value
        let idleJ = dozeSeconds * wifi.standbyW.value + Double(before + after) * listenExtraJ
        // 9.75 × 0.0143 + 47 × 0.003 × (0.403 − 0.0143) = 0.139425 + 0.0548067 = 0.1942317 J
        #expect(close(idleJ, 0.1942317, tolerance: 1e-9))
        #expect(run.states == [.idle, .tail, .idle])
        #expect(close(run.joules(in: .idle), idleJ))
        #expect(close(run.segments[0].joules, 1 * wifi.standbyW.value + 5 * listenExtraJ))
        // The app pays the tail only, as without power-save listening.
        #expect(close(run.attributedJoules, wifi.tailS.value * wifi.tailW.value))
        #expect(close(run.chargedJoules, wifi.tailS.value * wifi.tailW.value))
    }

    @Test func longSilenceAveragesAROsStandbyPower() {
        // 1024 s of power save holds exactly 5000 listen periods of 0.2048 s: the average is
        // 0.0143 + 0.003 × 0.3887 / 0.2048 = 0.019994 W, ARO's 0.02 W standby to 0.03 %.
        var machine = WiFiStateMachine(parameters: wifi)
        let end = 1 + wifi.tailS.value + 1024
        let run = simulate(&machine, [TestPacket(seconds: 1)], end: end)
        let psmSegment = run.segments[2]
        #expect(psmSegment.state == .idle)
        let average = psmSegment.joules / Clock.seconds(psmSegment.end - psmSegment.start)
        #expect(close(average, wifi.standbyW.value + listenExtraJ / listenPeriod, tolerance: 1e-12))
        #expect(abs(average - 0.02) / 0.02 < 0.0005)
    }

    @Test func withoutPowerSaveListeningStandbyIsFlat() {
        var flat = wifi
        flat.psm = nil
        var machine = WiFiStateMachine(parameters: flat)
        let run = simulate(&machine, [TestPacket(seconds: 1)], end: 10)
        #expect(close(run.joules(in: .idle), (10 - wifi.tailS.value) * wifi.standbyW.value))
    }

    @Test func listensAreCountedOnTheBeaconGridFromTheStart() {
        let period = Clock.nanoseconds(0.2048)
        // [0, 1 s): 0, 0.2048, 0.4096, 0.6144, 0.8192 s.
        #expect(WiFiStateMachine.multiples(of: period, from: 0, to: Clock.nanoseconds(1)) == 5)
        // A stretch starting on a beacon counts it; one ending on a beacon does not.
        #expect(WiFiStateMachine.multiples(of: period, from: period, to: 2 * period) == 1)
        #expect(WiFiStateMachine.multiples(of: period, from: 1, to: period) == 0)
        #expect(WiFiStateMachine.multiples(of: period, from: 5, to: 5) == 0)
    }
}
