import DrainTrace

/// One event object of a Chrome trace scanned in place: where each field Drain reads is,
/// with typed readers for their values.
///
/// Like `ScannedLine` for Drain traces: scanning records spans only, strings are used in
/// place and only strings with escapes are decoded, into a scratch buffer reused event after
/// event. Nothing is allocated per event.
struct ChromeEventFields: ~Copyable {
    private(set) var bytes = UnsafeRawBufferPointer(start: nil, count: 0)
    /// Offset of the object's `{` in `bytes`.
    private(set) var objectStart = 0
    private(set) var present: UInt16 = 0
    private var spans: [JSONSpan]

    /// Where decoded strings go; `PackedName.padding` readable bytes follow its capacity.
    private var scratch: UnsafeMutablePointer<UInt8>
    private var scratchCapacity = 4096
    private var scratchUsed = 0
    /// Escaped field names are decoded here: no name longer than `PackedName.capacity` can
    /// match, and an escape is at most 6 bytes per character.
    private let keyScratch: UnsafeMutablePointer<UInt8>
    private static var keyScratchCapacity: Int { 6 * PackedName.capacity }

    init() {
        spans = Array(
            repeating: JSONSpan(start: 0, end: 0, kind: .null, hasEscapes: false), count: ChromeField.allCases.count)
        scratch = Self.allocateScratch(scratchCapacity)
        keyScratch = Self.allocateScratch(Self.keyScratchCapacity)
    }

    deinit {
        scratch.deallocate()
        keyScratch.deallocate()
    }

