/// Text from an input file, a command line or the system (host names, paths, keys of a
/// user's YAML file) made safe to show in an error or diagnostic message.
///
/// Control characters, line and paragraph separators and invisible format characters (such
/// as right-to-left overrides) are written as `\uXXXX` escapes, so that the text cannot move
/// a terminal's cursor, recolour it, break a log line or reorder what a reader sees.
public enum UntrustedText {
    /// `text` in double quotes, with `"` and `\` escaped as `\"` and `\\`, every unsafe
    /// character as `\uXXXX` (a pair of UTF-16 escapes above U+FFFF), and cut after `limit`
    /// characters with `…` (no limit when `nil`). O(length).
    public static func quoted(_ text: String, limit: Int? = 60) -> String {
        var result = "\""
        var shown = 0
        for scalar in text.unicodeScalars {
            if shown == limit {
                result += "…"
                break
            }
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            default: append(scalar, to: &result)
            }
            shown += 1
        }
        return result + "\""
    }

    /// `text` with every unsafe character escaped as by `quoted`, but without quotes, without
    /// escaping quotes or backslashes and at full length: for names that are shown bare,
    /// such as the keys of a key path. O(length).
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = ""
        for scalar in text.unicodeScalars { append(scalar, to: &result) }
        return result
    }

    private static func append(_ scalar: Unicode.Scalar, to result: inout String) {
        guard isUnsafe(scalar) else {
            result.unicodeScalars.append(scalar)
            return
        }
        for unit in String(scalar).utf16 {
            let hex = String(unit, radix: 16, uppercase: true)
            result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }

    /// C0 and C1 controls, DEL, U+2028 and U+2029, and format characters (bidirectional
    /// overrides, zero-width characters).
    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029: true
        default: scalar.properties.generalCategory == .format
        }
    }
}
