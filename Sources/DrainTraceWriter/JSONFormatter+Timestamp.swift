extension JSONFormatter {
    /// The most bytes `timestamp(nanosecondsSinceEpoch:)` writes.
    public static let timestampBound = 40

    /// An RFC 3339 date-time in UTC with nanoseconds, unquoted:
    /// `2026-11-22T10:00:00.123456789Z`. Years below 1000 get leading zeros, years before
    /// 1 a minus sign. O(1).
    public mutating func timestamp(nanosecondsSinceEpoch: Int64) {
        let (seconds, nanoseconds) = Self.floorDivide(nanosecondsSinceEpoch, 1_000_000_000)
        let (days, secondOfDay) = Self.floorDivide(seconds, 86_400)
        let date = CivilDate(daysSinceEpoch: days)
        if date.year < 0 { byte(UInt8(ascii: "-")) }
        padded(UInt64(date.year.magnitude), digits: 4)
        byte(UInt8(ascii: "-"))
        padded(UInt64(date.month), digits: 2)
        byte(UInt8(ascii: "-"))
        padded(UInt64(date.day), digits: 2)
        byte(UInt8(ascii: "T"))
        padded(UInt64(secondOfDay / 3600), digits: 2)
        byte(UInt8(ascii: ":"))
        padded(UInt64(secondOfDay / 60 % 60), digits: 2)
        byte(UInt8(ascii: ":"))
        padded(UInt64(secondOfDay % 60), digits: 2)
        byte(UInt8(ascii: "."))
        padded(UInt64(nanoseconds), digits: 9)
        byte(UInt8(ascii: "Z"))
    }

    /// `value` with leading zeros to at least `digits` digits.
    private mutating func padded(_ value: UInt64, digits: Int) {
        var width = 1
        var rest = value / 10
        while rest != 0 {
            width += 1
            rest /= 10
        }
        for _ in width..<max(width, digits) { byte(UInt8(ascii: "0")) }
        unsigned(value)
    }

    /// Quotient rounded down and a remainder that is never negative.
    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
