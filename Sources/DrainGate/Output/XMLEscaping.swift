import DrainRender

/// Escaping for strings placed in an XML 1.0 document (the JUnit report).
enum XML {
    /// `text` made safe for element content, or for a double- or single-quoted attribute
    /// value when `attribute` is true: `&`, `<`, `>`, `"` and `'` become entity references (so
    /// no `]]>` or tag can appear); characters XML 1.0 forbids (C0 controls other than tab, LF
    /// and CR; U+FFFE and U+FFFF) and stray or bidirectional controls become U+FFFD. A CR, and
    /// in an attribute also LF and tab, becomes a character reference, since a parser would
    /// otherwise normalise it away (CR to LF in content, all three to a space in attributes).
    /// O(n).
    static func escape(_ text: String, attribute: Bool = false) -> String {
        String.neutralizing(text) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&apos;"
            case "\r": "&#13;"
            case "\n" where attribute: "&#10;"
            case "\t" where attribute: "&#9;"
            case "\u{FFFE}", "\u{FFFF}": "\u{FFFD}"
            default: nil
            }
        }
    }
}
