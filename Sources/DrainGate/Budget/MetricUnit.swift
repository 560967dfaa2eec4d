import DrainTrace
import Foundation

/// The unit of a gated metric, and how budget files may write quantities of it.
///
/// Every metric is stored in its base unit (the unit the report's `metrics` block uses);
/// a budget value is converted to it: `180 MB` of a byte metric is 180,000,000, `1.5 W` of
/// a power metric is 1,500 mW. A value whose unit does not fit the metric (`12 J` for
/// `memory.peak_bytes`) is refused.
public enum MetricUnit: String, Codable, Sendable, CaseIterable {
    case joules = "J"
    case milliwatts = "mW"
    case batteryPercentPerHour = "%/h"
    case perSecond = "/s"
    case seconds = "s"
    case bytes = "B"
    case count
    /// A 0–100 score.
    case score
    /// A share: `0.8` or `80%`.
    case ratio

    /// The suffixes a budget may write after the number, with their factor to the base unit.
    /// Bytes use SI prefixes (`MB` = 10⁶ B) and IEC ones (`MiB` = 2²⁰ B).
    var suffixes: [(suffix: String, factor: Double)] {
        switch self {
        case .joules: [("J", 1), ("mJ", 1e-3), ("kJ", 1e3), ("Wh", 3_600), ("mWh", 3.6)]
        case .milliwatts: [("mW", 1), ("W", 1e3), ("uW", 1e-3), ("µW", 1e-3)]
        case .batteryPercentPerHour: [("%/h", 1)]
        case .perSecond: [("/s", 1), ("/min", 1.0 / 60), ("/h", 1.0 / 3_600)]
        case .seconds: [("s", 1), ("ms", 1e-3), ("min", 60), ("h", 3_600)]
        case .bytes:
            [
                ("B", 1), ("KB", 1e3), ("MB", 1e6), ("GB", 1e9), ("kB", 1e3), ("KiB", 1_024), ("MiB", 1_048_576),
                ("GiB", 1_073_741_824),
            ]
        case .count: [("", 1)]
        case .score: [("", 1)]
        case .ratio: [("", 1), ("%", 0.01)]
        }
    }

    /// `text` (`12 J`, `1.5W`, `180 MB`, `0`) as a value in this unit, or `nil` when it is
    /// not a finite number followed by one of this unit's suffixes. A bare number is taken in
    /// the base unit.
    public func parse(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var numberEnd = trimmed.startIndex
        for character in trimmed {
            guard character.isNumber || "+-.eE".contains(character) else { break }
            numberEnd = trimmed.index(after: numberEnd)
        }
        // `e` only belongs to the number when digits follow it (so `1e3` is a number, and
        // nothing here ends in a unit starting with e).
        guard let number = Double(trimmed[..<numberEnd]), number.isFinite else { return nil }
        let suffix = trimmed[numberEnd...].trimmingCharacters(in: .whitespaces)
        if suffix.isEmpty { return number }
        guard let factor = suffixes.first(where: { $0.suffix == suffix })?.factor else { return nil }
        // `1e308 MB` is finite until scaled; an infinite limit could never be breached.
        let value = number * factor
        return value.isFinite ? value : nil
    }

    /// The suffixes this unit accepts, for error messages.
    var acceptedSuffixes: String {
        let named = suffixes.map(\.suffix).filter { !$0.isEmpty }
        return named.isEmpty ? "a bare number" : named.joined(separator: ", ")
    }

    /// `value` written with this unit for people: `13.4 J`, `152 mW`, `181.2 MB`, `3`.
    public func format(_ value: Double) -> String {
        switch self {
        case .joules: Self.decimal(value, significant: 3) + " J"
        case .milliwatts: Self.decimal(value, significant: 3) + " mW"
        case .batteryPercentPerHour: Self.decimal(value, significant: 3) + " %/h"
        case .perSecond: Self.decimal(value, significant: 3) + " /s"
        case .seconds: Self.decimal(value, significant: 3) + " s"
        case .bytes: Self.bytes(value)
        case .count, .score: Self.decimal(value, significant: 3)
        case .ratio: Self.decimal(value * 100, significant: 3) + " %"
        }
    }

    private static func bytes(_ value: Double) -> String {
        let magnitude = abs(value)
        if magnitude >= 1e9 { return decimal(value / 1e9, significant: 4) + " GB" }
        if magnitude >= 1e6 { return decimal(value / 1e6, significant: 4) + " MB" }
        if magnitude >= 1e3 { return decimal(value / 1e3, significant: 4) + " KB" }
        return decimal(value, significant: 4) + " B"
    }

    /// `value` with at least `significant` significant digits and at most 6 decimals,
    /// trailing zeros dropped; locale-independent.
    static func decimal(_ value: Double, significant: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        if value == 0 { return "0" }
        let magnitude = Int((log10(abs(value))).rounded(.down))
        let decimals = max(0, min(6, significant - 1 - magnitude))
        var text = Formatting.fixed(value, digits: decimals)
        // Values too large for fixed notation come back in exponent form: keep their zeros.
        if text.contains("."), !text.contains("e") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}
