/// Reads the structure of a Chrome trace — `[event, …]` or `{"traceEvents": [event, …], …}`
/// — from a text window, and hands each event to the assembler as soon as it is scanned.
///
/// The JSON Array Format may lack its closing `]` (and end in a comma): tracers write it as
/// they run and may be stopped at any time. A file that ends inside an event or inside the
/// object form keeps the events before the cut and says so.
struct ChromeTraceParser<Source: ByteSource>: ~Copyable {
    private var window: ChromeTextWindow<Source>
    private var assembler: ChromeTraceAssembler
    private let path: String
    private var eventsRead = 0

    /// How a list of events ended.
    private enum ListEnd {
        /// With its `]`.
        case closed
        /// At the end of the input, between events (the array form may do so).
        case unterminated
        /// At the end of the input, inside an event or another value.
        case cutOff
    }

    init(source: consuming Source, path: String, inputIndex: UInt16, chunkSize: Int) {
        window = ChromeTextWindow(source: source, path: path, chunkSize: chunkSize)
        assembler = ChromeTraceAssembler(path: path, inputIndex: inputIndex)
        self.path = path
    }

    /// Reads the whole input and returns the assembler holding its events.
    ///
    /// - Throws: `ImportError.badData` naming the line and column of the first problem.
    consuming func parse() throws(ImportError) -> ChromeTraceAssembler {
        while window.filled < 3, try window.readMore() {}
        let text = window.bytes
        if text.count >= 3, text[0] == 0xEF, text[1] == 0xBB, text[2] == 0xBF { window.position = 3 }
        guard let first = try window.nextSignificant() else {
            throw .badData(
                path: path, location: nil,
                reason: "empty file, expected a Chrome trace (a JSON array of events, or an object with \"traceEvents\")")
        }
        let end: ListEnd
        switch first {
        case ASCII.openBracket:
            window.position += 1
            end = try readEvents()
        case ASCII.openBrace:
            end = try readObject()
        default:
            throw badData("expected '[' or '{' to start a Chrome trace, found \(ASCII.describe(first))")
        }
        switch end {
        case .closed:
            if let extra = try window.nextSignificant() {
                throw badData("unexpected \(ASCII.describe(extra)) after the end of the trace")
            }
        case .unterminated:
            assembler.diagnostics.record(
                .info, code: "unterminated",
                message: "the array of events has no closing ']', which the format allows for traces written as they run",
                location: window.location(of: window.filled))
        case .cutOff:
            assembler.diagnostics.record(
                .warning, code: "truncated",
                message: "the file ends inside the value that starts here (it was cut off); the \(eventsRead) events before it were kept",
                location: window.location(of: window.position))
        }
        return assembler
    }

    /// Reads events from after a `[` to its `]` or the end of the input.
    private mutating func readEvents() throws(ImportError) -> ListEnd {
        var afterEvent = false
        while true {
            guard let byte = try window.nextSignificant() else { return .unterminated }
            if byte == ASCII.closeBracket {
                // Also after a trailing comma, which writers that end every event with one produce.
                window.position += 1
                return .closed
            }
            if afterEvent {
                guard byte == ASCII.comma else { throw badData("expected ',' or ']' after an event, found \(ASCII.describe(byte))") }
                window.position += 1
                afterEvent = false
                continue
            }
            guard try readEvent() else { return .cutOff }
            afterEvent = true
        }
    }

    /// Scans the event at the cursor and hands it to the assembler; false when the input
    /// ends inside it.
    private mutating func readEvent() throws(ImportError) -> Bool {
        while true {
            do throws(LineError) {
                let end = try assembler.fields.scan(window.bytes, from: window.position)
                let locator = window.locator
                try assembler.addEvent { locator.location(of: $0) }
                window.position = end
                eventsRead += 1
                return true
            } catch {
                if error.isCutOff {
                    if try window.readMore() { continue }
                    return false
                }
                throw .badData(path: path, location: window.location(of: error.offset), reason: error.message)
            }
        }
    }

    /// Reads the object form from its `{`: `traceEvents` is read event by event, every other
    /// member (`displayTimeUnit`, `metadata`, `stackFrames`, `samples`…) is checked and skipped.
    private mutating func readObject() throws(ImportError) -> ListEnd {
        window.position += 1
        var afterMember = false
        var sawEvents = false
        while true {
            guard let byte = try window.nextSignificant() else { return .cutOff }
            if byte == ASCII.closeBrace {
                window.position += 1
                guard sawEvents else {
                    throw badData("the JSON object has no \"traceEvents\" array, so it is not a Chrome trace")
                }
                return .closed
            }
            if afterMember {
                guard byte == ASCII.comma else { throw badData("expected ',' or '}' after a field value, found \(ASCII.describe(byte))") }
                window.position += 1
                afterMember = false
                continue
            }
            guard byte == ASCII.quote else { throw badData("expected '\"' to start a field name, found \(ASCII.describe(byte))") }
            guard let isEvents = try scan(isTraceEventsKey: true) else { return .cutOff }
            guard let colon = try window.nextSignificant() else { return .cutOff }
            guard colon == ASCII.colon else { throw badData("expected ':' after the field name, found \(ASCII.describe(colon))") }
            window.position += 1
            if isEvents {
                guard let open = try window.nextSignificant() else { return .cutOff }
                guard open == ASCII.openBracket else {
                    throw badData("\"traceEvents\" must be an array of events, found \(ASCII.describe(open))")
                }
                window.position += 1
                guard case .closed = try readEvents() else { return .cutOff }
                sawEvents = true
            } else {
                guard try scan(isTraceEventsKey: false) != nil else { return .cutOff }
            }
            afterMember = true
        }
    }

    /// Scans the value at the cursor whole (reading more until it fits) and moves past it.
    /// With `isTraceEventsKey`, the value is a field name and the result says whether it is
    /// `traceEvents`. Nil when the input ends inside the value.
    private mutating func scan(isTraceEventsKey: Bool) throws(ImportError) -> Bool? {
        guard try window.nextSignificant() != nil else { return nil }
        while true {
            var scanner = JSONScanner(window.bytes, from: window.position)
            do throws(LineError) {
                let span = try scanner.scanValue()
                window.position = scanner.position
                guard isTraceEventsKey else { return false }
                let base = window.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                var name = [UInt8](repeating: 0, count: span.end - span.start)
                let count = name.withUnsafeMutableBufferPointer {
                    JSONStringDecoder.decode(base, from: span.start, to: span.end, into: $0.baseAddress!)
                }
                return name.prefix(count).elementsEqual("traceEvents".utf8)
            } catch {
                if error.isCutOff {
                    if try window.readMore() { continue }
                    return nil
                }
                throw .badData(path: path, location: window.location(of: error.offset), reason: error.message)
            }
        }
    }

    private func badData(_ reason: String) -> ImportError {
        .badData(path: path, location: window.location(of: window.position), reason: reason)
    }
}
