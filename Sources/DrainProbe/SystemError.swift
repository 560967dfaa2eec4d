/// An `errno` value from a failed system call, inside the probe before it becomes a
/// `DrainProbeError` naming the trace.
struct SystemError: Error {
    var code: Int32
}
