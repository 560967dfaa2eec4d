#if os(Linux)
import DrainTrace

/// One thread being sampled: its open `/proc` files and its counters at the last sample.
struct SampledThread {
    let thread: Int32
    let schedstat: ProcFile
    let status: ProcFile
    /// Parsed in place every sample; `status.name` holds the raw name bytes.
    var parsed = ProcStatus(name: [], state: 0, parentPID: 0, residentBytes: nil, voluntarySwitches: 0)
    /// CPU nanoseconds and voluntary switches at the last sample (0 before the first: a
    /// thread of the recorded tree was born during the recording).
    var runtime: Nanoseconds = 0
    var switches: Int64 = 0
    /// The name as text, rebuilt only when the kernel's bytes change (an `exec`, a
    /// `prctl(PR_SET_NAME)`).
    var name = ""
    var nameBytes: [UInt8] = []
    /// The sampler pass that last listed this thread.
    var pass: UInt32 = 0

    init?(process: Int32, thread: Int32) {
        guard let schedstat = ProcFile(path: "/proc/\(process)/task/\(thread)/schedstat") else { return nil }
        guard let status = ProcFile(path: "/proc/\(process)/task/\(thread)/status") else {
            schedstat.close()
            return nil
        }
        self.thread = thread
        self.schedstat = schedstat
        self.status = status
    }

    /// Reads the thread's counters; returns its CPU time and voluntary switches since the
    /// last read, or nil when the thread is gone.
    mutating func sample(buffer: UnsafeMutableRawBufferPointer) -> (cpu: Nanoseconds, wakeups: Int64)? {
        guard let runtime = schedstat.read(into: buffer, ProcSchedstat.parseRuntime) ?? nil,
            status.read(into: buffer, { parsed.update(from: $0) }) == true
        else { return nil }
        if parsed.name != nameBytes {
            nameBytes = parsed.name
            name = String(decoding: nameBytes, as: UTF8.self)
        }
        let delta = (max(0, runtime - self.runtime), max(0, parsed.voluntarySwitches - switches))
        self.runtime = runtime
        switches = parsed.voluntarySwitches
        return delta
    }

    func close() {
        schedstat.close()
        status.close()
    }
}
#endif
