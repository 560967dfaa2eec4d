import DrainModel
import DrainReport
import DrainRules
import DrainTrace
import Testing

/// The radio arithmetic of `docs/models.md`, written out from a model's parameters, for the
/// expected numbers of the network rule tests.
struct LTECosts {
    let lte: DeviceModel.LTE

    init(_ model: DeviceModel) throws {
        lte = try #require(model.radio.lte)
    }

    /// IDLE → connected: promotion_s at promotion_w.
    var promotion: Double { lte.promotionS.value * lte.promotionW.value }

    /// Average power of a DRX cycle: on-duration at drx_on_w, the rest at drx_base_w.
    func drxPower(cycle: Double) -> Double {
        (lte.drxOnS.value * lte.drxOnW.value + (cycle - lte.drxOnS.value) * lte.drxBaseW.value) / cycle
    }

    /// After the last packet: the inactivity timer at β, then short and long DRX.
    var tail: Double {
        lte.inactivityS.value * lte.connectedW.value + lte.shortDrxS.value * drxPower(cycle: lte.shortDrxCycleS.value)
            + lte.longDrxS.value * drxPower(cycle: lte.longDrxCycleS.value)
    }

    /// The first `seconds` of the tail, cut short by the next packet: the inactivity timer at
    /// β, then short DRX, then long DRX, each for as much of it as fits.
    func tail(over seconds: Double) -> Double {
        let inactivity = min(seconds, lte.inactivityS.value)
        let short = min(max(0, seconds - lte.inactivityS.value), lte.shortDrxS.value)
        let long = min(max(0, seconds - lte.inactivityS.value - lte.shortDrxS.value), lte.longDrxS.value)
        return inactivity * lte.connectedW.value + short * drxPower(cycle: lte.shortDrxCycleS.value)
            + long * drxPower(cycle: lte.longDrxCycleS.value)
    }

    /// Seconds the radio stays up after its last packet.
    var tailSeconds: Double { lte.inactivityS.value + lte.shortDrxS.value + lte.longDrxS.value }

    /// α × megabits, in joules (mW per Mbps × Mbit = mJ).
    func transfer(_ bytes: Int64, _ direction: NetDirection) -> Double {
        let alpha = direction == .tx ? lte.alphaUpMwPerMbps.value : lte.alphaDownMwPerMbps.value
        return Double(bytes) * 8 / 1e6 * alpha / 1000
    }

    /// One packet on an idle radio: promotion, transfer, tail.
    func isolated(_ bytes: Int64, _ direction: NetDirection) -> Double {
        promotion + transfer(bytes, direction) + tail
    }
}

/// Loads a built-in model; traps on a broken build (the model tests check the files).
func builtinModel(_ name: String) throws -> DeviceModel {
    try ModelCatalog.load(builtin: name)
}

/// `|actual − expected|` within a relative 1e-9 (joules summed in different orders).
func nearly(_ actual: Double?, _ expected: Double, tolerance: Double = 1e-9) -> Bool {
    guard let actual else { return false }
    return abs(actual - expected) <= tolerance * max(1, abs(expected))
}

/// Joules as rule messages show them: three decimals.
func fixed3(_ joules: Double) -> String {
    Formatting.fixed(joules, digits: 3)
}
