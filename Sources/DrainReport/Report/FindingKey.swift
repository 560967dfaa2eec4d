/// Stable keys for findings: the rule id, then the finding's subject with what changes from
/// run to run taken out, so that the same problem matches across runs.
///
/// Normalisation, in order: the query string and fragment are cut (`/feed?page=2` →
/// `/feed`); UUIDs become `{uuid}`; a port after a host or an IPv4 address becomes `{port}`
/// (`10.0.0.2:51234` → `10.0.0.2:{port}`); IPv6 addresses are kept as they are; other
/// runs of 4 or more decimal digits become `{n}` and runs of 8 or more hexadecimal digits
/// holding a digit become `{hex}` (`Thread 12345` → `Thread {n}`,
/// `cache/3f9a2b1c77.db` → `cache/{hex}.db`); a host name (a subject with a `.` and without
/// `/` or blanks) is lower-cased, as DNS names are case-insensitive.
public enum FindingKey {
    /// `RULE-ID` for a finding about the whole run, else `RULE-ID:normalised subject`.
    public static func key(rule: String, subject: String?) -> String {
        guard let subject, !subject.isEmpty else { return rule }
        return rule + ":" + normalize(subject)
    }

    /// `subject` with its run-specific parts replaced; O(n).
    public static func normalize(_ subject: String) -> String {
        var text = Array(subject.unicodeScalars)
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text.removeSubrange(cut...) }
        if text.contains("."), !text.contains(where: { $0 == "/" || $0 == " " || $0 == "\t" }) {
            text = text.map { ("A"..."Z").contains($0) ? lowercased($0) : $0 }
        }
        var output = String.UnicodeScalarView()
        var index = 0
        while index < text.count {
            if let length = ipv6Length(text, at: index) {
                output.append(contentsOf: text[index..<index + length])
                index += length
            } else if let length = uuidLength(text, at: index) {
                output.append(contentsOf: "{uuid}".unicodeScalars)
                index += length
            } else if text[index] == ":", let length = portLength(text, at: index) {
                output.append(contentsOf: ":{port}".unicodeScalars)
                index += 1 + length
            } else if isAlphanumeric(text[index]) {
                var end = index
                while end < text.count, isAlphanumeric(text[end]) { end += 1 }
                output.append(contentsOf: normalizedWord(text[index..<end]))
                index = end
            } else {
                output.append(text[index])
                index += 1
            }
        }
        return String(output)
    }

    /// A word of letters and digits: a long number or a long hexadecimal id, or itself.
    private static func normalizedWord(_ word: ArraySlice<Unicode.Scalar>) -> [Unicode.Scalar] {
        if word.count >= 4, word.allSatisfy(isDigit) { return Array("{n}".unicodeScalars) }
        if word.count >= 8, word.allSatisfy(isHexDigit), word.contains(where: isDigit) { return Array("{hex}".unicodeScalars) }
        return Array(word)
    }

    /// The length of a UUID (8-4-4-4-12 hexadecimal digits) starting at `index` and not inside
    /// a longer word, or `nil`.
    private static func uuidLength(_ text: [Unicode.Scalar], at index: Int) -> Int? {
        guard index == 0 || !isAlphanumeric(text[index - 1]) else { return nil }
        var position = index
        for (group, length) in [8, 4, 4, 4, 12].enumerated() {
            if group > 0 {
                guard position < text.count, text[position] == "-" else { return nil }
                position += 1
            }
            for _ in 0..<length {
                guard position < text.count, isHexDigit(text[position]) else { return nil }
                position += 1
            }
        }
        guard position == text.count || !isAlphanumeric(text[position]) else { return nil }
        return position - index
    }

    /// The length of an IPv6 address (hexadecimal digits, colons and dots, with at least two
    /// colons) starting at `index` at the start of a word, or `nil`.
    private static func ipv6Length(_ text: [Unicode.Scalar], at index: Int) -> Int? {
        guard index == 0 || !isAlphanumeric(text[index - 1]) && text[index - 1] != ":" else { return nil }
        var end = index
        var colons = 0
        while end < text.count, isHexDigit(text[end]) || text[end] == ":" || text[end] == "." {
            if text[end] == ":" { colons += 1 }
            end += 1
        }
        guard colons >= 2, end == text.count || !isAlphanumeric(text[end]) else { return nil }
        return end - index
    }

    /// The number of port digits after the `:` at `index`, when that colon separates a host
    /// name, an IPv4 address or a bracketed IPv6 address from a port; `nil` otherwise (an
    /// IPv6 address's own colons, a time of day).
    private static func portLength(_ text: [Unicode.Scalar], at index: Int) -> Int? {
        var end = index + 1
        while end < text.count, isDigit(text[end]) { end += 1 }
        let length = end - index - 1
        guard (1...5).contains(length), end == text.count || !isAlphanumeric(text[end]) && text[end] != ":" else { return nil }
        guard index > 0 else { return nil }
        if text[index - 1] == "]" { return length }
        var start = index
        while start > 0, !isSeparator(text[start - 1]) { start -= 1 }
        let host = text[start..<index]
        guard !host.isEmpty, !host.contains(":"), host.contains(where: { $0 == "." || isLetter($0) }) else { return nil }
        return length
    }

    private static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "/" || scalar == "," || scalar == "(" || scalar == "=" || scalar == "@"
            || scalar == "\u{2192}" || scalar == ">"
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
    private static func isHexDigit(_ scalar: Unicode.Scalar) -> Bool {
        isDigit(scalar) || ("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)
    }
    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool { isDigit(scalar) || isLetter(scalar) }
    private static func lowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar { Unicode.Scalar(scalar.value + 32)! }
}
