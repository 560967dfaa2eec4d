import DrainTrace

/// Reads the lines of one Drain trace into a `Timeline`: the header, then one event per
/// line, each scanned by `ScannedLine` and appended without allocating.
struct DrainTraceParser: ~Copyable {
    let path: String
    let inputIndex: UInt16
    var timeline = Timeline()
    var diagnostics = ImportDiagnostics()
    var unknownTypes = DiagnosticTally(code: "unknown-type")
    var unknownFields = DiagnosticTally(code: "unknown-field")
    /// The line being read.
    var line = ScannedLine()
    /// Short strings interned lately, by their bytes.
    var recentStrings = RecentStrings()
    let vocabulary = TraceVocabulary.shared

    init(path: String, inputIndex: UInt16) {
        self.path = path
        self.inputIndex = inputIndex
    }

    /// An optional string field, interned; 0 (none) when absent.
    @inline(__always)
    mutating func internedString(_ field: TraceField) throws(LineError) -> StringID {
        guard line.has(field) else { return 0 }
        let text = try line.string(field)
        return intern(text)
    }

    /// Interns text from the line (or the scratch buffer; either is padded). Short strings
    /// go through `recentStrings` first: traces repeat the same few hosts, names and
    /// threads, and a cache hit costs a fraction of hashing the string again.
    @inline(__always)
    mutating func intern(_ text: UnsafeRawBufferPointer) -> StringID {
        guard let name = PackedName(padded: text) else { return timeline.strings.intern(text) }
        if let id = recentStrings.id(of: name) { return id }
        let id = timeline.strings.intern(text)
        recentStrings.remember(name, as: id)
        return id
    }

    /// An identifier field (`thread`, `conn`, `id`): a string, or a whole number ≥ 0 (a
    /// thread id, a socket descriptor) interned as its digits; 0 (none) when absent.
    mutating func identifier(_ field: TraceField) throws(LineError) -> StringID {
        guard line.has(field) else { return 0 }
        let span = line.span(field)
        switch span.kind {
        case .string:
            return intern(line.text(of: span))
        case .number:
            let digits = UnsafeRawBufferPointer(rebasing: line.bytes[span.start..<span.end])
            guard digits.allSatisfy(ASCII.isDigit) else {
                throw line.wrongType(field, expected: "a string or a whole number ≥ 0")
            }
            return intern(digits)
        default:
            throw line.wrongType(field, expected: "a string or a whole number ≥ 0")
        }
    }

    /// Counts the line's fields that are unknown or belong to other kinds of line, and
    /// describes the first one when it is the first of the input.
    @inline(__always)
    mutating func tallyUnknownFields(allowed: UInt64, context: @autoclosure () -> String) {
        let count = line.unknownFieldCount(allowed: allowed)
        guard count > 0 else { return }
        if unknownFields.count == 0, let (name, offset) = line.firstUnknownField(allowed: allowed) {
            unknownFields.first(
                message: "field \(name) is not part of \(context()) in drain_trace \(DrainTraceImporter.supportedVersion) and was ignored",
                location: LineError.location(line: line.number, offset: offset))
        }
        unknownFields.count += count
    }

    /// Ends the input: records the tallied diagnostics, sorts the timeline if needed and
    /// describes the input.
    consuming func finish(header: DrainTraceHeader) -> ImportedInput {
        var diagnostics = diagnostics
        unknownTypes.record(into: &diagnostics, severity: .info)
        unknownFields.record(into: &diagnostics, severity: .info)
        var timeline = timeline
        timeline.wallClockStart = header.wallClockStart
        timeline.finish(diagnostics: &diagnostics)
        let info = InputInfo(
            path: path, format: InputFormat.drainTrace.rawValue, events: timeline.count,
            wallClockStart: header.wallClockStart, process: header.process, deviceHint: header.device,
            diagnostics: diagnostics)
        return ImportedInput(timeline: timeline, info: info)
    }
}

/// Counts one kind of diagnostic while reading, keeping the first occurrence's message, so
/// that the hot loop touches only an integer; recorded once at the end.
struct DiagnosticTally {
    let code: String
    var count = 0
    private(set) var message = ""
    private(set) var location: String?

    init(code: String) {
        self.code = code
    }

    mutating func first(message: String, location: String) {
        self.message = message
        self.location = location
    }

    func record(into diagnostics: inout ImportDiagnostics, severity: ImportDiagnostic.Severity) {
        guard count > 0 else { return }
        diagnostics.record(severity, code: code, message: message, location: location, count: count)
    }
}
