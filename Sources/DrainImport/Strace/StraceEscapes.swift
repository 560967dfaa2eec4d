/// Undoes the escaping strace applies to the strings and paths it prints.
///
/// strace writes `\"` and `\\`, `\f \n \r \t \v`, other bytes outside printable ASCII as octal
/// (`\0`, `\33`, `\177`; always three digits when a digit follows) or, with `-x`/`-xx`, as
/// `\xHH`. In `-y` annotations it also escapes `<` and `>`. Decoding gives back the original
/// bytes, which may be any bytes at all: they are interned as they are, and every output
/// escapes them for its own syntax.
enum StraceEscapes {
    /// Appends the bytes `start..<end` stand for to `output`. A backslash before anything
    /// strace does not write is kept as it is. O(n).
    static func decode(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int, into output: inout [UInt8]) {
        var index = start
        while index < end {
            let byte = bytes[index]
            guard byte == ASCII.backslash, index + 1 < end else {
                output.append(byte)
                index += 1
                continue
            }
            let code = bytes[index + 1]
            switch code {
            case ASCII.quote, ASCII.backslash:
                output.append(code)
                index += 2
            case UInt8(ascii: "n"):
                output.append(0x0A)
                index += 2
            case UInt8(ascii: "t"):
                output.append(0x09)
                index += 2
            case UInt8(ascii: "r"):
                output.append(0x0D)
                index += 2
            case UInt8(ascii: "v"):
                output.append(0x0B)
                index += 2
            case UInt8(ascii: "f"):
                output.append(0x0C)
                index += 2
            case UInt8(ascii: "x"):
                if index + 3 < end, let high = ASCII.hexValue(bytes[index + 2]), let low = ASCII.hexValue(bytes[index + 3]) {
                    output.append(UInt8(high << 4 | low))
                    index += 4
                } else {
                    output.append(byte)
                    index += 1
                }
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value: UInt32 = 0
                var digits = 0
                var cursor = index + 1
                while digits < 3, cursor < end, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[cursor]) {
                    value = value << 3 | UInt32(bytes[cursor] - ASCII.zero)
                    digits += 1
                    cursor += 1
                }
                output.append(UInt8(truncatingIfNeeded: value))
                index = cursor
            default:
                output.append(byte)
                index += 1
            }
        }
    }

    /// Appends the content of the quoted string whose `"` is at `start`, up to its closing
    /// quote (a `...` after it, strace's mark of a string cut by `-s`, is left out).
    /// Returns false if no string starts at `start`.
    @discardableResult
    static func decodeString(_ bytes: UnsafeRawBufferPointer, at start: Int, to end: Int, into output: inout [UInt8]) -> Bool {
        guard start < end, bytes[start] == ASCII.quote else { return false }
        let stringEnd = StraceSyntax.stringEnd(bytes, from: start, to: end)
        let contentEnd = stringEnd > start + 1 && bytes[stringEnd - 1] == ASCII.quote ? stringEnd - 1 : stringEnd
        decode(bytes, from: start + 1, to: contentEnd, into: &output)
        return true
    }
}
