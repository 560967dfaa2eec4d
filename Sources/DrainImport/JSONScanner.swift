/// A cursor over the bytes of one line that recognises the JSON grammar (RFC 8259).
///
/// It validates and measures values without building them: strings come back as spans
/// (decoded later only if they hold escapes), numbers as spans, containers are skipped.
/// Nothing is allocated unless a line is rejected. Every read is bounds-checked against
/// `count`, so hostile input cannot read past the line.
struct JSONScanner {
    /// The line's bytes; `UnsafeBufferPointer` since an empty line may have no address.
    let bytes: UnsafeBufferPointer<UInt8>
    let count: Int
    var position: Int

    /// Objects and arrays nested deeper than this are rejected, which bounds recursion.
    static var maximumDepth: Int { 512 }

    init(_ line: UnsafeRawBufferPointer, from start: Int = 0) {
        self.bytes = line.assumingMemoryBound(to: UInt8.self)
        self.count = line.count
        self.position = start
    }

    @inline(__always)
    var isAtEnd: Bool { position >= count }

    /// The byte at the cursor; only valid when not at the end.
    @inline(__always)
    var current: UInt8 { bytes[position] }

    @inline(__always)
    mutating func skipWhitespace() {
        while position < count {
            switch bytes[position] {
            case ASCII.space, ASCII.tab, ASCII.carriageReturn, ASCII.newline: position += 1
            default: return
            }
        }
    }

    /// Moves the cursor past any whitespace and returns the byte there, or nil at the end.
    /// Traces rarely hold whitespace between tokens, so one comparison usually settles it.
    @inline(__always)
    mutating func nextSignificant() -> UInt8? {
        // Every JSON whitespace byte is at most 0x20.
        if position < count, bytes[position] > ASCII.space { return bytes[position] }
        skipWhitespace()
        return position < count ? bytes[position] : nil
    }

    /// An error at `offset`; one at the end of the line is marked as a possible cut-off.
    func error(at offset: Int, _ message: String) -> LineError {
        LineError(at: offset, message, cutOff: offset >= count)
    }

    /// An error at the cursor that says what was expected and what was found instead.
    func expected(_ what: String) -> LineError {
        error(at: position, "expected \(what), found \(describeCurrent())")
    }

    /// Describes the byte at the cursor for an error message.
    func describeCurrent() -> String {
        position < count ? ASCII.describe(bytes[position]) : "the end of the line"
    }

    /// Consumes `byte` or fails with "expected `what`".
    @inline(__always)
    mutating func expect(_ byte: UInt8, _ what: @autoclosure () -> String) throws(LineError) {
        guard position < count, bytes[position] == byte else { throw expected(what()) }
        position += 1
    }

    // MARK: Strings

