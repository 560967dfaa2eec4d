import DrainTrace

/// Numbers for machine-read outputs (CSV): locale-independent, `.` as the decimal point, no
/// grouping, and a fixed number of decimals per kind of quantity so that the same report
/// always gives the same bytes. `docs/reports.md` lists the precision of every column.
public enum MachineNumber {
    /// Seconds to the millisecond.
    static func seconds(_ value: Double) -> String { Formatting.fixed(value, digits: 3) }

    /// Joules to the microjoule (a single wakeup costs well under a millijoule).
    static func joules(_ value: Double) -> String { Formatting.fixed(value, digits: 6) }

    /// Milliwatts to the microwatt.
    static func milliwatts(_ value: Double) -> String { Formatting.fixed(value, digits: 3) }

    /// Milliwatt-hours to the nanowatt-hour, the same resolution as `joules`.
    static func milliwattHours(_ value: Double) -> String { Formatting.fixed(value, digits: 6) }

    /// Percentages and 0–100 scores to a hundredth.
    static func percent(_ value: Double) -> String { Formatting.fixed(value, digits: 2) }

    /// Shares in 0…1 to four decimals (a hundredth of a percent).
    static func share(_ value: Double) -> String { Formatting.fixed(value, digits: 4) }

    /// Byte counts as whole numbers.
    static func bytes(_ value: Double) -> String { Formatting.fixed(value, digits: 0) }

    /// Values of unknown scale (evidence, thresholds): up to `digits` decimals with trailing
    /// zeros dropped, so `3` stays `3` and `0.25` stays `0.25`.
    public static func compact(_ value: Double, digits: Int = 6) -> String {
        let text = Formatting.fixed(value, digits: digits)
        guard value.isFinite, text.contains(".") else { return text }
        var trimmed = Substring(text)
        while trimmed.last == "0" { trimmed = trimmed.dropLast() }
        if trimmed.last == "." { trimmed = trimmed.dropLast() }
        return trimmed == "-0" ? "0" : String(trimmed)
    }
}
