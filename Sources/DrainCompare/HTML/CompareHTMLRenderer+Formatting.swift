import DrainRender

extension CompareHTMLRenderer {
    /// A value in its row's unit for people: joules, milliwatts and bytes scaled; others as
    /// the number and the unit. Plain text: the unit comes from the comparison, so markup
    /// escapes it.
    static func display(_ value: Double, unit: String) -> String {
        switch unit {
        case "J": DisplayNumber.joules(value)
        case "mW": DisplayNumber.milliwatts(value)
        case "bytes", "B": DisplayNumber.bytes(value)
        case "s": DisplayNumber.duration(value)
        case "%": DisplayNumber.percent(value)
        case "": MachineNumber.compact(value, digits: 2)
        default: MachineNumber.compact(value, digits: 2) + " " + unit
        }
    }

    /// `display` with a leading `+` for increases.
    static func signed(_ value: Double, unit: String) -> String {
        (value > 0 ? "+" : "") + display(value, unit: unit)
    }

    /// A per-hour value: `12.00 J/h`.
    static func hourly(_ value: Double, unit: String) -> String {
        display(value, unit: unit) + "/h"
    }

    /// `worse` for more (every compared figure is a cost: energy, power, memory, wakeups),
    /// `better` for less, `same` for none.
    static func direction(_ delta: Double) -> String {
        delta > 0 ? "worse" : (delta < 0 ? "better" : "same")
    }

    /// A Δ chip: the change and its share of the reference. `data-pct` carries the share for
    /// the page's threshold; a change from zero, which has no share, carries `data-always`
    /// instead, since it exceeds every threshold.
    static func chip(_ delta: Double, pct: Double?, unit: String, perHour: Bool = false) -> String {
        var attributes = "class=\"delta \(direction(delta))\(perHour ? " per-hour" : "")\""
        var html = HTML.escape(signed(delta, unit: unit) + (perHour ? "/h" : ""))
        if let pct {
            attributes += " data-pct=\"\(MachineNumber.compact(pct, digits: 4))\""
            html += " <small>\(pct > 0 ? "+" : "")\(DisplayNumber.percent(pct))</small>"
        } else if delta != 0 {
            attributes += " data-always=\"true\""
        }
        return "<span \(attributes)>\(html)</span>"
    }

    /// The chip of a change.
    static func chip(_ change: Change, unit: String) -> String {
        chip(change.delta, pct: change.deltaPct, unit: unit)
    }

    /// Whether the runs differ in length, so that per-hour figures are the fair comparison.
    static func lengthsDiffer(_ comparison: Comparison) -> Bool {
        let reference = comparison.runs[comparison.reference].activeDurationS
        return comparison.runs.contains { $0.activeDurationS != reference }
    }

    /// The largest |Δ| of a row's changes, to order rows by the size of their change.
    static func largestChange(_ changes: [Change?]) -> Double {
        changes.compactMap { $0.map { abs($0.delta) } }.max() ?? 0
    }

    /// The compared runs' indices: every run but the reference.
    static func candidates(_ comparison: Comparison) -> [Int] {
        comparison.runs.indices.filter { $0 != comparison.reference }
    }
}