    /// Scans a string whose opening quote is at the cursor, validating its escapes, and
    /// leaves the cursor after the closing quote. Returns the span between the quotes.
    /// Plain text is skipped eight bytes at a time.
    @inline(__always)
    mutating func scanString() throws(LineError) -> JSONSpan {
        let start = position + 1
        var index = start
        var escaped = false
        while true {
            while index + 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self))
                let special = Self.specialStringBytes(word)
                if special != 0 {
                    index += special.trailingZeroBitCount >> 3
                    break
                }
                index += 8
            }
            guard index < count else {
                throw error(at: index, "the line ends inside a string (missing closing '\"')")
            }
            let byte = bytes[index]
            if byte == ASCII.quote { break }
            if byte == ASCII.backslash {
                index = try scanEscape(at: index)
                escaped = true
                continue
            }
            if byte < 0x20 {
                throw error(at: index, "control character \(ASCII.describe(byte)) inside a string must be escaped")
            }
            index += 1
        }
        position = index + 1
        return JSONSpan(start: start, end: index, kind: .string, hasEscapes: escaped)
    }

    /// Scans a string at the cursor if it is shorter than 8 bytes and has no escapes, as field
    /// names nearly always are, and returns it packed, with the cursor after it; returns nil
    /// and leaves the cursor alone otherwise. One word load: the 8 bytes after the opening
    /// quote must be readable, which the padding after every `Line` allows. Since the line
    /// ends in a newline or zero padding, both control characters, no quote past its end is
    /// ever taken for the closing one.
    @inline(__always)
    mutating func scanShortPlainString() -> PackedName? {
        let start = position + 1
        let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + start).loadUnaligned(as: UInt64.self))
        let special = Self.specialStringBytes(word)
        guard special != 0 else { return nil }
        let length = special.trailingZeroBitCount >> 3
        guard (word &>> UInt64(length * 8)) & 0xFF == UInt64(ASCII.quote), start + length < count else { return nil }
        position = start + length + 1
        return PackedName(length: length, words: (word & PackedName.mask(keeping: length), 0, 0))
    }

    /// The high bit of each byte of `word` (8 bytes, little-endian) that ends plain string
    /// text: `"`, `\\` or a control character. Only the lowest set bit is exact (borrows
    /// can mark bytes after it), which is all a scan needs.
    @inline(__always)
    static func specialStringBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* UInt64(ASCII.quote))
        let backslashes = word ^ (ones &* UInt64(ASCII.backslash))
        let zeroQuote = (quotes &- ones) & ~quotes
        let zeroBackslash = (backslashes &- ones) & ~backslashes
        let control = (word &- ones &* 0x20) & ~word
        return (zeroQuote | zeroBackslash | control) & (ones &* 0x80)
    }

    /// Validates the escape whose backslash is at `index`; returns the index after it.
    private func scanEscape(at index: Int) throws(LineError) -> Int {
        let next = index + 1
        guard next < count else { throw error(at: next, "the line ends inside an escape sequence") }
        switch bytes[next] {
        case ASCII.quote, ASCII.backslash, ASCII.slash, UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return next + 1
        case UInt8(ascii: "u"):
            for digit in next + 1..<next + 5 {
                guard digit < count else { throw error(at: digit, "the line ends inside a \\u escape") }
                guard ASCII.hexValue(bytes[digit]) != nil else {
                    throw error(at: digit, "invalid \\u escape: expected 4 hexadecimal digits")
                }
            }
            return next + 5
        default:
            throw error(at: index, "invalid escape inside a string: '\\' followed by \(ASCII.describe(bytes[next]))")
        }
    }

    // MARK: Numbers

    /// Scans a number starting at the cursor by the JSON grammar
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    ///
    /// While validating, it also reads a plain number (no sign, no exponent, at most 19
    /// digits, as in nearly every trace) into `JSONSpan.digits` and `fractionDigits`, so
    /// that its value costs nothing more later.
    @inline(__always)
    mutating func scanNumber() throws(LineError) -> JSONSpan {
        let start = position
        var index = position
        var isPlain = true
        if bytes[index] == ASCII.minus {
            index += 1
            isPlain = false
        }
        guard index < count, ASCII.isDigit(bytes[index]) else {
            throw error(at: index, "invalid number: expected a digit after '-'")
        }
        var digits: UInt64 = 0
        var digitCount = 0
        if bytes[index] == ASCII.zero {
            index += 1
            digitCount = 1
            if index < count, ASCII.isDigit(bytes[index]) {
                throw error(at: start, "invalid number: a number must not start with 0 followed by digits")
            }
        } else {
            digitCount = scanDigits(&index, into: &digits)
        }
        var fractionDigits = 0
        if index < count, bytes[index] == ASCII.dot {
            index += 1
            fractionDigits = scanDigits(&index, into: &digits)
            guard fractionDigits > 0 else {
                throw error(at: index, "invalid number: expected a digit after '.'")
            }
            digitCount += fractionDigits
        }
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isPlain = false
            index += 1
            if index < count, bytes[index] == ASCII.plus || bytes[index] == ASCII.minus { index += 1 }
            guard index < count, ASCII.isDigit(bytes[index]) else {
                throw error(at: index, "invalid number: expected a digit in the exponent")
            }
            while index < count, ASCII.isDigit(bytes[index]) { index += 1 }
        }
        position = index
        var span = JSONSpan(start: start, end: index, kind: .number, hasEscapes: false)
        // Up to 19 digits cannot overflow a UInt64.
        if isPlain && digitCount <= 19 {
            span.digits = digits
            span.fractionDigits = Int8(fractionDigits)
        }
        return span
    }

    /// Scans a number at the cursor if it is plain and short, as trace numbers nearly always
    /// are: 1 to 7 integer digits (no leading zero unless alone), optionally a point and 1
    /// to 7 more, no sign, no exponent. Returns nil and leaves the cursor alone otherwise,
    /// for `scanNumber()` to handle. Two word loads, as in `scanDigits`.
    @inline(__always)
    mutating func scanShortPlainNumber() -> JSONSpan? {
        let start = position
        let base = UnsafeRawPointer(bytes.baseAddress!)
        let integerWord = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: start, as: UInt64.self))
        let integerCount = Self.leadingDigitCount(integerWord)
        guard integerCount > 0, integerCount < 8, integerCount == 1 || integerWord & 0xFF != UInt64(ASCII.zero) else {
            return nil
        }
        var end = start + integerCount
        var digits = Self.valueOfDigits(integerWord, count: integerCount)
        var fractionCount = 0
        var next = (integerWord &>> UInt64(integerCount * 8)) & 0xFF
        if next == UInt64(ASCII.dot) {
            let fractionWord = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: end + 1, as: UInt64.self))
            fractionCount = Self.leadingDigitCount(fractionWord)
            guard fractionCount > 0, fractionCount < 8 else { return nil }
            digits = digits &* DecimalNumber.powerOfTen(fractionCount) &+ Self.valueOfDigits(fractionWord, count: fractionCount)
            end += 1 + fractionCount
            next = (fractionWord &>> UInt64(fractionCount * 8)) & 0xFF
        }
        guard next | 0x20 != UInt64(UInt8(ascii: "e")), end <= count else { return nil }
        position = end
        var span = JSONSpan(start: start, end: end, kind: .number, hasEscapes: false)
        span.digits = digits
        span.fractionDigits = Int8(truncatingIfNeeded: fractionCount)
        return span
    }

    /// Skips the run of digits at `index` and appends their value to `value` (wrapping past
    /// 19 digits); returns how many there were. Eight digits at a time: the bytes after a
    /// number are always readable (the line's closing characters, its newline or padding)
    /// and never digits of something else, since the line ends in a newline or padding.
    @inline(__always)
    private func scanDigits(_ index: inout Int, into value: inout UInt64) -> Int {
        let start = index
        while index < count {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self))
            let run = Self.leadingDigitCount(word)
            guard run > 0 else { break }
            value = value &* DecimalNumber.powerOfTen(run) &+ Self.valueOfDigits(word, count: run)
            index += run
            if run < 8 { break }
        }
        // A run cannot extend past the line: the byte after it is never a digit.
        index = min(index, count)
        return index - start
    }

    /// How many of the 8 bytes of `word` (little-endian), from the first, are ASCII digits.
    @inline(__always)
    static func leadingDigitCount(_ word: UInt64) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        // Digits become 0x00…0x09, whose high nibble stays 0 even after adding 6; any other
        // byte has a high nibble set in one of the two. A carry out of a non-digit byte can
        // only mark bytes after it, which do not count anyway.
        let offset = word ^ (ones &* 0x30)
        let nonDigits = (offset | (offset &+ ones &* 0x06)) & (ones &* 0xF0)
        return nonDigits == 0 ? 8 : nonDigits.trailingZeroBitCount >> 3
    }

    /// The value of the first `count` (1…8) bytes of `word`, all ASCII digits, the first the
    /// most significant: three multiply-and-shift steps combine digits in pairs, fours and
    /// eights (D. Lemire's "fast parsing of 8 digits" method).
    @inline(__always)
    static func valueOfDigits(_ word: UInt64, count: Int) -> UInt64 {
        // Move the digits to the top; the zero bytes shifted in act as leading zeros.
        var value = (word &<< UInt64(64 - 8 * count)) & 0x0F0F_0F0F_0F0F_0F0F
        value = (value &* 2561) >> 8
        value = ((value & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
        return ((value & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
    }

    // MARK: Values

    /// Scans any value at the cursor: scalars come back as spans, objects and arrays are
    /// validated and skipped (their span covers the brackets).
    mutating func scanValue(depth: Int = 0) throws(LineError) -> JSONSpan {
        guard position < count else { throw expected("a value") }
        switch bytes[position] {
        case ASCII.quote:
            return try scanString()
        case ASCII.minus, ASCII.zero...ASCII.nine:
            return try scanNumber()
        case UInt8(ascii: "t"):
            return try scanLiteral("true", kind: .true)
        case UInt8(ascii: "f"):
            return try scanLiteral("false", kind: .false)
        case UInt8(ascii: "n"):
            return try scanLiteral("null", kind: .null)
        case ASCII.openBrace:
            let start = position
            try skipObject(depth: depth + 1)
            return JSONSpan(start: start, end: position, kind: .object, hasEscapes: false)
        case ASCII.openBracket:
            let start = position
            try skipArray(depth: depth + 1)
            return JSONSpan(start: start, end: position, kind: .array, hasEscapes: false)
        default:
            throw expected("a value (a string, number, object, array, true, false or null)")
        }
    }

    private mutating func scanLiteral(_ literal: StaticString, kind: JSONSpan.Kind) throws(LineError) -> JSONSpan {
        let start = position
        let text = literal.utf8Start
        for index in 0..<literal.utf8CodeUnitCount {
            guard start + index < count else {
                throw error(at: start + index, "the line ends inside '\(literal)'")
            }
            guard bytes[start + index] == text[index] else {
                throw error(at: start, "expected a value (a string, number, object, array, true, false or null)")
            }
        }
        position = start + literal.utf8CodeUnitCount
        return JSONSpan(start: start, end: position, kind: kind, hasEscapes: false)
    }

    private mutating func skipObject(depth: Int) throws(LineError) {
        guard depth <= Self.maximumDepth else {
            throw error(at: position, "objects and arrays are nested more than \(Self.maximumDepth) deep")
        }
        position += 1
        skipWhitespace()
        if position < count, bytes[position] == ASCII.closeBrace {
            position += 1
            return
        }
        while true {
            guard position < count, bytes[position] == ASCII.quote else { throw expected("'\"' to start a field name") }
            _ = try scanString()
            skipWhitespace()
            try expect(ASCII.colon, "':' after the field name")
            skipWhitespace()
            _ = try scanValue(depth: depth)
            skipWhitespace()
            guard position < count else { throw expected("',' or '}' after a field value") }
            if bytes[position] == ASCII.comma {
                position += 1
                skipWhitespace()
            } else if bytes[position] == ASCII.closeBrace {
                position += 1
                return
            } else {
                throw expected("',' or '}' after a field value")
            }
        }
    }

    private mutating func skipArray(depth: Int) throws(LineError) {
        guard depth <= Self.maximumDepth else {
            throw error(at: position, "objects and arrays are nested more than \(Self.maximumDepth) deep")
        }
        position += 1
        skipWhitespace()
        if position < count, bytes[position] == ASCII.closeBracket {
            position += 1
            return
        }
        while true {
            _ = try scanValue(depth: depth)
            skipWhitespace()
            guard position < count else { throw expected("',' or ']' after an array element") }
            if bytes[position] == ASCII.comma {
                position += 1
                skipWhitespace()
            } else if bytes[position] == ASCII.closeBracket {
                position += 1
                return
            } else {
                throw expected("',' or ']' after an array element")
            }
        }
    }
}

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

/// The ASCII bytes the JSON grammar is made of.
enum ASCII {
    static let tab: UInt8 = 0x09
    static let newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote = UInt8(ascii: "\"")
    static let plus = UInt8(ascii: "+")
    static let comma = UInt8(ascii: ",")
    static let minus = UInt8(ascii: "-")
    static let dot = UInt8(ascii: ".")
    static let slash = UInt8(ascii: "/")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let colon = UInt8(ascii: ":")
    static let openBracket = UInt8(ascii: "[")
    static let backslash = UInt8(ascii: "\\")
    static let closeBracket = UInt8(ascii: "]")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- zero < 10 }

    @inline(__always)
    static func isBlank(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || byte == carriageReturn || byte == newline
    }

    /// A byte for an error message: printable ASCII quoted, anything else in hex.
    static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16, uppercase: true))"
    }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case zero...nine: UInt32(byte - zero)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
