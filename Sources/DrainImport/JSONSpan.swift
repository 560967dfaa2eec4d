/// Where a scanned JSON value lies in its line, and what it is.
struct JSONSpan {
    enum Kind: UInt8 {
        case string, number, `true`, `false`, null, object, array

        /// "a string", "a number"…, for messages such as `"bytes" must be a number, found a string`.
        var description: String {
            switch self {
            case .string: "a string"
            case .number: "a number"
            case .true: "true"
            case .false: "false"
            case .null: "null"
            case .object: "an object"
            case .array: "an array"
            }
        }
    }

    /// Byte offsets in the line (lines are shorter than 2 GiB, see `LineReader`), kept in
    /// 32 bits so that a span fits in 24 bytes.
    private var start32: Int32
    private var end32: Int32
    /// For plain numbers (no sign, no exponent, at most 19 digits): the digits as one
    /// integer, so that the value is `digits / 10^fractionDigits`.
    var digits: UInt64 = 0
    var kind: Kind
    /// For strings: whether the text holds backslash escapes and must be decoded.
    var hasEscapes: Bool
    /// For plain numbers, how many of `digits` follow the point; -1 for other numbers
    /// and for other values.
    var fractionDigits: Int8 = -1

    /// Where the value starts; for strings, the text after the opening quote.
    var start: Int { Int(start32) }
    /// Where the value ends; for strings, the closing quote.
    var end: Int { Int(end32) }

    init(start: Int, end: Int, kind: Kind, hasEscapes: Bool) {
        self.start32 = Int32(truncatingIfNeeded: start)
        self.end32 = Int32(truncatingIfNeeded: end)
        self.kind = kind
        self.hasEscapes = hasEscapes
    }
}
