import DrainTrace

/// One process of the recorded tree: its task directory, its io file, its threads and its
/// write counters at the last sample.
struct SampledProcess {
    let pid: Int32
    let tasks: ProcDirectory
    /// `/proc/PID/stat`, for the CPU time of reaped children.
    let stat: ProcFile?
    /// Nil when the kernel refuses it (a set-user-id program); its writes are then not seen.
    let io: ProcFile?
    var threads: [SampledThread] = []
    /// The parent at the last sample.
    var parentPID: Int32?
    var writeBytes: Int64 = 0
    var writeCalls: Int64 = 0
    /// Writes of reaped children that were already reported for the child: when a process
    /// reaps a child, the kernel adds the child's io counters to the parent's, and this
    /// much of the parent's next growth must not be reported a second time.
    var reportedChildBytes: Int64 = 0
    var reportedChildCalls: Int64 = 0

    init?(pid: Int32) {
        guard let tasks = ProcDirectory(path: "/proc/\(pid)/task") else { return nil }
        self.pid = pid
        self.tasks = tasks
        io = ProcFile(path: "/proc/\(pid)/io")
        stat = ProcFile(path: "/proc/\(pid)/stat")
    }

    /// CPU reported for this process's own threads so far.
    var reportedCPU: Nanoseconds = 0
    /// The reaped children's CPU (`cutime` + `cstime`) at the last sample.
    var childrenCPU: Nanoseconds = 0
    /// CPU of reaped children already reported (for the children themselves), to deduct
    /// from the growth of `childrenCPU` as the writes are from `write_bytes`.
    var reportedChildCPU: Nanoseconds = 0

    /// The CPU of reaped children since the last read that was not already reported for
    /// them: children too short-lived to be sampled, and the last partial interval of those
    /// that were. Nil when the stat file cannot be read.
    mutating func sampleReapedChildren(buffer: UnsafeMutableRawBufferPointer, nanosecondsPerTick: Int64) -> Nanoseconds? {
        guard let stat, let ticks = stat.read(into: buffer, { ProcStat.parse($0)?.childrenTicks }) ?? nil else { return nil }
        let total = ticks * nanosecondsPerTick
        var growth = max(0, total - childrenCPU)
        childrenCPU = max(childrenCPU, total)
        let deducted = min(growth, reportedChildCPU)
        growth -= deducted
        reportedChildCPU -= deducted
        return growth
    }

    /// The main thread, whose status also carries the process's state, parent and resident
    /// set size.
    var leader: SampledThread? { threads.first { $0.thread == pid } }

    /// Reads the io counters; returns the growth of `write_bytes` and `syscw` since the last
    /// read, or nil when they cannot be read.
    mutating func sampleWrites(buffer: UnsafeMutableRawBufferPointer) -> (bytes: Int64, calls: Int64)? {
        guard let io, let counters = io.read(into: buffer, ProcIO.parse) ?? nil else { return nil }
        var bytes = max(0, counters.writeBytes - writeBytes)
        var calls = max(0, counters.writeCalls - writeCalls)
        writeBytes = counters.writeBytes
        writeCalls = counters.writeCalls
        let deductedBytes = min(bytes, reportedChildBytes)
        let deductedCalls = min(calls, reportedChildCalls)
        bytes -= deductedBytes
        calls -= deductedCalls
        reportedChildBytes -= deductedBytes
        reportedChildCalls -= deductedCalls
        return (bytes, calls)
    }

    func close() {
        for thread in threads { thread.close() }
        tasks.close()
        io?.close()
        stat?.close()
    }
}
