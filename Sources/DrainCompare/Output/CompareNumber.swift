import DrainRender

/// Values of a comparison written for people, by their unit.
enum CompareNumber {
    /// `13.4 J`, `602 mW`, `114.3 MB`, `4.85 %/h`, `1.01 /s`, `253 s`, `17`.
    static func value(_ value: Double, unit: String) -> String {
        switch unit {
        case "J": DisplayNumber.joules(value)
        case "mW": DisplayNumber.milliwatts(value)
        case "B": DisplayNumber.bytes(value)
        case "%/h": DisplayNumber.percent(value, digits: 2) + "/h"
        case "/s": MachineNumber.compact(value, digits: 3) + " /s"
        case "s": MachineNumber.compact(value, digits: 2) + " s"
        default: MachineNumber.compact(value, digits: 3)
        }
    }

    /// `+1.2 J (+9.8 %)`, `−0.4 J`, or `n/a` without a change.
    static func change(_ change: Change?, unit: String) -> String {
        guard let change else { return "n/a" }
        let sign = change.delta > 0 ? "+" : ""
        var text = sign + value(change.delta, unit: unit)
        if let share = change.deltaPct { text += " (\(share > 0 ? "+" : "")\(MachineNumber.compact(share, digits: 1)) %)" }
        return text
    }

    /// `value` or `—` when missing.
    static func optional(_ value: Double?, unit: String) -> String {
        value.map { Self.value($0, unit: unit) } ?? "—"
    }
}
