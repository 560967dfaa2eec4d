import DrainTrace

/// Reads Apple MetricKit JSON — `MXMetricPayload` and `MXDiagnosticPayload` as their
/// `jsonRepresentation()` writes them, arrays of payloads, and bare diagnostics — into a
/// `Timeline` that holds no events, only `aggregates` (docs/metrickit.md).
///
/// MetricKit payloads are totals over a window (usually a day), not timelines: the
/// timeline's wall-clock start is the window's start and its end the window's length, so
/// that a report shows the span the totals cover. The file is read whole (the largest real
/// payloads, with call-stack trees, are a few hundred kilobytes) and parsed into a tree,
/// O(n) in its bytes.
public struct MetricKitImporter: Sendable {
    /// Files larger than this are refused rather than held in memory: real payloads are
    /// kilobytes, so a file this size is not one.
    static let maximumSize = 64 << 20

    public init() {}

    /// Reads the MetricKit JSON file at `path`, decompressing it if it starts with gzip's
    /// magic bytes.
    ///
    /// - Parameters:
    ///   - inputIndex: the input's index in the analysis (the timeline holds no rows to tag).
    ///   - progress: told the bytes of the file read so far (compressed bytes for gzip).
    /// - Throws: `ImportError.unreadable` if the file cannot be opened or read;
    ///   `ImportError.badData` naming the line and column (of the decompressed text for gzip)
    ///   of the first problem when it is not JSON, not a MetricKit payload (a bare
    ///   `MXCallStackTree` is refused), or too large, or the byte of damaged compressed data.
    public static func read(
        path: String, inputIndex: UInt16 = 0, progress: ImportProgress? = nil
    ) throws(ImportError) -> ImportedInput {
        try read(path: path, compression: nil, inputIndex: inputIndex, progress: progress)
    }

    /// Reads the file at `path`, stored as `compression` says (`nil`: as its first bytes say).
    static func read(
        path: String, compression: InputSource.Compression?, inputIndex: UInt16, progress: ImportProgress?
    ) throws(ImportError) -> ImportedInput {
        try InputBytes.importing(path: path, compression: compression, progress: progress) { file throws(ImportError) in
            var file = file
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                var read: Result<Int, ImportError> = .success(0)
                chunk.withUnsafeMutableBytes { buffer in read = Result { () throws(ImportError) in try file.read(into: buffer) } }
                let count = try read.get()
                if count == 0 { break }
                bytes += chunk[..<count]
                guard bytes.count <= maximumSize else {
                    throw .badData(
                        path: path, location: "byte \(maximumSize)",
                        reason: "the file is larger than \(maximumSize >> 20) MiB, far more than any MetricKit payload")
                }
            }
            return try read(bytes: bytes, path: path, inputIndex: inputIndex)
        }
    }

    /// Reads MetricKit JSON held in memory, as if read from a file at `path`.
    public static func read(bytes: [UInt8], path: String, inputIndex: UInt16 = 0) throws(ImportError) -> ImportedInput {
        let locator = LineLocator(bytes)
        let document: MetricKitJSON
        do {
            document = try MetricKitJSON.parse(bytes)
        } catch {
            let reason = error.isCutOff ? "the file ends before its JSON is complete: \(error.message)" : error.message
            throw .badData(path: path, location: locator.location(error.offset), reason: reason)
        }
        var reader = MetricKitPayloadReader(path: path, bytes: bytes)
        try reader.read(document)
        var timeline = Timeline()
        let aggregates = reader.aggregates
        timeline.aggregates = aggregates
        timeline.wallClockStart = aggregates.windowStart
        var diagnostics = reader.diagnostics
        if let start = aggregates.windowStart, let end = aggregates.windowEnd, end > start {
            let (length, overflow) = end.subtractingReportingOverflow(start)
            if overflow {
                diagnostics.record(
                    .warning, code: "window-too-long",
                    message: "the payloads' time stamps are 292 years or more apart, more than a timeline holds; the window's length was not used",
                    count: 1)
            } else {
                timeline.end = length
            }
        }
        timeline.finish(diagnostics: &diagnostics)
        let info = InputInfo(
            path: path, format: InputFormat.metrickit.rawValue, wallClockStart: aggregates.windowStart,
            process: aggregates.metadata.bundleIdentifier, deviceHint: nil, diagnostics: diagnostics)
        return ImportedInput(timeline: timeline, info: info)
    }
}
