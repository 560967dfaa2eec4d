extension String {
    /// The string with control characters written as `\u{…}` escapes, so that untrusted text
    /// (keys and sources of a user's model file) cannot move the cursor or recolour a terminal.
    var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: \.isControlCharacter) else { return self }
        var escaped = ""
        for scalar in unicodeScalars {
            if scalar.isControlCharacter {
                escaped += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

extension Unicode.Scalar {
    fileprivate var isControlCharacter: Bool {
        properties.generalCategory == .control || properties.generalCategory == .format
            || value == 0x2028 || value == 0x2029
    }
}

extension String {
    /// The string in quotes for an error message, escaped and cut to 60 characters.
    var quotedForMessage: String {
        let escaped = escapingControlCharacters.map { $0 == "\"" ? "\\\"" : String($0) }.joined()
        return "\"" + (escaped.count > 60 ? String(escaped.prefix(57)) + "..." : escaped) + "\""
    }
}
