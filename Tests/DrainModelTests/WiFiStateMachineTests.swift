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
