#if os(Linux)
import DrainTrace

/// The sampling interval, written `20ms`, `0.5s`, `1s`, `500us` or a bare number of seconds.
public enum RecordInterval {
    public static let defaultInterval: Nanoseconds = 20_000_000
    public static let minimum: Nanoseconds = 1_000_000
    public static let maximum: Nanoseconds = 10_000_000_000

    /// Parses a duration into nanoseconds, checking it is within 1 ms … 10 s.
    ///
    /// - Throws: `RecordError.usage` naming the text and the accepted forms.
    public static func parse(_ text: String) throws(RecordError) -> Nanoseconds {
        let units: [(suffix: String, nanoseconds: Int64)] = [("ms", 1_000_000), ("us", 1_000), ("µs", 1_000), ("s", 1_000_000_000)]
        var number = Substring(text)
        var scale: Int64 = 1_000_000_000
        for unit in units where text.hasSuffix(unit.suffix) {
            number = text.dropLast(unit.suffix.count)
            scale = unit.nanoseconds
            break
        }
        guard let nanoseconds = exact(number, scale: scale) else {
            throw .usage("--interval '\(text.debugDescription.dropFirst().dropLast())' is not a duration (e.g. 20ms, 0.5s, 1s)")
        }
        guard nanoseconds >= minimum, nanoseconds <= maximum else {
            throw .usage("--interval \(text) is out of range: between 1ms and 10s")
        }
        return nanoseconds
    }

    /// `digits[.digits]` × scale, exactly, to the nanosecond; nil for anything else.
    private static func exact(_ text: Substring, scale: Int64) -> Int64? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let wholeText = parts.first, !wholeText.isEmpty || parts.count == 2, wholeText.count <= 12,
            wholeText.allSatisfy(\.isASCIIDigit)
        else { return nil }
        var value = (Int64(wholeText) ?? 0) * scale
        if parts.count == 2 {
            let fraction = parts[1]
            guard !fraction.isEmpty, fraction.count <= 12, fraction.allSatisfy(\.isASCIIDigit) else { return nil }
            var place = scale
            for digit in fraction {
                place /= 10
                value += Int64(digit.asciiValue! - 48) * place
            }
        }
        return value
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
#endif
