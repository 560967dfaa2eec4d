extension HTTPMessageTable {
    /// Whether a `Content-Type` value names a text format: `text/*`, or a subtype naming JSON,
    /// XML, JavaScript or ECMAScript (`application/json`, `…+json`, `…+xml`,
    /// `application/javascript`…), parameters and case aside.
    public static func isPlainText(contentType: String) -> Bool {
        let media = trimmingSpaces(contentType.split(separator: ";", maxSplits: 1).first ?? "").lowercased()
        if media.hasPrefix("text/") { return true }
        guard let slash = media.firstIndex(of: "/") else { return false }
        let subtype = media[media.index(after: slash)...]
        return ["json", "xml", "javascript", "ecmascript"].contains { subtype.contains($0) }
    }

    /// Whether a `Content-Encoding` value is `identity` (no encoding), case and spaces aside.
    public static func isIdentity(encoding: String) -> Bool {
        trimmingSpaces(encoding[...]).lowercased() == "identity"
    }

    /// Without leading and trailing spaces and tabs (HTTP header whitespace).
    private static func trimmingSpaces(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }

    /// Whether a message head's `Content-Type` and `Content-Encoding` (string ids, 0 when
    /// absent) say its body, if it has one, is plain text sent uncompressed: a text type
    /// (`isPlainText`) with no encoding or `identity`. Each distinct value is read once.
    public struct PlainTextHeads {
        private var textTypes: [StringID: Bool] = [:]
        private var identityEncodings: [StringID: Bool] = [:]

        public init() {}

        /// O(1) for a value read before, else O(its length).
        public mutating func mayCarryPlainText(type: StringID, encoding: StringID, strings: StringTable) -> Bool {
            guard type != 0 else { return false }
            let text = textTypes[type] ?? HTTPMessageTable.isPlainText(contentType: strings[type])
            textTypes[type] = text
            guard text, encoding != 0 else { return text }
            let identity = identityEncodings[encoding] ?? HTTPMessageTable.isIdentity(encoding: strings[encoding])
            identityEncodings[encoding] = identity
            return identity
        }
    }
}
