#if os(Linux)
#if canImport(Glibc)
import Glibc
#endif
import DrainTrace

/// What `drain record` records and where it writes.
public struct RecordOptions: Sendable {
    /// The command and its arguments; the first is searched on `PATH`.
    public var command: [String]
    /// The trace to write (`.jsonl`).
    public var outputPath: String
    /// The time between samples.
    public var interval: Nanoseconds
    /// Whether to run the command under `strace` and merge its system calls into the trace.
    public var strace: Bool
    /// The network interface to capture packets on, if any.
    public var captureInterface: String?
    /// Told progress and status lines (the CLI prints them on standard error); nil for none.
    public var status: (@Sendable (String) -> Void)?

    public init(
        command: [String], outputPath: String, interval: Nanoseconds = RecordInterval.defaultInterval, strace: Bool = false,
        captureInterface: String? = nil, status: (@Sendable (String) -> Void)? = nil
    ) {
        self.command = command
        self.outputPath = outputPath
        self.interval = interval
        self.strace = strace
        self.captureInterface = captureInterface
        self.status = status
    }

    /// Where the packet capture goes: the trace's path with `.jsonl` replaced by `.pcap`
    /// (`run.jsonl` → `run.pcap`), or `.pcap` appended to any other name.
    public var capturePath: String {
        outputPath.hasSuffix(".jsonl") ? String(outputPath.dropLast(6)) + ".pcap" : outputPath + ".pcap"
    }

    /// `drain-record-YYYYMMDD-HHMMSS.jsonl` (local time), for when no output is given.
    public static func defaultOutputPath() -> String {
        var now = time(nil)
        var fields = tm()
        localtime_r(&now, &fields)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "drain-record-%Y%m%d-%H%M%S.jsonl", &fields)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
#endif
