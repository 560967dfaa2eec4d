extension Unicode.Scalar {
    /// The bidirectional embedding, override and isolate controls and the direction marks
    /// (U+200E, U+200F, U+202A–U+202E, U+2066–U+2069): in a host or file name they could
    /// reorder how the text around them is displayed.
    var isBidiControl: Bool {
        switch value {
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// C0 controls other than tab, LF and CR; DEL; and C1 controls: characters that have no
    /// business in a report and that some viewers act on.
    var isStrayControl: Bool {
        switch value {
        case 0x09, 0x0A, 0x0D: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }
}

extension String {
    /// `text` with each scalar for which `replacement` gives a string replaced by it, stray
    /// and bidirectional controls replaced by U+FFFD, and every other scalar kept: the shape
    /// that every escaping of untrusted report text shares. O(n).
    public static func neutralizing(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) {
                result += replaced
            } else if scalar.isStrayControl || scalar.isBidiControl {
                result += "\u{FFFD}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
