/// Writes JSON text — punctuation, integers, exact decimals, escaped strings — straight
/// into memory, with no allocation: the one formatter of every Drain trace writer (the
/// probe, the recorder, the Drain trace export) and of the Chrome trace writer.
///
/// It does not check bounds: callers size the memory first, from the fixed length of
/// their text plus `bound(of:)` for each string and `numberBound` for each number.
/// `JSONLine` does that sizing for callers that append to a growable buffer.
public struct JSONFormatter {
    /// Where the text begins.
    public let start: UnsafeMutablePointer<UInt8>
    /// Where the next byte goes.
    @inlinable
    public var cursor: UnsafeMutablePointer<UInt8> { next }

    @usableFromInline
    var next: UnsafeMutablePointer<UInt8>

    @inlinable
    public init(_ start: UnsafeMutablePointer<UInt8>) {
        self.start = start
        next = start
    }

    /// The bytes written so far.
    @inlinable
    public var count: Int { cursor - start }

    /// The text written so far.
    @inlinable
    public var written: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: start, count: count) }

    /// The most bytes `integer(_:)`, `unsigned(_:)`, `seconds(_:)`, `decimal(_:fractionDigits:)`
    /// or `real(_:)` writes.
    public static let numberBound = 32

    /// Text that is already valid JSON, known at compile time.
    @inlinable @inline(__always)
    public mutating func raw(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        next.update(from: text.utf8Start, count: count)
        next += count
    }

    @inlinable @inline(__always)
    public mutating func byte(_ value: UInt8) {
        next.pointee = value
        next += 1
    }

    /// Copies bytes that are already valid JSON.
    @inlinable
    public mutating func raw(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        UnsafeMutableRawPointer(next).copyMemory(from: base, byteCount: bytes.count)
        next += bytes.count
    }

    /// A decimal integer, with a `-` when negative.
    @inlinable
    public mutating func integer(_ value: Int64) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        unsigned(value.magnitude)
    }

    /// A decimal integer. Digits are counted first and then written from the last one back,
    /// so nothing is reversed or copied.
    @inlinable
    public mutating func unsigned(_ value: UInt64) {
        var digits = 1
        var rest = value / 10
        while rest != 0 {
            digits += 1
            rest /= 10
        }
        var remaining = value
        var position = next + digits
        repeat {
            position -= 1
            position.pointee = UInt8(truncatingIfNeeded: remaining % 10) &+ UInt8(ascii: "0")
            remaining /= 10
        } while remaining != 0
        next += digits
    }

    /// `nanoseconds` (negative values as 0) as decimal seconds with as many decimals as it
    /// needs, at most nine: 1 500 000 000 → `1.5`, 1 → `0.000000001`, 2 000 000 000 → `2`.
    /// Exact: a reader converting the digits back to nanoseconds gets the same integer.
    @inlinable
    public mutating func seconds(_ nanoseconds: Int64) {
        fixedPoint(UInt64(max(0, nanoseconds)), fractionDigits: 9)
    }

    /// `value` / 10^`fractionDigits` (0 to 9 digits) exactly, without trailing zeros or
    /// exponent: `decimal(-1500, fractionDigits: 3)` → `-1.5`. Nanoseconds are microseconds
    /// with three decimals and seconds with nine.
    @inlinable
    public mutating func decimal(_ value: Int64, fractionDigits: Int) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        fixedPoint(value.magnitude, fractionDigits: fractionDigits)
    }

    @inlinable
    mutating func fixedPoint(_ value: UInt64, fractionDigits: Int) {
        var scale: UInt64 = 1
        for _ in 0..<fractionDigits { scale &*= 10 }
        let whole = value / scale
        unsigned(whole)
        // Below 10⁹, so 32-bit arithmetic, where dividing by 10 is cheapest.
        var fraction = UInt32(truncatingIfNeeded: value &- whole &* scale)
        guard fraction != 0 else { return }
        byte(UInt8(ascii: "."))
        var position = next + fractionDigits
        for _ in 0..<fractionDigits {
            position -= 1
            position.pointee = UInt8(truncatingIfNeeded: fraction % 10) &+ UInt8(ascii: "0")
            fraction /= 10
        }
        next += fractionDigits
        while (next - 1).pointee == UInt8(ascii: "0") { next -= 1 }
    }

    /// A finite double in the shortest form that reads back as the same value (Swift's
    /// `description`, which is valid JSON for finite values: `59.94`, `-1.0`, `1e-07`).
    /// Callers leave non-finite values out, since JSON has no NaN or infinity.
    public mutating func real(_ value: Double) {
        var text = value.description
        text.withUTF8 { raw(UnsafeRawBufferPointer($0)) }
    }

    @inlinable
    public mutating func boolean(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// A name known at compile time (an enum spelling), in quotes, unescaped.
    @inlinable @inline(__always)
    public mutating func quoted(_ name: StaticString) {
        byte(UInt8(ascii: "\""))
        raw(name)
        byte(UInt8(ascii: "\""))
    }
}
