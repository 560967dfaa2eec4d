import DrainTrace

/// Reads strace text output (`strace -f -ttt -T -yy -o FILE cmd`) into a `Timeline`:
/// timeouts of poll, select, epoll and sleeps become `poll` events, readiness after a wait
/// `wakeup` events, reads and writes of files `disk` events, sends and receives on internet
/// sockets `net` events, signals `wakeup` events. `docs/strace.md` lists every mapping.
///
/// The file is streamed in fixed-size chunks (decompressed as it is read when it is
/// gzip-compressed) and read line by line in place. Memory is one
/// chunk buffer, the calls waiting for their `resumed` line, the descriptor tables of the
/// live processes and the timeline itself, whatever the file's size. O(n) in the file's
/// bytes, plus O(e log e) to order e events by the time their calls returned.
public struct StraceImporter: Sendable {
    /// The size of the reads from the file.
    static let defaultChunkSize = 1 << 20

    public init() {}

    /// Reads the strace output at `path`, decompressing it if it starts with gzip's magic bytes.
    ///
    /// - Parameters:
    ///   - inputIndex: the input's index in the analysis, stored in every row's `input` column.
    ///   - progress: told the bytes of the file read so far after each chunk (compressed
    ///     bytes for gzip).
    /// - Throws: `ImportError.unreadable` if the file cannot be opened or read;
    ///   `ImportError.badData` naming the line and column when the file is not strace output,
    ///   is an `strace -c` summary, or has no timestamps. Later lines that are not strace's are
    ///   skipped and counted (`malformed-line`); a cut-off last line is a `truncated` warning,
    ///   compressed data that ends early a `gzip-truncated` warning. Damaged compressed data
    ///   is `badData` naming its byte.
    public static func read(
        path: String, inputIndex: UInt16 = 0, progress: ImportProgress? = nil
    ) throws(ImportError) -> ImportedInput {
        try read(path: path, inputIndex: inputIndex, chunkSize: defaultChunkSize, progress: progress)
    }

    /// Reads strace output held in memory, as if read from a file at `path`.
    public static func read(bytes: [UInt8], path: String, inputIndex: UInt16 = 0) throws(ImportError) -> ImportedInput {
        try read(source: MemoryByteSource(bytes), path: path, inputIndex: inputIndex, chunkSize: defaultChunkSize)
    }

    /// Reads from any byte source in reads of `chunkSize` bytes (small sizes let tests put
    /// chunk boundaries anywhere).
    static func read<Source: ByteSource>(
        source: Source, path: String, inputIndex: UInt16, chunkSize: Int
    ) throws(ImportError) -> ImportedInput {
        var lines = LineReader(source: source, path: path, chunkSize: chunkSize)
        var parser = StraceParser(path: path, inputIndex: inputIndex)
        while let line = try lines.nextLine() {
            try parser.consume(line)
        }
        return try parser.finish()
    }
}
