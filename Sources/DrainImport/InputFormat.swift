/// The input formats Drain knows, by the names reports use for them. `Importers.all` holds
/// the importer of each.
public enum InputFormat: String, Sendable, CaseIterable {
    case drainTrace = "drain-trace"
    case pcap
    case pcapng
    case strace
    case metrickit
    case chromeTrace = "chrome-trace"

    /// Recognises the format of the file at `path` from its first bytes (at most 64 KiB;
    /// those of the decompressed data when it is gzip-compressed), not from its name, by
    /// asking each importer of `Importers.all` in turn:
    ///
    /// - Drain trace: a first line that is a JSON object with a `drain_trace` field;
    /// - pcap: the magic number `a1b2c3d4` (microseconds), `a1b23c4d` (nanoseconds) or
    ///   `a1b2cd34` (Kuznetsov's modified pcap), in either byte order;
    /// - pcapng: a Section Header Block, `0a0d0d0a`;
    /// - Chrome trace: a JSON object with `traceEvents`, or a JSON array of objects with `ph`;
    /// - MetricKit: JSON with MetricKit payload or diagnostic keys (`timeStampBegin`,
    ///   `crashDiagnostics`, `cpuMetrics`, `callStackTree`…);
    /// - strace: lines that look like strace output (`[pid] [time] syscall(…) = …`), or an
    ///   `strace -c` summary table.
    ///
    /// - Throws: `ImportError.unreadable` if the file cannot be read, `.badData` if the start
    ///   of its gzip data is damaged, `.unknownFormat` naming what the file starts with
    ///   otherwise.
    /// A stream is judged by its copy (`StreamInputs`), which a later read then uses.
    public static func detect(path: String) throws(ImportError) -> InputFormat {
        let readable = try StreamInputs.readablePath(for: path)
        do {
            return try Importers.detect(path: readable).importer.format
        } catch {
            throw readable == path ? error : error.naming(path)
        }
    }
}
