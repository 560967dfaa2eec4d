#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
public enum ChromeTraceImporter {
    static let defaultChunkSize = 1 << 20

    /// Reads the Chrome trace at `path`, decompressing it if it starts with gzip's magic bytes.
    ///
    /// - Parameters:
    ///   - inputIndex: the input's index in the analysis, stored in every row's `input` column.
    ///   - progress: told the bytes of the file read so far (compressed bytes for gzip).
    /// - Throws: `ImportError.unreadable` if the file cannot be opened or read (or is a
    ///   directory); `ImportError.badData` naming the line and column (of the decompressed
    ///   text for gzip) of the first problem, or the byte of damaged compressed data. A file
    ///   cut off inside the trace is not an error: the events before the cut are kept and a
    ///   `truncated` warning says so.
    public static func read(
        path: String, inputIndex: UInt16 = 0, progress: ImportProgress? = nil
    ) throws(ImportError) -> ImportedInput {
        try read(path: path, inputIndex: inputIndex, chunkSize: defaultChunkSize, progress: progress)
    }

    /// Reads a Chrome trace held in memory, as if read from a file at `path`.
    public static func read(bytes: [UInt8], path: String, inputIndex: UInt16 = 0) throws(ImportError) -> ImportedInput {
        try read(
            source: MemoryByteSource(bytes), isCompressed: bytes.starts(with: GzipByteSource<MemoryByteSource>.magic),
            path: path, inputIndex: inputIndex, chunkSize: defaultChunkSize)
    }

    /// Reads the file at `path` in reads of `chunkSize` bytes (small sizes let tests put
    /// chunk boundaries anywhere).
    static func read(
        path: String, inputIndex: UInt16, chunkSize: Int, progress: ImportProgress? = nil
    ) throws(ImportError) -> ImportedInput {
        let file = try FileByteSource(path: path)
        defer { file.close() }
        // pread leaves the file offset alone; a pipe, which has none, is read as plain text.
        var magic: (UInt8, UInt8) = (0, 0)
        let isCompressed = withUnsafeMutableBytes(of: &magic) { pread(file.descriptor, $0.baseAddress, 2, 0) } == 2
            && [magic.0, magic.1] == GzipByteSource<FileByteSource>.magic
        guard let progress else {
            return try read(source: file, isCompressed: isCompressed, path: path, inputIndex: inputIndex, chunkSize: chunkSize)
        }
        return try read(
            source: ProgressByteSource(file, progress: progress), isCompressed: isCompressed, path: path,
            inputIndex: inputIndex, chunkSize: chunkSize)
    }

    /// The common path of the entry points.
    static func read<Source: ByteSource>(
        source: Source, isCompressed: Bool, path: String, inputIndex: UInt16, chunkSize: Int
    ) throws(ImportError) -> ImportedInput {
        guard isCompressed else {
            return try ChromeTraceParser(source: source, path: path, inputIndex: inputIndex, chunkSize: chunkSize)
                .parse().finish()
        }
        let decompressed = GzipByteSource(source, path: path)
        var assembler = try ChromeTraceParser(source: decompressed, path: path, inputIndex: inputIndex, chunkSize: chunkSize)
            .parse()
        if decompressed.isCutOff {
            assembler.diagnostics.record(
                .warning, code: "gzip-truncated",
                message: "the compressed data ends early (the file is cut off); what it held up to there was read")
        }
        return assembler.finish()
    }
}
