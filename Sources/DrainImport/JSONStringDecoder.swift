/// Decodes the text of JSON strings that hold escapes into UTF-8.
enum JSONStringDecoder {
    /// The text of a scanned string `span` of `bytes`: in place when it holds no escapes, else
    /// decoded into `scratch` after the `used` bytes already handed out (and `used` grows).
    /// The caller gives `scratch` room for every string of one scan. O(length).
    @inline(__always)
    static func text(
        of span: JSONSpan, in bytes: UnsafeRawBufferPointer, scratch: UnsafeMutablePointer<UInt8>, used: inout Int
    ) -> UnsafeRawBufferPointer {
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        guard span.hasEscapes else {
            return UnsafeRawBufferPointer(start: base + span.start, count: span.end - span.start)
        }
        let output = scratch + used
        let count = decode(base, from: span.start, to: span.end, into: output)
        used += count
        return UnsafeRawBufferPointer(start: output, count: count)
    }

    /// Decodes `bytes[start..<end]`, the text between a string's quotes already validated by
    /// `JSONScanner.scanString()`, into `output`, which must have room for `end - start`
    /// bytes (decoding never lengthens a string). Returns the number of bytes written.
    ///
    /// `\uXXXX` escapes become UTF-8; a surrogate pair becomes one scalar and a lone
    /// surrogate becomes U+FFFD. Other bytes are copied as they are (invalid UTF-8 is
    /// repaired later, when the string is read from the `StringTable`). O(length).
    static func decode(
        _ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int, into output: UnsafeMutablePointer<UInt8>
    ) -> Int {
        var index = start
        var written = 0
        while index < end {
            let byte = bytes[index]
            guard byte == ASCII.backslash else {
                output[written] = byte
                written += 1
                index += 1
                continue
            }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): output[written] = 0x08
            case UInt8(ascii: "f"): output[written] = 0x0C
            case UInt8(ascii: "n"): output[written] = 0x0A
            case UInt8(ascii: "r"): output[written] = 0x0D
            case UInt8(ascii: "t"): output[written] = 0x09
            case UInt8(ascii: "u"):
                var scalar = hex4(bytes, at: index)
                index += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    // A high surrogate pairs only with an immediately following low one.
                    if index + 6 <= end, bytes[index] == ASCII.backslash, bytes[index + 1] == UInt8(ascii: "u") {
                        let low = hex4(bytes, at: index + 2)
                        if (0xDC00...0xDFFF).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            index += 6
                        } else {
                            scalar = 0xFFFD
                        }
                    } else {
                        scalar = 0xFFFD
                    }
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    scalar = 0xFFFD
                }
                written += encodeUTF8(scalar, into: output + written)
                continue
            default:
                // `"`, `\` and `/` stand for themselves.
                output[written] = escape
            }
            written += 1
        }
        return written
    }

    private static func hex4(_ bytes: UnsafePointer<UInt8>, at index: Int) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 {
            value = value << 4 | (ASCII.hexValue(bytes[index + offset]) ?? 0)
        }
        return value
    }

    /// Writes a Unicode scalar value (not a surrogate) as UTF-8; returns its length.
    private static func encodeUTF8(_ scalar: UInt32, into output: UnsafeMutablePointer<UInt8>) -> Int {
        switch scalar {
        case 0..<0x80:
            output[0] = UInt8(scalar)
            return 1
        case 0x80..<0x800:
            output[0] = UInt8(0xC0 | scalar >> 6)
            output[1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case 0x800..<0x10000:
            output[0] = UInt8(0xE0 | scalar >> 12)
            output[1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            output[2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            output[0] = UInt8(0xF0 | scalar >> 18)
            output[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            output[2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            output[3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }
}
