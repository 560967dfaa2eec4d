/// Untrusted input text made safe to show in a diagnostic or an error message: quoted,
/// invalid UTF-8 repaired, control and line-breaking characters escaped, and shortened.
enum QuotedText {
    static func quote(_ bytes: UnsafeRawBufferPointer, limit: Int = 60) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        var result = "\""
        var shown = 0
        for scalar in text.unicodeScalars {
            if shown == limit {
                result += "…"
                break
            }
            switch scalar.value {
            case 0x22: result += "\\\""
            case 0x5C: result += "\\\\"
            case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
            shown += 1
        }
        return result + "\""
    }
}
