import DrainTrace

/// One line of a Drain trace scanned as a JSON object: where each known field's value is,
/// and typed readers for those values.
///
/// Scanning records spans only (no values are built, since the `type` that says what the
/// fields mean may come last); a value is read when the event is built. Strings are used in
/// place; only strings with escapes are decoded, into a scratch buffer reused line after
/// line. Nothing is allocated per line.
struct ScannedLine: ~Copyable {
    private(set) var bytes = UnsafeRawBufferPointer(start: nil, count: 0)
    private(set) var number = 0
    /// Offset of the object's `{`.
    private(set) var objectStart = 0
    /// The fields present in the line (and not null), by `TraceField.bit`.
    private(set) var present: UInt64 = 0
    /// Where each field present in the line is, by `TraceField.rawValue`.
    private let slots: UnsafeMutablePointer<Slot>
    /// Fields whose names are not in `TraceField`.
    private(set) var unknownKeyCount = 0
    /// Offset of the first such name's opening quote, or -1.
    private(set) var firstUnknownKeyOffset = -1

    /// Where decoded strings go; `PackedName.padding` readable bytes follow its capacity.
    private var scratch: UnsafeMutablePointer<UInt8>
    private var scratchCapacity: Int
    private var scratchUsed = 0

    struct Slot {
        var value: JSONSpan
        /// Offset of the field name's opening quote, for diagnostics.
        var keyOffset: Int32
    }

    init() {
        slots = .allocate(capacity: TraceField.allCases.count)
        slots.initialize(
            repeating: Slot(value: JSONSpan(start: 0, end: 0, kind: .null, hasEscapes: false), keyOffset: 0),
            count: TraceField.allCases.count)
        scratchCapacity = 4096
        scratch = Self.allocateScratch(scratchCapacity)
    }

    deinit {
        slots.deallocate()
        scratch.deallocate()
    }

