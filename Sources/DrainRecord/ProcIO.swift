#if os(Linux)
/// The write counters of `/proc/PID/io` (all threads of the process, live and exited).
public struct ProcIO: Equatable, Sendable {
    /// `write_bytes`: bytes this process caused to be sent to the storage layer, counted when
    /// it dirtied page-cache pages (so page-sized, and before the device write happens).
    public var writeBytes: Int64
    /// `cancelled_write_bytes`: dirtied bytes that were never written (file truncated or
    /// deleted first).
    public var cancelledWriteBytes: Int64
    /// `syscw`: write-family system calls on any descriptor (files, pipes, sockets, ttys).
    public var writeCalls: Int64

    public init(writeBytes: Int64, cancelledWriteBytes: Int64, writeCalls: Int64) {
        self.writeBytes = writeBytes
        self.cancelledWriteBytes = cancelledWriteBytes
        self.writeCalls = writeCalls
    }

    /// Parses the text of an io file; nil without `write_bytes:` and `syscw:`. O(n).
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> ProcIO? {
        var writeBytes: Int64?
        var cancelled: Int64 = 0
        var calls: Int64?
        ProcText.forEachLine(bytes) { line in
            if let value = ProcText.value(line, key: "write_bytes:") {
                writeBytes = value
            } else if let value = ProcText.value(line, key: "syscw:") {
                calls = value
            } else if let value = ProcText.value(line, key: "cancelled_write_bytes:") {
                cancelled = value
            }
        }
        guard let writeBytes, let calls else { return nil }
        return ProcIO(writeBytes: writeBytes, cancelledWriteBytes: cancelled, writeCalls: calls)
    }
}
#endif
