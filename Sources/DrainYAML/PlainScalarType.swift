import Yams

/// What a plain (unquoted, untagged) YAML scalar reads as: the YAML 1.1 types Yams' default
/// resolver gives it (`true`/`yes`/`on` a bool; `12`, `0x1F`, `0o17`, `1:30` an int; `1.5`,
/// `1e3`, `.inf` a float), decided by the same patterns without regular expressions.
///
/// Yams' default resolver compiles its patterns with `NSRegularExpression`, whose first use
/// initialises ICU's regular-expression tables: 1.1 ms, plus a match per scalar and per key
/// hashed for the duplicate check — about half of loading a 6 KB device model, on every run
/// of `drain analyze`. Documents are therefore parsed with `Resolver.basic` (no patterns), and
/// the decoder asks this type instead. A test holds it to Yams' default resolver.
enum PlainScalarType: Equatable {
    case bool
    case int
    case float
    /// Text, null, or one of the types the decoder does not read (timestamp, merge, value).
    case other

    /// The type of a plain scalar whose text is `text`. O(text).
    init(_ text: String) {
        if Self.boolSpellings.contains(text) {
            self = .bool
            return
        }
        let bytes = Array(text.utf8)
        if Self.isInt(bytes[...]) {
            self = .int
        } else if Self.isFloat(bytes[...]) {
            self = .float
        } else {
            self = .other
        }
    }

    private static let boolSpellings: Set<String> = [
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON", "off",
        "Off", "OFF",
    ]

    private typealias Bytes = ArraySlice<UInt8>

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    private static func isDigitOrUnderscore(_ byte: UInt8) -> Bool { isDigit(byte) || byte == UInt8(ascii: "_") }
    private static func isSign(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") }

    /// `text` without a leading `+` or `-`.
    private static func unsigned(_ text: Bytes) -> Bytes {
        if let first = text.first, isSign(first) { return text.dropFirst() }
        return text
    }

    /// `^[-+]?(0b[01_]+ | 0o?[0-7_]+ | 0 | [1-9][0-9_]* | 0x[0-9a-fA-F_]+ | [1-9][0-9_]*(:[0-5]?[0-9])+)$`
    private static func isInt(_ text: Bytes) -> Bool {
        let body = unsigned(text)
        guard let first = body.first, isDigit(first) else { return false }
        if first == UInt8(ascii: "0") {
            let rest = body.dropFirst()
            if rest.isEmpty { return true }
            switch rest.first {
            case UInt8(ascii: "b"): return isRun(rest.dropFirst()) { $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: "1") || $0 == UInt8(ascii: "_") }
            case UInt8(ascii: "x"): return isRun(rest.dropFirst()) { $0.isHexDigit || $0 == UInt8(ascii: "_") }
            case UInt8(ascii: "o"): return isRun(rest.dropFirst(), isOctal)
            default: return isRun(rest, isOctal)
            }
        }
        guard let colon = body.firstIndex(of: UInt8(ascii: ":")) else { return body.allSatisfy(isDigitOrUnderscore) }
        return body[..<colon].allSatisfy(isDigitOrUnderscore) && isSexagesimalTail(body[colon...])
    }

    /// `^(?: [-+]?[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)? | \.[0-9_]+([eE][-+][0-9]+)?
    ///     | [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]* | [-+]?\.(inf|Inf|INF) | \.(nan|NaN|NAN) )$`
    private static func isFloat(_ text: Bytes) -> Bool {
        let body = unsigned(text)
        guard let first = body.first else { return false }
        if first == UInt8(ascii: ".") {
            let rest = body.dropFirst()
            if ["inf", "Inf", "INF"].contains(where: { rest.elementsEqual($0.utf8) }) { return true }
            guard body.count == text.count else { return false }
            if ["nan", "NaN", "NAN"].contains(where: { rest.elementsEqual($0.utf8) }) { return true }
            // `.5`, `._5e+3`: at least one digit or underscore, an exponent with its sign.
            let fraction = rest.prefix(while: isDigitOrUnderscore)
            guard !fraction.isEmpty else { return false }
            let exponent = rest[fraction.endIndex...]
            return exponent.isEmpty || isExponent(exponent, signRequired: true)
        }
        guard isDigit(first) else { return false }
        let whole = body.prefix(while: isDigitOrUnderscore)
        var rest = body[whole.endIndex...]
        if rest.first == UInt8(ascii: ":") {
            guard let point = rest.firstIndex(of: UInt8(ascii: ".")) else { return false }
            return isSexagesimalTail(rest[..<point]) && rest[(point + 1)...].allSatisfy(isDigitOrUnderscore)
        }
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            rest = rest[rest.prefix(while: isDigitOrUnderscore).endIndex...]
        }
        return rest.isEmpty || isExponent(rest, signRequired: false)
    }

    /// `[eE][-+]?[0-9]+` to the end (the sign required when `signRequired`).
    private static func isExponent(_ text: Bytes, signRequired: Bool) -> Bool {
        guard let first = text.first, first == UInt8(ascii: "e") || first == UInt8(ascii: "E") else { return false }
        var digits = text.dropFirst()
        if let sign = digits.first, isSign(sign) {
            digits = digits.dropFirst()
        } else if signRequired {
            return false
        }
        return !digits.isEmpty && digits.allSatisfy(isDigit)
    }

    /// `(:[0-5]?[0-9])+` to the end: one or more groups, each a colon and one digit, or two
    /// digits of which the first is at most 5.
    private static func isSexagesimalTail(_ text: Bytes) -> Bool {
        guard text.first == UInt8(ascii: ":") else { return false }
        for group in text.dropFirst().split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false) {
            switch group.count {
            case 1: guard isDigit(group[group.startIndex]) else { return false }
            case 2:
                let tens = group[group.startIndex]
                guard tens >= UInt8(ascii: "0"), tens <= UInt8(ascii: "5"), isDigit(group[group.startIndex + 1]) else { return false }
            default: return false
            }
        }
        return true
    }

    private static func isOctal(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "7")) || byte == UInt8(ascii: "_")
    }

    /// One or more bytes, each satisfying `predicate`.
    private static func isRun(_ text: Bytes, _ predicate: (UInt8) -> Bool) -> Bool {
        !text.isEmpty && text.allSatisfy(predicate)
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9")) || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f"))
            || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }
}