    private static func allocateScratch(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity + PackedName.padding)
        scratch.initialize(repeating: 0, count: capacity + PackedName.padding)
        return scratch
    }

    // MARK: Scanning

    /// Scans the JSON object that makes up `line`, from byte `start`, recording where each
    /// known field's value is. Fails on anything but one valid JSON object and whitespace.
    /// O(line length).
    @inline(__always)
    mutating func scan(_ line: Line, from start: Int, names: NameTable) throws(LineError) {
        bytes = line.bytes
        number = line.number
        present = 0
        unknownKeyCount = 0
        firstUnknownKeyOffset = -1
        scratchUsed = 0
        // Decoding never lengthens text and a line's text is decoded at most twice (a field
        // name once more for a diagnostic), so twice the line's length always suffices.
        if scratchCapacity < 2 * line.bytes.count {
            scratch.deallocate()
            scratchCapacity = 2 * line.bytes.count
            scratch = Self.allocateScratch(scratchCapacity)
        }

        var scanner = JSONScanner(line.bytes, from: start)
        scanner.skipWhitespace()
        guard !scanner.isAtEnd, scanner.current == ASCII.openBrace else {
            throw scanner.expected("'{' (each line of a Drain trace is one JSON object)")
        }
        objectStart = scanner.position
        scanner.position += 1
        scanner.skipWhitespace()
        if !scanner.isAtEnd, scanner.current == ASCII.closeBrace {
            scanner.position += 1
        } else {
            // One iteration per field: name, colon, value, then ',' or '}'.
            fields: while true {
                guard scanner.nextSignificant() == ASCII.quote else {
                    throw scanner.expected("'\"' to start a field name")
                }
                let keyOffset = scanner.position
                let code: UInt8?
                if let name = scanner.scanShortPlainString() {
                    code = names.code(of: name)
                } else {
                    let key = try scanner.scanString()
                    code = names.code(ofPadded: text(of: key))
                }
                guard scanner.nextSignificant() == ASCII.colon else {
                    throw scanner.expected("':' after the field name")
                }
                scanner.position += 1
                // Strings and numbers first: nearly every value is one.
                let first = scanner.nextSignificant()
                let value: JSONSpan
                if first == ASCII.quote {
                    value = try scanner.scanString()
                } else if let first, ASCII.isDigit(first) {
                    if let number = scanner.scanShortPlainNumber() {
                        value = number
                    } else {
                        value = try scanner.scanNumber()
                    }
                } else {
                    value = try scanner.scanValue()
                }
                if let code {
                    slots[Int(code)] = Slot(value: value, keyOffset: Int32(truncatingIfNeeded: keyOffset))
                    if value.kind == .null {
                        present &= ~(1 &<< UInt64(code))
                    } else {
                        present |= 1 &<< UInt64(code)
                    }
                } else {
                    unknownKeyCount += 1
                    if firstUnknownKeyOffset < 0 { firstUnknownKeyOffset = keyOffset }
                }
                switch scanner.nextSignificant() {
                case ASCII.comma:
                    scanner.position += 1
                case ASCII.closeBrace:
                    scanner.position += 1
                    break fields
                default:
                    throw scanner.expected("',' or '}' after a field value")
                }
            }
        }
        scanner.skipWhitespace()
        guard scanner.isAtEnd else {
            throw scanner.error(
                at: scanner.position,
                "unexpected \(scanner.describeCurrent()) after the end of the object (a line holds one JSON object)")
        }
    }

    /// The text of a string span: in place, or decoded into the scratch buffer if it holds
    /// escapes. Valid until the next line; followed by `PackedName.padding` readable bytes.
    @inline(__always)
    mutating func text(of span: JSONSpan) -> UnsafeRawBufferPointer {
        JSONStringDecoder.text(of: span, in: bytes, scratch: scratch, used: &scratchUsed)
    }

    // MARK: Reading fields

    @inline(__always)
    func has(_ field: TraceField) -> Bool { present & field.bit != 0 }

    @inline(__always)
    func span(_ field: TraceField) -> JSONSpan { slots[Int(field.rawValue)].value }

    /// Where a field's value starts (a string's opening quote), for error columns.
    func valueOffset(_ field: TraceField) -> Int {
        let span = span(field)
        return span.kind == .string ? span.start - 1 : span.start
    }

    func keyOffset(_ field: TraceField) -> Int { Int(slots[Int(field.rawValue)].keyOffset) }

    func wrongType(_ field: TraceField, expected: String) -> LineError {
        LineError(at: valueOffset(field), "\"\(field.key)\" must be \(expected), found \(span(field).kind.description)")
    }

    func missing(_ field: TraceField, in kind: EventKind) -> LineError {
        LineError(at: objectStart, "a \"\(kind.traceName)\" event needs \"\(field.key)\"")
    }

    /// A string field's text (see `text(of:)`).
    @inline(__always)
    mutating func string(_ field: TraceField) throws(LineError) -> UnsafeRawBufferPointer {
        let span = span(field)
        guard span.kind == .string else { throw wrongType(field, expected: "a string") }
        return text(of: span)
    }

    /// A number field read from its decimal digits.
    @inline(__always)
    func decimal(_ field: TraceField) throws(LineError) -> DecimalNumber {
        let span = span(field)
        guard span.kind == .number else { throw wrongType(field, expected: "a number") }
        return DecimalNumber(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), from: span.start, to: span.end)
    }

    /// A field in seconds (`t`, `dur`, `interval`) as whole nanoseconds, ≥ 0.
    @inline(__always)
    func nanoseconds(_ field: TraceField) throws(LineError) -> Nanoseconds {
        let span = span(field)
        if span.fractionDigits >= 0 && span.fractionDigits <= 9 {
            let (value, overflow) = span.digits.multipliedReportingOverflow(
                by: DecimalNumber.powerOfTen(9 - Int(span.fractionDigits)))
            if !overflow && value <= UInt64(Int64.max) { return Int64(value) }
        }
        let number = try decimal(field)
        guard !number.isNegative || number.significand == 0 else { throw negative(field) }
        guard let (value, _) = number.scaled(byPowerOfTen: 9) else {
            throw LineError(at: valueOffset(field), "\"\(field.key)\" is too large (at most about 9.2e9 seconds)")
        }
        return value
    }

    /// A whole number ≥ 0 (a byte count).
    @inline(__always)
    func count(_ field: TraceField) throws(LineError) -> Int64 {
        let span = span(field)
        if span.fractionDigits == 0 && span.digits <= UInt64(Int64.max) { return Int64(span.digits) }
        let number = try decimal(field)
        guard !number.isNegative || number.significand == 0 else { throw negative(field) }
        guard let (value, exact) = number.scaled(byPowerOfTen: 0) else {
            throw LineError(at: valueOffset(field), "\"\(field.key)\" is too large (at most \(Int64.max))")
        }
        guard exact else { throw LineError(at: valueOffset(field), "\"\(field.key)\" must be a whole number") }
        return value
    }

    /// A finite number, ≥ 0 unless `allowNegative`.
    func real(_ field: TraceField, allowNegative: Bool = false) throws(LineError) -> Double {
        let number = try decimal(field)
        guard allowNegative || !number.isNegative || number.significand == 0 else { throw negative(field) }
        let span = span(field)
        guard let value = number.doubleValue(
            bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), from: span.start, to: span.end)
        else {
            throw LineError(at: valueOffset(field), "\"\(field.key)\" is too large")
        }
        return value
    }

    func bool(_ field: TraceField) throws(LineError) -> Bool {
        switch span(field).kind {
        case .true: return true
        case .false: return false
        default: throw wrongType(field, expected: "true or false")
        }
    }

    /// An enum field's code from `table`; a value outside it is an error listing the allowed ones.
    @inline(__always)
    mutating func code(_ field: TraceField, in table: NameTable) throws(LineError) -> UInt8 {
        let text = try string(field)
        guard let code = table.code(ofPadded: text) else {
            throw LineError(
                at: valueOffset(field),
                "\"\(field.key)\" must be one of \(table.allowedList); found \(QuotedText.quote(text))")
        }
        return code
    }

    private func negative(_ field: TraceField) -> LineError {
        LineError(at: valueOffset(field), "\"\(field.key)\" must not be negative")
    }

    // MARK: Unknown fields

    /// How many of the line's fields are unknown, or known but not in `allowed`.
    func unknownFieldCount(allowed: UInt64) -> Int {
        unknownKeyCount + (present & ~allowed).nonzeroBitCount
    }

    /// The first (leftmost) field that is unknown or not in `allowed`, quoted for a message,
    /// with the offset of its name; nil if there is none.
    mutating func firstUnknownField(allowed: UInt64) -> (name: String, offset: Int)? {
        let foreign = present & ~allowed
        var offset = firstUnknownKeyOffset
        for field in TraceField.allCases where foreign & field.bit != 0 {
            if offset < 0 || keyOffset(field) < offset { offset = keyOffset(field) }
        }
        guard offset >= 0 else { return nil }
        var scanner = JSONScanner(bytes, from: offset)
        guard let key = try? scanner.scanString() else { return nil }
        return (QuotedText.quote(text(of: key)), offset)
    }
}
