import DrainReport
import DrainTrace

/// Numbers for people (HTML, Markdown, terminal): a unit chosen for the magnitude and a few
/// significant digits. Locale-independent, so the outputs stay deterministic.
public enum DisplayNumber {
    /// `12.35 J`, `850.0 mJ`, `42.0 µJ`.
    public static func joules(_ value: Double) -> String {
        let magnitude = abs(value)
        if magnitude >= 1 || magnitude == 0 || !value.isFinite { return Formatting.fixed(value, digits: 2) + " J" }
        if magnitude >= 0.001 { return Formatting.fixed(value * 1e3, digits: 1) + " mJ" }
        return Formatting.fixed(value * 1e6, digits: 1) + " µJ"
    }

    /// `412.3 mW`, `1.25 W`.
    public static func milliwatts(_ value: Double) -> String {
        abs(value) >= 1000 ? Formatting.fixed(value / 1000, digits: 2) + " W" : Formatting.fixed(value, digits: 1) + " mW"
    }

    /// `3.4 %`.
    public static func percent(_ value: Double, digits: Int = 1) -> String {
        Formatting.fixed(value, digits: digits) + " %"
    }

    /// A share in 0…1 as a percentage.
    static func share(_ value: Double) -> String { percent(value * 100) }

    /// `12.5 MB`.
    public static func bytes(_ value: Double) -> String { ByteFormat.string(value) }

    /// A 0–100 score as a whole number.
    static func score(_ value: Double) -> String { Formatting.fixed(value, digits: 0) }

    /// `2 s`, `0.25 s`, `113.4 s` (at most three decimals, trailing zeros dropped) below two
    /// minutes, then `4 min 05 s`, then `1 h 02 min`.
    public static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) >= 120 else {
            return MachineNumber.compact(seconds, digits: abs(seconds) < 10 ? 3 : 1) + " s"
        }
        let whole = Int(seconds.rounded())
        if whole < 3600 { return "\(whole / 60) min \(twoDigits(whole % 60)) s" }
        return "\(whole / 3600) h \(twoDigits(whole % 3600 / 60)) min"
    }

    /// A moment on the report's clock, seconds to the millisecond: `12.345 s`.
    static func time(_ seconds: Double) -> String { Formatting.fixed(seconds, digits: 3) + " s" }

    /// `12.000–15.500 s`.
    static func range(_ range: TimeRange) -> String {
        Formatting.fixed(range.startS, digits: 3) + "–" + Formatting.fixed(range.endS, digits: 3) + " s"
    }

    /// An evidence value with its unit, e.g. `0.25 s`, `12`, `1.05 MB`.
    static func evidence(_ evidence: Evidence) -> String {
        guard let value = evidence.value else { return evidence.text ?? "" }
        if evidence.unit == "B" || evidence.unit == "bytes" { return bytes(value) }
        let number = MachineNumber.compact(value)
        guard let unit = evidence.unit, !unit.isEmpty else { return number }
        return number + " " + unit
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
