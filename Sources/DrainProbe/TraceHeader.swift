#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The first line of a trace: `{"drain_trace":1,"process":…,"pid":…,"device":…,"start":…}`.
enum TraceHeader {
    /// The format version this probe writes (docs/trace-format.md).
    static let version: Int64 = 1

    /// Formats the header into `body`'s argument, which is valid until `body` returns.
    ///
    /// `start` is the wall-clock time of `t` = 0 in UTC with nanoseconds,
    /// e.g. `2026-11-22T10:00:00.123456789Z`.
    static func withHeader<Result>(
        process: String?, device: String?, wallSeconds: Int64, wallNanoseconds: Int64,
        _ body: (UnsafeRawBufferPointer) throws(DrainProbeError) -> Result
    ) throws(DrainProbeError) -> Result {
        let bound = 160 + (process.map(LineFormatter.bound(of:)) ?? 0) + (device.map(LineFormatter.bound(of:)) ?? 0)
        let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: bound)
        defer { memory.deallocate() }
        var line = LineFormatter(memory)
        line.raw(#"{"drain_trace":"#)
        line.integer(version)
        if let process {
            line.raw(#","process":"#)
            line.string(process)
        }
        line.raw(#","pid":"#)
        line.integer(Int64(getpid()))
        if let device {
            line.raw(#","device":"#)
            line.string(device)
        }
        line.raw(#","start":""#)
        writeTimestamp(seconds: wallSeconds, nanoseconds: wallNanoseconds, to: &line)
        line.raw("\"}\n")
        return try body(line.written)
    }

    /// RFC 3339 in UTC: `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ`.
    private static func writeTimestamp(seconds: Int64, nanoseconds: Int64, to line: inout LineFormatter) {
        var time = time_t(seconds)
        var fields = tm()
        gmtime_r(&time, &fields)
        padded(Int64(fields.tm_year) + 1900, digits: 4, to: &line)
        line.byte(UInt8(ascii: "-"))
        padded(Int64(fields.tm_mon) + 1, digits: 2, to: &line)
        line.byte(UInt8(ascii: "-"))
        padded(Int64(fields.tm_mday), digits: 2, to: &line)
        line.byte(UInt8(ascii: "T"))
        padded(Int64(fields.tm_hour), digits: 2, to: &line)
        line.byte(UInt8(ascii: ":"))
        padded(Int64(fields.tm_min), digits: 2, to: &line)
        line.byte(UInt8(ascii: ":"))
        padded(Int64(fields.tm_sec), digits: 2, to: &line)
        line.byte(UInt8(ascii: "."))
        padded(nanoseconds, digits: 9, to: &line)
        line.byte(UInt8(ascii: "Z"))
    }

    /// `value` (≥ 0) with leading zeros to at least `digits` digits.
    private static func padded(_ value: Int64, digits: Int, to line: inout LineFormatter) {
        var width = 1
        var rest = value / 10
        while rest != 0 {
            width += 1
            rest /= 10
        }
        for _ in width..<max(width, digits) { line.byte(UInt8(ascii: "0")) }
        line.integer(value)
    }
}
