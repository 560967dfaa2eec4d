#if os(Linux)
#if canImport(Glibc)
import Glibc
#endif

/// The header line of a recorded trace.
extension JSONLine {
    /// The format version the recorder writes (docs/trace-format.md).
    static let traceVersion: Int64 = 1

    /// `{"drain_trace":1,"process":…,"pid":…,"start":"YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ"}\n`,
    /// `start` being the wall-clock time of `t` = 0 in UTC.
    mutating func header(process: String, pid: Int32, wallClockStart: Int64) {
        raw(#"{"drain_trace":"#)
        integer(Self.traceVersion)
        raw(#","process":"#)
        string(process)
        raw(#","pid":"#)
        integer(Int64(pid))
        raw(#","start":""#)
        timestamp(wallClockStart)
        raw("\"}\n")
    }

    /// RFC 3339 in UTC with nanoseconds.
    private mutating func timestamp(_ nanosecondsSinceEpoch: Int64) {
        let seconds = nanosecondsSinceEpoch.quotientAndRemainder(dividingBy: 1_000_000_000)
        var time = time_t(seconds.quotient)
        var fields = tm()
        gmtime_r(&time, &fields)
        padded(Int64(fields.tm_year) + 1900, digits: 4)
        byte(UInt8(ascii: "-"))
        padded(Int64(fields.tm_mon) + 1, digits: 2)
        byte(UInt8(ascii: "-"))
        padded(Int64(fields.tm_mday), digits: 2)
        byte(UInt8(ascii: "T"))
        padded(Int64(fields.tm_hour), digits: 2)
        byte(UInt8(ascii: ":"))
        padded(Int64(fields.tm_min), digits: 2)
        byte(UInt8(ascii: ":"))
        padded(Int64(fields.tm_sec), digits: 2)
        byte(UInt8(ascii: "."))
        padded(seconds.remainder, digits: 9)
        byte(UInt8(ascii: "Z"))
    }

    private mutating func padded(_ value: Int64, digits: Int) {
        var width = 1
        var rest = value / 10
        while rest != 0 {
            width += 1
            rest /= 10
        }
        for _ in width..<max(width, digits) { byte(UInt8(ascii: "0")) }
        integer(value)
    }
}
#endif
