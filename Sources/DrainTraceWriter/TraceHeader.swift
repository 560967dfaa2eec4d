/// The first line of a Drain trace:
/// `{"drain_trace":1,"process":…,"pid":…,"device":…,"start":"…"}` (docs/trace-format.md).
public enum TraceHeader {
    /// The format version the writers write.
    public static let version: Int64 = 1

    /// The most bytes `write(process:pid:device:startNanosecondsSinceEpoch:to:)` writes.
    /// O(1) for native strings.
    public static func bound(process: String?, device: String?) -> Int {
        160 + JSONFormatter.bound(of: process) + JSONFormatter.bound(of: device)
    }

    /// Writes the header line, newline included: `start` is the wall-clock time of `t` = 0
    /// (nanoseconds since the Unix epoch), written in UTC with nanoseconds. Fields that are
    /// nil are left out.
    public static func write(
        process: String?, pid: Int64?, device: String?, startNanosecondsSinceEpoch start: Int64?,
        to line: inout JSONFormatter
    ) {
        line.raw("{")
        line.quoted(TraceKey.drainTrace.name)
        line.raw(":")
        line.integer(version)
        line.field(.process, process)
        if let pid { line.integer(.pid, pid) }
        line.field(.device, device)
        if let start {
            line.key(.start)
            line.byte(UInt8(ascii: "\""))
            line.timestamp(nanosecondsSinceEpoch: start)
            line.byte(UInt8(ascii: "\""))
        }
        line.endLine()
    }
}
