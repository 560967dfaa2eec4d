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
                line: line.number, offset: offset)
        }
        unknownFields.count += count
    }

    /// Records the `truncated` warning for a cut-off last line, counting the events kept.
    mutating func recordCutOff(_ cutOff: CutOffLine) {
        diagnostics.record(
            .warning, code: "truncated",
            message: "the last line (line \(cutOff.line)) is cut off: \(cutOff.error.message); the \(timeline.count) events before it were kept",
            location: cutOff.error.location(line: cutOff.line))
    }

    /// What this parser read, as the later part of an input, for the parser of the part
    /// before it (`append(_:lineOffset:)`).
    consuming func laterPart(cutOff: CutOffLine?) -> ParsedPart {
        ParsedPart(timeline: timeline, unknownTypes: unknownTypes, unknownFields: unknownFields, cutOff: cutOff)
    }

    /// Appends the part of the input that follows this parser's, read by another parser whose
    /// line 1 is line `lineOffset + 1` here: its rows, its tallies and its cut-off last line.
    /// `part`'s timeline is emptied column by column as it is appended.
    mutating func append(_ part: inout ParsedPart, lineOffset: Int) {
        timeline.appendRows(of: &part.timeline)
        unknownTypes.add(part.unknownTypes, lineOffset: lineOffset)
        unknownFields.add(part.unknownFields, lineOffset: lineOffset)
        if let cutOff = part.cutOff {
            recordCutOff(CutOffLine(error: cutOff.error, line: cutOff.line + lineOffset))
        }
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

/// A last line that ends where more JSON was expected: the signature of a cut-off write.
struct CutOffLine {
    let error: LineError
    /// The line's number in the part of the input it was read from.
    let line: Int
}

/// The later part of one input, parsed on its own (`DrainTraceImporter+Halves`).
struct ParsedPart {
    var timeline: Timeline
    var unknownTypes: DiagnosticTally
    var unknownFields: DiagnosticTally
    var cutOff: CutOffLine?
}

/// Counts one kind of diagnostic while reading, keeping the first occurrence's message, so
/// that the hot loop touches only an integer; recorded once at the end.
struct DiagnosticTally {
    let code: String
    var count = 0
    private(set) var message = ""
    private(set) var location: String?
    /// The first occurrence's line and byte offset, when it was given as numbers: a later
    /// part of an input read on its own numbers its lines from 1 (`add(_:lineOffset:)`).
    private var place: (line: Int, offset: Int)?

    init(code: String) {
        self.code = code
    }

    mutating func first(message: String, location: String) {
        self.message = message
        self.location = location
        place = nil
    }

    mutating func first(message: String, line: Int, offset: Int) {
        self.message = message
        location = LineError.location(line: line, offset: offset)
        place = (line, offset)
    }

    /// Adds the tally of the part of the same input that follows the one this tally counted,
    /// whose lines were numbered from 1 where they are `lineOffset + 1` in the input.
    mutating func add(_ later: DiagnosticTally, lineOffset: Int) {
        if count == 0, later.count > 0 {
            if let place = later.place {
                first(message: later.message, line: place.line + lineOffset, offset: place.offset)
            } else {
                first(message: later.message, location: later.location ?? "")
            }
        }
        count += later.count
    }

    func record(into diagnostics: inout ImportDiagnostics, severity: ImportDiagnostic.Severity) {
        guard count > 0 else { return }
        diagnostics.record(severity, code: code, message: message, location: location, count: count)
    }
}
