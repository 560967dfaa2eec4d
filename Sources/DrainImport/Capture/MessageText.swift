/// Untrusted capture text (interface names) made safe for a diagnostic or error message:
/// quoted, control and line-breaking characters escaped, cut to 60 characters.
enum MessageText {
    static func quoted(_ text: String) -> String {
        var result = "\""
        var shown = 0
        for scalar in text.unicodeScalars {
            if shown == 60 {
                result += "…"
                break
            }
            switch scalar.value {
            case 0x22: result += "\\\""
            case 0x5C: result += "\\\\"
            case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029:
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: result.unicodeScalars.append(scalar)
            }
            shown += 1
        }
        return result + "\""
    }
}
