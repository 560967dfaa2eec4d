/// Text for a terminal: untrusted strings neutralised, ANSI styles applied only on request.
public enum TerminalText {
    /// `text` with every character that could act on the terminal replaced: line and
    /// paragraph breaks and tabs become spaces; other C0 controls (ESC among them), DEL, C1
    /// controls (CSI among them) and bidirectional overrides become U+FFFD. So a hostile
    /// capture can neither move the cursor, recolour the terminal nor reorder what is shown.
    /// O(n).
    public static func sanitize(_ text: String) -> String {
        String.neutralizing(text) { scalar in
            switch scalar.value {
            case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: " "
            default: nil
            }
        }
    }

    /// `text` cut to `width` characters, the last one an ellipsis when cut.
    static func truncate(_ text: String, to width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String(text.prefix(max(width, 0))) }
        return String(text.prefix(width - 1)) + "…"
    }

    /// `text` padded with spaces to `width` characters (never cut).
    static func pad(_ text: String, to width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// `text` wrapped in the SGR sequence `code` when `enabled`.
    public static func style(_ text: String, _ code: String, enabled: Bool) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
