import DrainRender

/// Escaping for strings placed in an XML 1.0 document (the JUnit report).
enum XML {
    /// `text` made safe for element content, or for a double- or single-quoted attribute
    /// value when `attribute` is true. First as for HTML (`HTML.escape`): `&`, `<`, `>`, `"`
    /// and `'` become references (so no tag or `]]>` can appear) and stray or bidirectional
    /// controls, among them every C0 control XML 1.0 forbids, become U+FFFD. Then what XML
    /// adds: U+FFFE and U+FFFF, also forbidden, become U+FFFD; a CR, and in an attribute also
    /// LF and tab, becomes a character reference, since a parser would otherwise normalise it
    /// away (CR to LF in content, all three to a space in attributes). O(n).
    static func escape(_ text: String, attribute: Bool = false) -> String {
        String.neutralizing(HTML.escape(text)) { scalar in
            switch scalar {
            case "\r": "&#13;"
            case "\n" where attribute: "&#10;"
            case "\t" where attribute: "&#9;"
            case "\u{FFFE}", "\u{FFFF}": "\u{FFFD}"
            default: nil
            }
        }
    }
}
