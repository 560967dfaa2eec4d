/// Escaping for the two places report strings go in an HTML page (the report page, and the
/// comparison page, which reuses it).
public enum HTML {
    /// `text` made safe for element content and for double- or single-quoted attribute
    /// values: `&`, `<`, `>`, `"` and `'` become character references; stray control
    /// characters and bidirectional controls become U+FFFD, so a name can neither carry
    /// invisible characters nor reorder the text shown around it. O(n).
    public static func escape(_ text: String) -> String {
        String.neutralizing(text) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&#39;"
            default: nil
            }
        }
    }

    /// JSON made safe inside `<script type="application/json">`: `<`, `>` and `&` become
    /// `\u003c`, `\u003e`, `\u0026`, so no `</script>` or `<!--` can appear, and U+2028 and
    /// U+2029 become `\u2028`, `\u2029` for old JavaScript parsers, and the stray and
    /// bidirectional controls that JSON leaves raw (DEL, C1, U+202E…) are escaped too so the
    /// page source holds none. These characters can only occur inside JSON strings, where
    /// the escapes mean the same characters, so the result is still the same JSON. O(n).
    public static func scriptJSON(_ json: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(json.unicodeScalars.count)
        for scalar in json.unicodeScalars {
            switch scalar {
            case "<": result += "\\u003c"
            case ">": result += "\\u003e"
            case "&": result += "\\u0026"
            case "\u{2028}": result += "\\u2028"
            case "\u{2029}": result += "\\u2029"
            default:
                if scalar.isStrayControl || scalar.isBidiControl {
                    result += "\\u" + hex4(scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// `value` as four lowercase hex digits (the scalars escaped here are all below U+10000).
    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
