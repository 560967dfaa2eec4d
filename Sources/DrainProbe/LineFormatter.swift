/// Writes the pieces of a trace line — JSON punctuation, integers, decimal seconds,
/// escaped strings — straight into memory, with no allocation.
///
/// It does not check bounds: callers size the memory first, from the fixed length of
/// their event plus `bound(of:)` for each string.
struct LineFormatter {
    let start: UnsafeMutablePointer<UInt8>
    private(set) var cursor: UnsafeMutablePointer<UInt8>

    init(_ start: UnsafeMutablePointer<UInt8>) {
        self.start = start
        cursor = start
    }

    /// The bytes written so far.
    var count: Int { cursor - start }

    var written: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: start, count: count) }

    /// The most bytes `string(_:)` writes for `value`: quotes, plus six bytes (`\u001F`)
    /// for each UTF-8 byte in the worst case. O(1) for native strings.
    static func bound(of value: String) -> Int { 2 + 6 * value.utf8.count }

    /// The most bytes `integer(_:)`, `seconds(_:)` or `real(_:)` writes.
    static let numberBound = 32

    @inline(__always)
    mutating func raw(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        cursor.update(from: text.utf8Start, count: count)
        cursor += count
    }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        cursor.pointee = value
        cursor += 1
    }

    /// Copies bytes that are already valid JSON.
    mutating func raw(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        UnsafeMutableRawPointer(cursor).copyMemory(from: base, byteCount: bytes.count)
        cursor += bytes.count
    }

    /// A decimal integer, with a `-` when negative.
    mutating func integer(_ value: Int64) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        unsigned(value.magnitude)
    }

    mutating func unsigned(_ value: UInt64) {
        var digits = 1
        var rest = value / 10
        while rest != 0 {
            digits += 1
            rest /= 10
        }
        var remaining = value
        var position = cursor + digits
        repeat {
            position -= 1
            position.pointee = UInt8(truncatingIfNeeded: remaining % 10) &+ UInt8(ascii: "0")
            remaining /= 10
        } while remaining != 0
        cursor += digits
    }

    /// `nanoseconds` (≥ 0) as decimal seconds with as many decimals as it needs, at most
    /// nine: 1 500 000 000 → `1.5`, 1 → `0.000000001`, 2 000 000 000 → `2`. Exact: a reader
    /// converting the digits back to nanoseconds gets the same integer.
    mutating func seconds(_ nanoseconds: Int64) {
        let value = UInt64(max(0, nanoseconds))
        let whole = value / 1_000_000_000
        unsigned(whole)
        // Below 10⁹, so 32-bit arithmetic, where dividing by 10 is cheapest.
        var fraction = UInt32(truncatingIfNeeded: value &- whole &* 1_000_000_000)
        guard fraction != 0 else { return }
        byte(UInt8(ascii: "."))
        var position = cursor + 9
        for _ in 0..<9 {
            position -= 1
            position.pointee = UInt8(truncatingIfNeeded: fraction % 10) &+ UInt8(ascii: "0")
            fraction /= 10
        }
        cursor += 9
        while (cursor - 1).pointee == UInt8(ascii: "0") { cursor -= 1 }
    }

    /// A finite double in the shortest form that reads back as the same value (Swift's
    /// `description`, which is valid JSON for finite values: `59.94`, `-1.0`, `1e-07`).
    /// Callers leave non-finite values out, since JSON has no NaN or infinity.
    mutating func real(_ value: Double) {
        var text = value.description
        text.withUTF8 { raw(UnsafeRawBufferPointer($0)) }
    }

    mutating func boolean(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// `value` as a JSON string: `"` and `\` escaped, control characters below U+0020 as
    /// `\n`, `\r`, `\t` or `\u00XX`; everything else, including non-ASCII, as its UTF-8 bytes.
    mutating func string(_ value: String) {
        byte(UInt8(ascii: "\""))
        let copied: Void? = value.utf8.withContiguousStorageIfAvailable { escaped($0) }
        if copied == nil {
            for byte in value.utf8 { escaped(byte) }
        }
        byte(UInt8(ascii: "\""))
    }

    /// Copies runs of bytes that need no escape whole, escaping the bytes between them.
    private mutating func escaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        var runStart = 0
        for index in 0..<bytes.count where Self.needsEscape(bytes[index]) {
            copy(base + runStart, count: index - runStart)
            escaped(bytes[index])
            runStart = index + 1
        }
        copy(base + runStart, count: bytes.count - runStart)
    }

    @inline(__always)
    private mutating func copy(_ source: UnsafePointer<UInt8>, count: Int) {
        guard count > 0 else { return }
        cursor.update(from: source, count: count)
        cursor += count
    }

    @inline(__always)
    private static func needsEscape(_ value: UInt8) -> Bool {
        value < 0x20 || value == UInt8(ascii: "\"") || value == UInt8(ascii: "\\")
    }

    @inline(__always)
    private mutating func escaped(_ value: UInt8) {
        guard Self.needsEscape(value) else {
            byte(value)
            return
        }
        byte(UInt8(ascii: "\\"))
        switch value {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): byte(value)
        case 0x0A: byte(UInt8(ascii: "n"))
        case 0x0D: byte(UInt8(ascii: "r"))
        case 0x09: byte(UInt8(ascii: "t"))
        default:
            raw("u00")
            byte(Self.hexDigit(value >> 4))
            byte(Self.hexDigit(value & 0x0F))
        }
    }

    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") &+ value : UInt8(ascii: "A") &+ (value &- 10)
    }
}

extension LineFormatter {
    /// `bound(of:)` for an optional string: 0 when absent.
    static func bound(of value: String?) -> Int {
        guard let value else { return 0 }
        return bound(of: value)
    }

    /// A name known at compile time (an enum value), in quotes.
    @inline(__always)
    mutating func quoted(_ name: StaticString) {
        byte(UInt8(ascii: "\""))
        raw(name)
        byte(UInt8(ascii: "\""))
    }

    /// `key` (e.g. `,"host":`) and the string, when there is one.
    @inline(__always)
    mutating func optional(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        raw(key)
        string(value)
    }
}
