import DrainTrace

/// What a Drain trace header says about its trace.
struct DrainTraceHeader {
    var version: Int64
    var process: String?
    var device: String?
    /// Wall-clock time of `t` = 0, nanoseconds since the Unix epoch.
    var wallClockStart: Int64?
}

extension DrainTraceParser {
    /// Reads the header line, the first non-blank line, from byte `start` (after a byte
    /// order mark).
    mutating func parseHeader(_ source: Line, from start: Int) throws(LineError) -> DrainTraceHeader {
        try line.scan(source, from: start, names: vocabulary.fieldNames)
        guard line.has(.drainTrace) else {
            let example = "{\"drain_trace\":\(DrainTraceImporter.supportedVersion),\"process\":…}"
            if line.has(.t) || line.has(.type) {
                throw LineError(at: line.objectStart, "missing header: this line is an event, but a Drain trace starts with a header line such as \(example)")
            }
            throw LineError(at: line.objectStart, "missing header: a Drain trace starts with a header line such as \(example)")
        }
        let versionNumber = try line.decimal(.drainTrace)
        guard !versionNumber.isNegative, let (version, exact) = versionNumber.scaled(byPowerOfTen: 0), exact, version >= 1 else {
            throw LineError(at: line.valueOffset(.drainTrace), "\"drain_trace\" must be a whole number ≥ 1 (the format's major version)")
        }
        guard version <= DrainTraceImporter.supportedVersion else {
            throw LineError(
                at: line.valueOffset(.drainTrace),
                "this trace is drain_trace version \(version), newer than this reader, which reads version \(DrainTraceImporter.supportedVersion) and older; use a newer drain")
        }
        var header = DrainTraceHeader(version: version)
        if line.has(.process) { header.process = String(decoding: try line.string(.process), as: UTF8.self) }
        if line.has(.device) { header.device = String(decoding: try line.string(.device), as: UTF8.self) }
        if line.has(.pid) { _ = try line.count(.pid) }
        if line.has(.start) {
            let text = try line.string(.start)
            switch RFC3339.nanosecondsSinceEpoch(text) {
            case .success(let nanoseconds):
                header.wallClockStart = nanoseconds
            case .failure(let failure):
                // Columns inside the string are exact when it has no escapes, which dates never need.
                let offset = line.span(.start).hasEscapes ? line.valueOffset(.start) : line.span(.start).start + failure.offset
                throw LineError(at: offset, "\"start\" is not an RFC 3339 date-time such as 2026-11-22T10:00:00.000Z: \(failure.message)")
            }
        }
        tallyUnknownFields(allowed: TraceField.headerFields, context: "the header")
        return header
    }
}
