import DrainTrace

/// Reads Chrome Trace Event Format files (JSON, or gzip-compressed JSON) into a `Timeline`:
/// the traces of Chrome, Perfetto's JSON export, catapult, speedscope, Hermes and the many
/// tracers that write the format. docs/chrome-trace.md says how each phase is mapped.
///
/// The file is streamed: memory is one read chunk, the largest single event or top-level
/// value (at most `ChromeTextWindow.maximumValueLength`), and the events themselves, which
/// are held until the end since Chrome traces need not be sorted. Events are scanned in place
/// by the same JSON scanner as Drain traces, O(n) in the file's bytes, plus O(e log e) to
/// pair, flatten and sort e events.
public struct ChromeTraceImporter: Sendable {
    static let defaultChunkSize = 1 << 20

    public init() {}

    /// Reads the Chrome trace at `path`, decompressing it if it starts with gzip's magic bytes.
    ///
    /// - Parameters:
    ///   - inputIndex: the input's index in the analysis, stored in every row's `input` column.
    ///   - progress: told the bytes of the file read so far (compressed bytes for gzip).
    /// - Throws: `ImportError.unreadable` if the file cannot be opened or read (or is a
    ///   directory); `ImportError.badData` naming the line and column (of the decompressed
    ///   text for gzip) of the first problem, or the byte of damaged compressed data. A file
    ///   cut off inside the trace is not an error: the events before the cut are kept and a
    ///   `truncated` warning says so (and `gzip-truncated` when the compressed data ends early).
    public static func read(
        path: String, inputIndex: UInt16 = 0, progress: ImportProgress? = nil
    ) throws(ImportError) -> ImportedInput {
        try read(path: path, inputIndex: inputIndex, chunkSize: defaultChunkSize, progress: progress)
    }

    /// Reads a Chrome trace held in memory (plain or gzip-compressed), as if read from a file at `path`.
    public static func read(bytes: [UInt8], path: String, inputIndex: UInt16 = 0) throws(ImportError) -> ImportedInput {
        guard InputSource.compression(of: bytes) == .gzip else {
            return try read(source: MemoryByteSource(bytes), path: path, inputIndex: inputIndex, chunkSize: defaultChunkSize)
        }
        let decompressed = GzipByteSource(MemoryByteSource(bytes), path: path)
        var input = try read(source: decompressed, path: path, inputIndex: inputIndex, chunkSize: defaultChunkSize)
        decompressed.recordCutOff(in: &input.info.diagnostics)
        return input
    }

    /// Reads the (decompressed) text of a trace from any byte source.
    static func read<Source: ByteSource>(
        source: Source, path: String, inputIndex: UInt16, chunkSize: Int
    ) throws(ImportError) -> ImportedInput {
        try ChromeTraceParser(source: source, path: path, inputIndex: inputIndex, chunkSize: chunkSize).parse().finish()
    }
}
