#if os(Linux)
/// `/proc/loadavg`: `0.77 2.06 2.04 3/245 32640`, the last field being the pid (or thread
/// id) the kernel handed out most recently in the reader's pid namespace.
public enum ProcLoadavg {
    /// The last field; nil when the text does not end in a number.
    public static func lastPID(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        var end = bytes.count
        while end > 0, !ProcText.isDigit(bytes[end - 1]) { end -= 1 }
        var start = end
        while start > 0, ProcText.isDigit(bytes[start - 1]) { start -= 1 }
        guard start < end, start == 0 || ProcText.isBlank(bytes[start - 1]) else { return nil }
        return ProcText.number(bytes, from: start)?.value
    }
}
#endif
