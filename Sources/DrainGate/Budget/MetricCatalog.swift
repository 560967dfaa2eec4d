import DrainReport

/// What the gate knows about a metric: its unit, which way is worse, the smallest change
/// that counts as a regression on its own, and how to read it from a report.
public struct MetricDefinition: Sendable, Equatable {
    /// The metric's name: a name of the report's `metrics` block, or a JSON path of a report
    /// value (`scores.energy`).
    public var name: String
    public var unit: MetricUnit
    /// Whether a larger value is worse (energy, memory, wakeups…); `false` for scores.
    public var higherIsWorse: Bool
    /// The default absolute regression floor: a change smaller than this never counts as a
    /// regression, however large relative to a small baseline.
    public var absoluteFloor: Double
    /// Whether a run without the value had none of it (time in a radio state it never
    /// entered) rather than not measuring it (memory without samples).
    public var absentIsZero: Bool
}

/// Every metric a budget or a regression check can name (`docs/gate.md` lists them). The
/// report's `metrics` names (`docs/reports.md#metrics`) plus a few report values that are
/// not in that block (scores, memory warnings, share of the memory limit).
public enum MetricCatalog {
    /// The definition of `name`, or `nil` for a name that is not a metric.
    public static func definition(_ name: String) -> MetricDefinition? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        func metric(_ unit: MetricUnit, floor: Double, higherIsWorse: Bool = true, absentIsZero: Bool = false) -> MetricDefinition {
            MetricDefinition(name: name, unit: unit, higherIsWorse: higherIsWorse, absoluteFloor: floor, absentIsZero: absentIsZero)
        }
        switch parts {
        case ["energy", "total_j"]: return metric(.joules, floor: 0.1)
        case let p where p.count == 3 && p[0] == "energy" && p[1] == "by_category" && categories.contains(p[2]):
            return metric(.joules, floor: 0.05)
        case ["energy", "average_mw"]: return metric(.milliwatts, floor: 1)
        case ["energy", "battery_pct_per_hour"]: return metric(.batteryPercentPerHour, floor: 0.01)
        case ["wakeups", "count"]: return metric(.count, floor: 5)
        case ["wakeups", "per_s"], ["wakeups", "foreground_per_s"], ["wakeups", "background_per_s"]:
            return metric(.perSecond, floor: 0.1)
        case ["radio", "promotions"]: return metric(.count, floor: 1)
        case let p where p.count == 4 && p[0] == "radio" && p[1] == "time_s" && radioLinks.contains(p[2]) && radioStates.contains(p[3]):
            return metric(.seconds, floor: 1, absentIsZero: true)
        case let p where p.count == 3 && p[0] == "network" && links.contains(p[1]) && (p[2] == "bytes_up" || p[2] == "bytes_down"):
            return metric(.bytes, floor: 10_000, absentIsZero: true)
        case ["disk", "writes"]: return metric(.count, floor: 5)
        case ["disk", "bytes_written"]: return metric(.bytes, floor: 65_536)
        case ["memory", "peak_bytes"], ["memory", "p95_bytes"]: return metric(.bytes, floor: 1_000_000)
        case let p where p.count == 2 && p[0] == "findings" && Severity(rawValue: p[1]) != nil:
            return metric(.count, floor: 1)
        case ["scores", "energy"], ["scores", "guidance"]: return metric(.score, floor: 1, higherIsWorse: false)
        case let p where p.count == 3 && p[0] == "scores" && p[1] == "areas" && GuidanceArea(rawValue: p[2]) != nil:
            return metric(.score, floor: 1, higherIsWorse: false)
        case ["memory", "warnings"]: return metric(.count, floor: 1)
        case ["memory", "peak_share_of_limit"]: return metric(.ratio, floor: 0.01)
        default: return nil
        }
    }

    /// The value of `definition` in `report`, or `nil` when the report has none (and the
    /// metric is not one whose absence means zero).
    public static func value(_ definition: MetricDefinition, in report: Report) -> Double? {
        let value: Double? =
            switch definition.name {
            case "scores.energy": report.scores.energy
            case "scores.guidance": report.scores.guidance
            case "memory.warnings": Double(report.memory.warnings)
            case "memory.peak_share_of_limit": report.memory.peakShareOfLimit
            case let name where name.hasPrefix("scores.areas."): report.scores.areas[String(name.dropFirst("scores.areas.".count))]
            default: report.metrics[definition.name]?.value
            }
        return value ?? (definition.absentIsZero ? 0 : nil)
    }

    /// Every metric a report can hold, by name, with its value: what a baseline keeps per run.
    public static func values(in report: Report) -> [String: Double] {
        var names = Set(report.metrics.keys)
        names.formUnion(["scores.energy", "scores.guidance", "memory.warnings", "memory.peak_share_of_limit"])
        names.formUnion(report.scores.areas.keys.map { "scores.areas.\($0)" })
        var values: [String: Double] = [:]
        for name in names {
            guard let definition = definition(name), let value = value(definition, in: report) else { continue }
            values[name] = value
        }
        return values
    }

    static let categories = ["cpu", "radio", "disk", "polling", "display", "location", "sensors"]
    static let links = ["cellular", "wifi", "ethernet", "loopback"]
    static let radioLinks = ["cellular", "wifi"]
    static let radioStates = ["idle", "promotion", "active", "fach", "tail"]
}
