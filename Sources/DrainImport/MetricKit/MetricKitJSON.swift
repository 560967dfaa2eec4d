/// A JSON value of a MetricKit file, with the byte offset where it starts so that a value
/// that cannot be read is reported at its line and column.
///
/// MetricKit files are small aggregates (kilobytes; call-stack trees make the largest a few
/// hundred), so the whole document is built as a tree. The grammar is checked by the same
/// `JSONScanner` the trace importers use: strict RFC 8259, nesting at most 512 deep.
struct MetricKitJSON {
    enum Value {
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
        case object([String: MetricKitJSON])
        case array([MetricKitJSON])
    }

    var value: Value
    /// Byte offset of the value's first byte in the file.
    var offset: Int

    /// The member `key` of an object, or nil (also for non-objects).
    subscript(key: String) -> MetricKitJSON? {
        guard case let .object(members) = value else { return nil }
        return members[key]
    }

    var object: [String: MetricKitJSON]? {
        if case let .object(members) = value { return members }
        return nil
    }

    var array: [MetricKitJSON]? {
        if case let .array(elements) = value { return elements }
        return nil
    }

    var string: String? {
        if case let .string(text) = value { return text }
        return nil
    }

    var number: Double? {
        if case let .number(number) = value { return number }
        return nil
    }

    /// "a string", "an object"… for messages.
    var kindDescription: String {
        switch value {
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        case .object: "an object"
        case .array: "an array"
        }
    }

    /// Parses a whole document: one value, optionally after a UTF-8 byte order mark, with
    /// only whitespace around it. O(n) in the bytes.
    ///
    /// - Throws: `LineError` at the byte offset of the first problem.
    static func parse(_ bytes: [UInt8]) throws(LineError) -> MetricKitJSON {
        // The scanner's word loads may read up to `PackedName.padding` bytes past the end.
        var padded = bytes
        padded += repeatElement(0, count: PackedName.padding)
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let parsed = padded.withUnsafeBytes { buffer in
            Result { () throws(LineError) -> MetricKitJSON in
                var builder = Builder(scanner: JSONScanner(UnsafeRawBufferPointer(rebasing: buffer[0..<bytes.count]), from: start))
                builder.scanner.skipWhitespace()
                let document = try builder.value(depth: 0)
                builder.scanner.skipWhitespace()
                guard builder.scanner.isAtEnd else { throw builder.scanner.expected("the end of the file after the JSON value") }
                return document
            }
        }
        return try parsed.get()
    }

    private struct Builder {
        var scanner: JSONScanner

        mutating func value(depth: Int) throws(LineError) -> MetricKitJSON {
            let offset = scanner.position
            guard !scanner.isAtEnd else { throw scanner.expected("a value") }
            switch scanner.current {
            case ASCII.openBrace:
                return MetricKitJSON(value: .object(try members(depth: depth + 1)), offset: offset)
            case ASCII.openBracket:
                return MetricKitJSON(value: .array(try elements(depth: depth + 1)), offset: offset)
            default:
                let span = try scanner.scanValue()
                return MetricKitJSON(value: scalar(span), offset: offset)
            }
        }

        private mutating func members(depth: Int) throws(LineError) -> [String: MetricKitJSON] {
            try checkDepth(depth)
            scanner.position += 1
            var members: [String: MetricKitJSON] = [:]
            guard scanner.nextSignificant() != ASCII.closeBrace else {
                scanner.position += 1
                return members
            }
            while true {
                guard !scanner.isAtEnd, scanner.current == ASCII.quote else { throw scanner.expected("'\"' to start a field name") }
                let key = text(try scanner.scanString())
                _ = scanner.nextSignificant()
                try scanner.expect(ASCII.colon, "':' after the field name")
                scanner.skipWhitespace()
                members[key] = try value(depth: depth)
                switch scanner.nextSignificant() {
                case ASCII.comma:
                    scanner.position += 1
                    scanner.skipWhitespace()
                case ASCII.closeBrace:
                    scanner.position += 1
                    return members
                default:
                    throw scanner.expected("',' or '}' after a field value")
                }
            }
        }

        private mutating func elements(depth: Int) throws(LineError) -> [MetricKitJSON] {
            try checkDepth(depth)
            scanner.position += 1
            var elements: [MetricKitJSON] = []
            guard scanner.nextSignificant() != ASCII.closeBracket else {
                scanner.position += 1
                return elements
            }
            while true {
                elements.append(try value(depth: depth))
                switch scanner.nextSignificant() {
                case ASCII.comma:
                    scanner.position += 1
                    scanner.skipWhitespace()
                case ASCII.closeBracket:
                    scanner.position += 1
                    return elements
                default:
                    throw scanner.expected("',' or ']' after an array element")
                }
            }
        }

        private func checkDepth(_ depth: Int) throws(LineError) {
            guard depth <= JSONScanner.maximumDepth else {
                throw scanner.error(at: scanner.position, "objects and arrays are nested more than \(JSONScanner.maximumDepth) deep")
            }
        }

        private func scalar(_ span: JSONSpan) -> Value {
            switch span.kind {
            case .string: .string(text(span))
            case .number:
                .number(
                    DecimalNumber(scanner.bytes.baseAddress!, from: span.start, to: span.end)
                        .doubleValue(scanner.bytes.baseAddress!, from: span.start, to: span.end) ?? .infinity)
            case .true: .bool(true)
            case .false: .bool(false)
            case .null, .object, .array: .null
            }
        }

        /// The decoded text of a scanned string; invalid UTF-8 becomes U+FFFD.
        private func text(_ span: JSONSpan) -> String {
            let base = scanner.bytes.baseAddress!
            guard span.hasEscapes else {
                return String(decoding: UnsafeBufferPointer(start: base + span.start, count: span.end - span.start), as: UTF8.self)
            }
            return String(unsafeUninitializedCapacity: span.end - span.start) { output in
                JSONStringDecoder.decode(base, from: span.start, to: span.end, into: output.baseAddress!)
            }
        }
    }
}