    private static func allocateScratch(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity + PackedName.padding)
        scratch.initialize(repeating: 0, count: capacity + PackedName.padding)
        return scratch
    }

    // MARK: Scanning

    /// Scans the JSON object at `start` in `text` (which `PackedName.padding` readable bytes
    /// follow), recording where each known field's value is; returns the offset after the
    /// object's `}`. O(object length).
    mutating func scan(_ text: UnsafeRawBufferPointer, from start: Int) throws(LineError) -> Int {
        bytes = text
        objectStart = start
        present = 0
        scratchUsed = 0
        var scanner = JSONScanner(text, from: start)
        guard !scanner.isAtEnd, scanner.current == ASCII.openBrace else {
            throw scanner.expected("'{' to start an event (traceEvents holds JSON objects)")
        }
        scanner.position += 1
        if scanner.nextSignificant() == ASCII.closeBrace {
            scanner.position += 1
        } else {
            fields: while true {
                guard scanner.nextSignificant() == ASCII.quote else { throw scanner.expected("'\"' to start a field name") }
                let code: UInt8?
                if let name = scanner.scanShortPlainString() {
                    code = ChromeField.table.code(of: name)
                } else {
                    code = fieldCode(of: try scanner.scanString())
                }
                guard scanner.nextSignificant() == ASCII.colon else { throw scanner.expected("':' after the field name") }
                scanner.position += 1
                let first = scanner.nextSignificant()
                let value: JSONSpan
                if first == ASCII.quote {
                    value = try scanner.scanString()
                } else if let first, ASCII.isDigit(first), let number = scanner.scanShortPlainNumber() {
                    value = number
                } else {
                    value = try scanner.scanValue()
                }
                if let code {
                    spans[Int(code)] = value
                    let bit: UInt16 = 1 << UInt16(code)
                    present = value.kind == .null ? present & ~bit : present | bit
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
        // Strings of this event are decoded at most once each, and never grow.
        let length = scanner.position - start
        if scratchCapacity < length {
            scratch.deallocate()
            scratchCapacity = length
            scratch = Self.allocateScratch(scratchCapacity)
        }
        return scanner.position
    }

    /// The code of a field name that is long or holds escapes.
    private func fieldCode(of key: JSONSpan) -> UInt8? {
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        guard key.hasEscapes else {
            return ChromeField.table.code(ofPadded: UnsafeRawBufferPointer(start: base + key.start, count: key.end - key.start))
        }
        guard key.end - key.start <= Self.keyScratchCapacity else { return nil }
        let count = JSONStringDecoder.decode(base, from: key.start, to: key.end, into: keyScratch)
        return ChromeField.table.code(ofPadded: UnsafeRawBufferPointer(start: keyScratch, count: count))
    }

    // MARK: Reading fields

    @inline(__always)
    func has(_ field: ChromeField) -> Bool { present & field.bit != 0 }

    @inline(__always)
    func span(_ field: ChromeField) -> JSONSpan { spans[Int(field.rawValue)] }

    /// Where a field's value starts (a string's opening quote), for error columns.
    func valueOffset(_ field: ChromeField) -> Int {
        let span = span(field)
        return span.kind == .string ? span.start - 1 : span.start
    }

    func wrongType(_ field: ChromeField, expected: String) -> LineError {
        LineError(at: valueOffset(field), "\"\(field.key)\" must be \(expected), found \(span(field).kind.description)")
    }

    /// The text of a string span: in place, or decoded into the scratch buffer if it holds
    /// escapes. Valid until the next scan; followed by `PackedName.padding` readable bytes.
    @inline(__always)
    mutating func text(of span: JSONSpan) -> UnsafeRawBufferPointer {
        JSONStringDecoder.text(of: span, in: bytes, scratch: scratch, used: &scratchUsed)
    }

    /// A string field's text, or nil when it is absent.
    mutating func string(_ field: ChromeField) throws(LineError) -> UnsafeRawBufferPointer? {
        guard has(field) else { return nil }
        let span = span(field)
        guard span.kind == .string else { throw wrongType(field, expected: "a string") }
        return text(of: span)
    }

    /// A process or thread id, a number or a string, as its text; nil when absent.
    mutating func identifier(_ field: ChromeField) throws(LineError) -> UnsafeRawBufferPointer? {
        guard has(field) else { return nil }
        let span = span(field)
        switch span.kind {
        case .string: return text(of: span)
        case .number: return UnsafeRawBufferPointer(rebasing: bytes[span.start..<span.end])
        default: throw wrongType(field, expected: "a number or a string")
        }
    }

    /// A time in microseconds (`ts`, `dur`) as whole nanoseconds, read from its decimal
    /// digits (`1.0005` µs is 1 000.5 ns, rounded to 1 001). Negative only if `allowNegative`.
    /// Some writers (Hermes) put the number in a string, `"ts": "11550183666"`, which is read
    /// the same.
    @inline(__always)
    func nanoseconds(_ field: ChromeField, allowNegative: Bool) throws(LineError) -> Nanoseconds {
        guard let span = numberSpan(field) else { throw wrongType(field, expected: "a number of microseconds") }
        if span.fractionDigits >= 0 && span.fractionDigits <= 3 {
            let (value, overflow) = span.digits.multipliedReportingOverflow(
                by: DecimalNumber.powerOfTen(3 - Int(span.fractionDigits)))
            // The same bound as below: times minus the earliest one must not overflow.
            if !overflow && value < UInt64(Int64.max / 2) { return Int64(value) }
        }
        let number = DecimalNumber(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), from: span.start, to: span.end)
        let negative = number.isNegative && number.significand != 0
        guard allowNegative || !negative else {
            throw LineError(at: valueOffset(field), "\"\(field.key)\" must not be negative")
        }
        guard let (value, _) = number.scaled(byPowerOfTen: 3), value < Int64.max / 2 else {
            throw LineError(at: valueOffset(field), "\"\(field.key)\" is too large (at most about 4.6e15 µs)")
        }
        return negative ? -value : value
    }

    /// The span of a number field, or of the number a string field holds whole.
    private func numberSpan(_ field: ChromeField) -> JSONSpan? {
        let span = span(field)
        if span.kind == .number { return span }
        guard span.kind == .string, !span.hasEscapes, span.end > span.start else { return nil }
        // The closing quote and what follows it are readable, as the scanner's word loads need.
        var scanner = JSONScanner(UnsafeRawBufferPointer(rebasing: bytes[span.start..<span.end]))
        guard let number = try? scanner.scanNumber(), scanner.isAtEnd else { return nil }
        var shifted = JSONSpan(start: span.start + number.start, end: span.start + number.end, kind: .number, hasEscapes: false)
        shifted.digits = number.digits
        shifted.fractionDigits = number.fractionDigits
        return shifted
    }

    /// Calls `body` with the name and value of each member of the `args` object, in order;
    /// nothing when `args` is absent or not an object.
    mutating func forEachArgument(_ body: (inout ChromeEventFields, UnsafeRawBufferPointer, JSONSpan) -> Void) {
        guard has(.arguments), span(.arguments).kind == .object else { return }
        // The object was validated by `scan`, so these scans cannot fail.
        var scanner = JSONScanner(bytes, from: span(.arguments).start + 1)
        while scanner.nextSignificant() == ASCII.quote, let key = try? scanner.scanString() {
            _ = scanner.nextSignificant()
            scanner.position += 1
            _ = scanner.nextSignificant()
            guard let value = try? scanner.scanValue() else { return }
            let name = text(of: key)
            body(&self, name, value)
            guard scanner.nextSignificant() == ASCII.comma else { return }
            scanner.position += 1
        }
    }

    /// A number span's value as a `Double`, or nil if it is not a finite number.
    func double(_ span: JSONSpan) -> Double? {
        guard span.kind == .number else { return nil }
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        return DecimalNumber(base, from: span.start, to: span.end).doubleValue(base, from: span.start, to: span.end)
    }
}
