/// Time on the timeline's clock: integer nanoseconds since the timeline origin.
public typealias Nanoseconds = Int64

public enum Clock {
    public static let nanosecondsPerSecond: Int64 = 1_000_000_000

    /// Converts seconds to nanoseconds, rounding to the nearest nanosecond.
    @inlinable
    public static func nanoseconds(_ seconds: Double) -> Nanoseconds {
        Nanoseconds((seconds * 1e9).rounded())
    }

    /// Converts nanoseconds to seconds.
    @inlinable
    public static func seconds(_ nanoseconds: Nanoseconds) -> Double {
        Double(nanoseconds) / 1e9
    }
}

/// Byte counts for readers (`1.5 MB`), decimal units as Apple's guidance uses them.
public enum ByteFormat {
    public static func string(_ bytes: Double) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = bytes
        var unit = 0
        while abs(value) >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        if unit == 0 { return "\(Int(value)) B" }
        return "\(Formatting.fixed(value, digits: value < 10 ? 2 : 1)) \(units[unit])"
    }
}

/// Locale-independent number formatting, so reports are byte-identical on every machine.
public enum Formatting {
    /// `value` with exactly `digits` digits after the point (no grouping, `.` as separator).
    public static func fixed(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let negative = value < 0 && scaled != 0
        guard scaled < 9.0e15 else { return "\(value)" }
        let integer = Int64(scaled)
        let whole = integer / Int64(scale)
        let fraction = integer % Int64(scale)
        var text = negative ? "-\(whole)" : "\(whole)"
        if digits > 0 {
            var fractionText = String(fraction)
            while fractionText.count < digits { fractionText = "0" + fractionText }
            text += "." + fractionText
        }
        return text
    }
}
