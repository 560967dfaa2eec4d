import DrainTrace
import Testing
@testable import DrainModel

/// A published table of network energy reproduced by Drain's state machine.
///
/// Balasubramanian, Balasubramanian and Venkataramani, "Energy Consumption in Mobile Phones: A
/// Measurement Study and Implications for Network Applications", IMC 2009: the per-technology
/// energy model of its measurement section, energy of one transfer of x KB:
///
/// | technology | ramp + transfer, J | tail                | maintenance |
/// |------------|--------------------|---------------------|-------------|
/// | 3G         | 0.025·x + 3.5      | 0.62 J/s for 12.5 s | —           |
/// | GSM        | 0.036·x + 1.7      | 0.25 J/s for 6 s    | —           |
/// | Wi-Fi      | 0.007·x + 5.9 (association included) | none | 0.05 J/s |
///
/// The figures are those of `REFERENCES.md`, there marked unverified (a secondary copy); the
/// paper's own table could not be read to check its number or its rounding.
///
/// The model maps onto the LTE machine exactly: the fixed part is a promotion of 1 s at that
/// many watts, the per-KB part is α (J/KB → mW per Mbps: J per 1000 bytes = J per 0.008 Mbit,
/// so 0.025 J/KB = 3125 mW/Mbps), the tail is an inactivity timer of the tail's length at its
/// power, with no DRX stretches and an idle that costs nothing. Wi-Fi's maintenance power is
/// paid with or without the transfer and is left out, as Drain leaves idle time out of the
/// app's energy. A KB is taken as 1000 bytes.
struct PublishedFigureTests {
    struct Row: Sendable, CustomStringConvertible {
        var technology: String
        var perKB: Double
        var fixed: Double
        var tailW: Double
        var tailS: Double

        var description: String { technology }

        /// The paper's energy of one isolated transfer of `kb` KB, joules.
        func published(kb: Double) -> Double { perKB * kb + fixed + tailW * tailS }
    }

    static let rows = [
        Row(technology: "3G", perKB: 0.025, fixed: 3.5, tailW: 0.62, tailS: 12.5),
        Row(technology: "GSM", perKB: 0.036, fixed: 1.7, tailW: 0.25, tailS: 6),
        Row(technology: "Wi-Fi", perKB: 0.007, fixed: 5.9, tailW: 0, tailS: 0),
    ]

    /// The paper's row as Drain LTE parameters.
    static func parameters(_ row: Row) -> DeviceModel.LTE {
        let source = "Balasubramanian et al., IMC 2009, energy model (\(row.technology)); unverified, secondary copy in REFERENCES.md"
        func paper(_ value: Double) -> Sourced { Sourced(value, source: source) }
        func none(_ value: Double) -> Sourced { Sourced(value, source: "test: not in the paper's model") }
        // J per KB → mJ per Mbit: × 1000 mJ/J ÷ 0.008 Mbit/KB.
        let alpha = paper(row.perKB * 1000 / 0.008)
        return DeviceModel.LTE(
            promotionS: none(1), promotionW: paper(row.fixed), inactivityS: paper(row.tailS), connectedW: paper(row.tailW),
            shortDrxS: none(0), shortDrxCycleS: none(1), longDrxS: none(0), longDrxCycleS: none(1), drxOnS: none(0),
            drxOnW: none(0), drxBaseW: none(0), idlePagingS: none(0), idlePagingPeriodS: none(1), idlePagingW: none(0),
            alphaUpMwPerMbps: alpha, alphaDownMwPerMbps: alpha)
    }

    @Test(arguments: PublishedFigureTests.rows)
    func oneTransferCostsWhatThePaperSays(row: Row) {
        for kb in [1.0, 10, 100, 1000] {
            var machine = LTEStateMachine(parameters: Self.parameters(row))
            let packet = TestPacket(seconds: 1, bytes: Int64(kb * 1000), direction: .rx)
            let drain = simulate(&machine, [packet], end: 60).attributedJoules
            let published = row.published(kb: kb)
            #expect(abs(drain - published) / published < 0.01, "\(row.technology) \(kb) KB: Drain \(drain) J, paper \(published) J")
        }
    }

    @Test func threeGTailDominatesASmallTransfer() {
        // 50 KB over 3G: 0.025 × 50 + 3.5 = 4.75 J of ramp and transfer, 0.62 × 12.5 = 7.75 J
        // of tail, 12.5 J in all: the tail is 62 % of it.
        let row = Self.rows[0]
        var machine = LTEStateMachine(parameters: Self.parameters(row))
        let run = simulate(&machine, [TestPacket(seconds: 1, bytes: 50_000, direction: .rx)], end: 60)
        #expect(close(run.attributedJoules, 12.5, tolerance: 1e-9))
        #expect(close(run.joules(in: .active) - 0.025 * 50, 7.75, tolerance: 1e-9))
    }
}
