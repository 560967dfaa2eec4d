#if os(Linux)
/// `/proc/PID/task/TID/schedstat`: `runtime run-delay timeslices`, the first being the
/// nanoseconds the thread has spent on a CPU (finer than stat's 10 ms clock ticks).
public enum ProcSchedstat {
    /// The CPU time in nanoseconds; nil when the text does not start with a number.
    public static func parseRuntime(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        ProcText.number(bytes, from: 0)?.value
    }
}
#endif
