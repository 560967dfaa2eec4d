/// The input formats Drain knows, by the names reports use for them.
public enum InputFormat: String, Sendable, CaseIterable {
    case drainTrace = "drain-trace"
    case pcap
    case pcapng
    case strace
    case metrickit
    case chromeTrace = "chrome-trace"

    /// How many leading bytes `detect(path:)` looks at.
    static let sniffLength = 64 << 10

    /// Recognises the format of the file at `path` from its first bytes (at most 64 KiB),
    /// not from its name.
    ///
    /// - pcap: the magic number `a1b2c3d4` (microseconds) or `a1b23c4d` (nanoseconds), in
    ///   either byte order;
    /// - pcapng: a Section Header Block, `0a0d0d0a`;
    /// - Drain trace: a first line that is a JSON object with a `drain_trace` field;
    /// - Chrome trace: a JSON object with `traceEvents`, or a JSON array of objects with `ph`,
    ///   plain or gzip-compressed;
    /// - MetricKit: JSON with MetricKit payload or diagnostic keys (`timeStampBegin`,
    ///   `crashDiagnostics`, `cpuMetrics`, `callStackTree`…);
    /// - strace: lines that look like strace output (`[pid] [time] syscall(…) = …`), or an
    ///   `strace -c` summary table.
    ///
    /// - Throws: `ImportError.unreadable` if the file cannot be read,
    ///   `ImportError.unknownFormat` naming what the file starts with otherwise.
    public static func detect(path: String) throws(ImportError) -> InputFormat {
        var file = try FileByteSource(path: path)
        defer { file.close() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: sniffLength, alignment: 1)
        defer { buffer.deallocate() }
        var filled = 0
        while filled < buffer.count {
            let count = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if count == 0 { break }
            filled += count
        }
        let head = Array(buffer[..<filled])
        if let format = FormatSniffer(head).format { return format }
        // Chrome traces may be gzip-compressed: look at the start of the decompressed text.
        if head.starts(with: GzipByteSource<MemoryByteSource>.magic),
            FormatSniffer(GzipByteSource<MemoryByteSource>.prefix(of: head, limit: sniffLength)).format == .chromeTrace
        {
            return .chromeTrace
        }
        throw .unknownFormat(path: path, reason: FormatSniffer(head).unrecognisedReason)
    }
}
