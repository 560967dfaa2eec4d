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
    ///
    /// Works on the UTF-8 bytes: every pattern is ASCII, and no byte of a multi-byte
    /// character is a letter, digit or punctuation, so a character outside ASCII stays whole
    /// and separates words as it did as one scalar. Rules normalise a subject per distinct
    /// path or name, tens of thousands on a long capture.
    public static func normalize(_ subject: String) -> String {
        var text = Array(subject.utf8)
        if let cut = text.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            text.removeSubrange(cut...)
        }
        let blankOrSlash: (UInt8) -> Bool = { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        if text.contains(UInt8(ascii: ".")), !text.contains(where: blankOrSlash) {
            for index in text.indices where isUpper(text[index]) { text[index] += 32 }
        }
        var output: [UInt8] = []
        output.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            if let length = ipv6Length(text, at: index) {
                output.append(contentsOf: text[index..<index + length])
                index += length
            } else if let length = uuidLength(text, at: index) {
                output.append(contentsOf: "{uuid}".utf8)
                index += length
            } else if text[index] == UInt8(ascii: ":"), let length = portLength(text, at: index) {
                output.append(contentsOf: ":{port}".utf8)
                index += 1 + length
            } else if isAlphanumeric(text[index]) {
                var end = index
                while end < text.count, isAlphanumeric(text[end]) { end += 1 }
                appendWord(text[index..<end], to: &output)
                index = end
            } else {
                output.append(text[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// A word of letters and digits: a long number or a long hexadecimal id, or itself.
    private static func appendWord(_ word: ArraySlice<UInt8>, to output: inout [UInt8]) {
        var digits = 0
        var hexDigits = 0
        for byte in word {
            if isDigit(byte) { digits += 1 }
            if isHexDigit(byte) { hexDigits += 1 }
        }
        if word.count >= 4, digits == word.count {
            output.append(contentsOf: "{n}".utf8)
        } else if word.count >= 8, hexDigits == word.count, digits > 0 {
            output.append(contentsOf: "{hex}".utf8)
        } else {
            output.append(contentsOf: word)
        }
    }

    private static let uuidGroups = [8, 4, 4, 4, 12]

    /// The length of a UUID (8-4-4-4-12 hexadecimal digits) starting at `index` and not inside
    /// a longer word, or `nil`.
    private static func uuidLength(_ text: [UInt8], at index: Int) -> Int? {
        guard isHexDigit(text[index]), index == 0 || !isAlphanumeric(text[index - 1]) else { return nil }
        var position = index
        for (group, length) in uuidGroups.enumerated() {
            if group > 0 {
                guard position < text.count, text[position] == UInt8(ascii: "-") else { return nil }
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
    private static func ipv6Length(_ text: [UInt8], at index: Int) -> Int? {
        guard index == 0 || !isAlphanumeric(text[index - 1]) && text[index - 1] != UInt8(ascii: ":") else { return nil }
        var end = index
        var colons = 0
        while end < text.count, isHexDigit(text[end]) || text[end] == UInt8(ascii: ":") || text[end] == UInt8(ascii: ".") {
            if text[end] == UInt8(ascii: ":") { colons += 1 }
            end += 1
        }
        guard colons >= 2, end == text.count || !isAlphanumeric(text[end]) else { return nil }
        return end - index
    }

    /// The number of port digits after the `:` at `index`, when that colon separates a host
    /// name, an IPv4 address or a bracketed IPv6 address from a port; `nil` otherwise (an
    /// IPv6 address's own colons, a time of day).
    private static func portLength(_ text: [UInt8], at index: Int) -> Int? {
        var end = index + 1
        while end < text.count, isDigit(text[end]) { end += 1 }
        let length = end - index - 1
        guard (1...5).contains(length), end == text.count || !isAlphanumeric(text[end]) && text[end] != UInt8(ascii: ":") else {
            return nil
        }
        guard index > 0 else { return nil }
        if text[index - 1] == UInt8(ascii: "]") { return length }
        var start = index
        while start > 0, separatorLength(text, endingAt: start) == 0 { start -= 1 }
        let host = text[start..<index]
        guard !host.isEmpty, !host.contains(UInt8(ascii: ":")) else { return nil }
        guard host.contains(where: { $0 == UInt8(ascii: ".") || isLetter($0) }) else { return nil }
        return length
    }

    /// `→` in UTF-8: a separator of its own, as in `10.0.0.2:51234 → 93.184.216.34:443`.
    private static let arrow: [UInt8] = Array("\u{2192}".utf8)

    /// How many bytes of a separator end just before `end` (0 for none): space, `/`, `,`,
    /// `(`, `=`, `@`, `>` or `→`.
    private static func separatorLength(_ text: [UInt8], endingAt end: Int) -> Int {
        switch text[end - 1] {
        case UInt8(ascii: " "), UInt8(ascii: "/"), UInt8(ascii: ","), UInt8(ascii: "("), UInt8(ascii: "="), UInt8(ascii: "@"),
            UInt8(ascii: ">"):
            return 1
        case arrow[2] where end >= 3 && text[end - 3] == arrow[0] && text[end - 2] == arrow[1]: return 3
        default: return 0
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
    private static func isUpper(_ byte: UInt8) -> Bool { byte &- 0x41 < 26 }
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 }
    private static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || (byte | 0x20) &- 0x61 < 6 }
    private static func isAlphanumeric(_ byte: UInt8) -> Bool { isDigit(byte) || isLetter(byte) }
}
