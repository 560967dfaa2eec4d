#if os(Linux)
/// Builds trace lines — JSON punctuation, integers, exact decimal seconds, escaped strings —
/// in a byte buffer that is reused from line to line, so formatting allocates nothing once
/// the buffer has grown to its working size.
struct JSONLine {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    var count: Int { bytes.count }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    mutating func raw(_ text: StaticString) {
        let start = text.utf8Start
        for index in 0..<text.utf8CodeUnitCount { bytes.append(start[index]) }
    }

    mutating func raw(_ other: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: other)
    }

    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    /// A decimal integer, with a `-` when negative.
    mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        unsigned(value.magnitude)
    }

    mutating func unsigned(_ value: UInt64) {
        var divisor: UInt64 = 1
        while value / divisor >= 10 { divisor *= 10 }
        var remaining = value
        while divisor > 0 {
            bytes.append(UInt8(truncatingIfNeeded: remaining / divisor) &+ UInt8(ascii: "0"))
            remaining %= divisor
            divisor /= 10
        }
    }

    /// `nanoseconds` (negative values as 0) as decimal seconds with as few decimals as
    /// exactness allows, at most nine: 1 500 000 000 → `1.5`, 1 → `0.000000001`. A reader
    /// converting the digits back gets the same integer.
    mutating func seconds(_ nanoseconds: Int64) {
        let value = UInt64(max(0, nanoseconds))
        unsigned(value / 1_000_000_000)
        var fraction = value % 1_000_000_000
        guard fraction != 0 else { return }
        bytes.append(UInt8(ascii: "."))
        var digits = 9
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        var divisor: UInt64 = 1
        for _ in 1..<digits { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(truncatingIfNeeded: fraction / divisor) &+ UInt8(ascii: "0"))
            fraction %= divisor
            divisor /= 10
        }
    }

    mutating func boolean(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// `value` as a JSON string: `"` and `\` escaped, control characters as `\n`, `\r`, `\t`
    /// or `\u00XX`, DEL as `\u007F`; everything else as its UTF-8 bytes.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 { escaped(byte) }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escaped(_ value: UInt8) {
        switch value {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"):
            bytes.append(UInt8(ascii: "\\"))
            bytes.append(value)
        case 0x0A: raw("\\n")
        case 0x0D: raw("\\r")
        case 0x09: raw("\\t")
        case 0..<0x20, 0x7F:
            raw("\\u00")
            bytes.append(Self.hexDigit(value >> 4))
            bytes.append(Self.hexDigit(value & 0x0F))
        default:
            bytes.append(value)
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") &+ value : UInt8(ascii: "A") &+ (value &- 10)
    }
}
#endif
