/// How a JSON string is escaped beyond what JSON requires.
public enum JSONStringStyle: Sendable {
    /// `"`, `\`, control characters below U+0020 and DEL (U+007F) escaped; everything else
    /// as its UTF-8 bytes. Drain traces.
    case standard
    /// Also U+2028 and U+2029, which end a line in JavaScript before ES2019, so the text is
    /// safe inside a script too. Chrome traces.
    case scriptSafe
}

extension JSONFormatter {
    /// The most bytes `string(_:)` writes for `value`: quotes, plus six bytes (`\u001F`)
    /// for each UTF-8 byte in the worst case. O(1) for native strings.
    @inlinable
    public static func bound(of value: String) -> Int { 2 + 6 * value.utf8.count }

    /// `bound(of:)` for an optional string: 0 when absent.
    @inlinable
    public static func bound(of value: String?) -> Int {
        guard let value else { return 0 }
        return bound(of: value)
    }

    /// `value` as a JSON string: `"` and `\` escaped, control characters as `\n`, `\r`, `\t`
    /// or `\u00XX` (upper-case hex), DEL as `\u007F`, and for `.scriptSafe` U+2028 and
    /// U+2029 as `\u2028` and `\u2029`; everything else as its UTF-8 bytes. Runs of bytes
    /// that need no escape are copied whole. O(UTF-8 length).
    @inlinable
    public mutating func string(_ value: String, style: JSONStringStyle = .standard) {
        byte(UInt8(ascii: "\""))
        let copied: Void? = value.utf8.withContiguousStorageIfAvailable { escaped($0, style: style) }
        if copied == nil {
            var copy = value
            copy.withUTF8 { escaped($0, style: style) }
        }
        byte(UInt8(ascii: "\""))
    }

    /// `key` (e.g. `,"host":`) and the string, when there is one.
    @inlinable @inline(__always)
    public mutating func optional(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        raw(key)
        string(value)
    }

    @inlinable
    mutating func escaped(_ bytes: UnsafeBufferPointer<UInt8>, style: JSONStringStyle) {
        guard let base = bytes.baseAddress else { return }
        var runStart = 0
        var index = 0
        while index < bytes.count {
            let value = bytes[index]
            if Self.needsEscape(value) {
                copy(base + runStart, count: index - runStart)
                escaped(value)
                runStart = index + 1
            } else if value == 0xE2, style == .scriptSafe, index + 2 < bytes.count, bytes[index + 1] == 0x80,
                bytes[index + 2] & 0xFE == 0xA8 {
                // U+2028 (E2 80 A8) or U+2029 (E2 80 A9).
                copy(base + runStart, count: index - runStart)
                raw("\\u202")
                byte(bytes[index + 2] == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9"))
                index += 2
                runStart = index + 1
            }
            index += 1
        }
        copy(base + runStart, count: bytes.count - runStart)
    }

    @inlinable @inline(__always)
    mutating func copy(_ source: UnsafePointer<UInt8>, count: Int) {
        guard count > 0 else { return }
        next.update(from: source, count: count)
        next += count
    }

    @inlinable @inline(__always)
    static func needsEscape(_ value: UInt8) -> Bool {
        value < 0x20 || value == UInt8(ascii: "\"") || value == UInt8(ascii: "\\") || value == 0x7F
    }

    @inlinable
    mutating func escaped(_ value: UInt8) {
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

    @inlinable @inline(__always)
    static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") &+ value : UInt8(ascii: "A") &+ (value &- 10)
    }
}
