import DrainTrace

/// Reads Drain traces (JSON Lines, docs/trace-format.md) into a `Timeline`.
///
/// The file is streamed in fixed-size chunks (decompressed as it is read when it is
/// gzip-compressed): memory is one chunk buffer, one scratch buffer and the timeline itself,
/// whatever the file's size. Each line is parsed by a
/// hand-written JSON scanner straight from the buffer, O(n) in the file's bytes, with no
/// allocation per event besides the timeline's column growth.
public struct DrainTraceImporter: Sendable {
    /// The highest `drain_trace` major version this reader understands.
    public static let supportedVersion: Int64 = 1

    /// The size of the reads from the file.
    static let defaultChunkSize = 1 << 20

    public init() {}

    /// Reads the Drain trace at `path`, decompressing it if it starts with gzip's magic bytes.
    /// A plain file of 16 MiB or more is parsed in two halves on two threads.
    ///
    /// - Parameter inputIndex: the input's index in the analysis, stored in every row's
    ///   `input` column.
    /// - Throws: `ImportError.unreadable` if the file cannot be opened or read (or is a
    ///   directory); `ImportError.badData` naming the line and column of the first problem
    ///   (of the decompressed text for gzip), or the byte of damaged compressed data,
    ///   otherwise. A cut-off last line is not an error: it becomes a `truncated` warning
    ///   (and compressed data that ends early a `gzip-truncated` warning).
    /// - Parameter progress: told the bytes of the file read so far after each chunk
    ///   (compressed bytes for gzip).
    public static func read(
        path: String, inputIndex: UInt16 = 0, progress: ImportProgress? = nil
    ) throws(ImportError) -> ImportedInput {
        try readFile(path: path, compression: nil, inputIndex: inputIndex, progress: progress)
    }

    /// Reads a Drain trace held in memory, as if read from a file at `path`.
    public static func read(bytes: [UInt8], path: String, inputIndex: UInt16 = 0) throws(ImportError) -> ImportedInput {
        try read(source: MemoryByteSource(bytes), path: path, inputIndex: inputIndex, chunkSize: defaultChunkSize)
    }

    /// Reads a trace from any byte source; the common path of the public entry points.
    static func read<Source: ByteSource>(
        source: Source, path: String, inputIndex: UInt16, chunkSize: Int
    ) throws(ImportError) -> ImportedInput {
        var lines = LineReader(source: source, path: path, chunkSize: chunkSize)
        var parser = DrainTraceParser(path: path, inputIndex: inputIndex)
        let header = try readHeader(from: &lines, into: &parser, path: path)
        if let cutOff = try readEvents(from: &lines, into: &parser, path: path) {
            parser.recordCutOff(cutOff)
        }
        return parser.finish(header: header)
    }

    /// Reads lines up to the first that is not blank and parses it as the header.
    static func readHeader<Source: ByteSource>(
        from lines: inout LineReader<Source>, into parser: inout DrainTraceParser, path: String
    ) throws(ImportError) -> DrainTraceHeader {
        var sawAnyLine = false
        while let line = try lines.nextLine() {
            sawAnyLine = true
            let start = line.number == 1 ? byteOrderMarkLength(line.bytes) : 0
            if isBlank(line.bytes, from: start) { continue }
            do {
                return try parser.parseHeader(line, from: start)
            } catch {
                throw .badData(path: path, location: error.location(line: line.number), reason: error.message)
            }
        }
        let reason = sawAnyLine ? "the file holds only blank lines, expected a drain_trace header" : "empty file, expected a drain_trace header"
        throw .badData(path: path, location: nil, reason: reason)
    }

    /// Parses every remaining line as an event. Returns the last line when it is cut off
    /// (unterminated and ending where more JSON was expected: the events before it are
    /// kept); throws for any other bad line. The timeline's columns are reserved once, from
    /// the length of the first lines and the source's size.
    static func readEvents<Source: ByteSource>(
        from lines: inout LineReader<Source>, into parser: inout DrainTraceParser, path: String
    ) throws(ImportError) -> CutOffLine? {
        var estimate = CapacityEstimate()
        while let line = try lines.nextLine() {
            if isBlank(line.bytes, from: 0) { continue }
            if let events = estimate.measure(lineLength: line.bytes.count, inputSize: lines.sourceSize) {
                parser.timeline.reserveCapacity(events)
            }
            do {
                try parser.parseEvent(line)
            } catch {
                if !line.isTerminated && error.isCutOff { return CutOffLine(error: error, line: line.number) }
                throw .badData(path: path, location: error.location(line: line.number), reason: error.message)
            }
        }
        return nil
    }

    /// 3 if the bytes start with a UTF-8 byte order mark, else 0.
    private static func byteOrderMarkLength(_ bytes: UnsafeRawBufferPointer) -> Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    @inline(__always)
    private static func isBlank(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Bool {
        var index = start
        while index < bytes.count {
            if !ASCII.isBlank(bytes[index]) { return false }
            index += 1
        }
        return true
    }
}
