/// Escaping for report strings placed in GitHub-flavoured Markdown.
public enum Markdown {
    /// `text` as inert inline Markdown, safe in a paragraph, a heading, a list item or a table
    /// cell: the punctuation that could start emphasis, strikethrough, code, a link or image
    /// (`[`), a table cell, a heading or math (`$`) is backslash-escaped; `<`, `>` and `&` become character references so no raw
    /// HTML or entity reaches the renderer (GitHub renders HTML in Markdown); line breaks and
    /// other control characters become spaces, and stray and bidirectional controls U+FFFD,
    /// so the text stays on its line and in its order. O(n).
    ///
    /// Bare URLs and `www.` names may still be linked by GitHub's autolinker; they are shown
    /// as written, so no text can disguise where such a link goes.
    public static func escape(_ text: String) -> String {
        String.neutralizing(text) { scalar in
            switch scalar {
            case "\\", "`", "*", "_", "[", "]", "|", "~", "#", "$": "\\" + String(scalar)
            case "<": "&lt;"
            case ">": "&gt;"
            case "&": "&amp;"
            case "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}": " "
            default: nil
            }
        }
    }
}
