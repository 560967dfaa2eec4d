#if os(Linux)
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

    /// The main thread, whose status also carries the process's state, parent and resident
    /// set size.
    var leader: SampledThread? { threads.first { $0.thread == pid } }

    /// The io counters now; nil when they cannot be read.
    func readIO(buffer: UnsafeMutableRawBufferPointer) -> ProcIO? {
        io?.read(into: buffer, ProcIO.parse) ?? nil
    }

    /// The reaped children's CPU ticks (`cutime` + `cstime`) now; nil when unreadable.
    func readChildrenTicks(buffer: UnsafeMutableRawBufferPointer) -> Int64? {
        stat?.read(into: buffer, { ProcStat.parse($0)?.childrenTicks }) ?? nil
    }

    /// Whether the process still exists (a zombie does; a reaped process does not).
    func exists(buffer: UnsafeMutableRawBufferPointer) -> Bool {
        stat?.read(into: buffer, { _ in true }) ?? false
    }

    /// The growth of `write_bytes` and `syscw` since the last counters, less what was
    /// already reported for reaped children.
    mutating func writes(since counters: ProcIO) -> (bytes: Int64, calls: Int64) {
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

    /// The CPU of reaped children since the last counters that was not already reported
    /// for them: children too short-lived to be sampled, and the last partial interval of
    /// those that were.
    mutating func reapedChildrenCPU(ticks: Int64, nanosecondsPerTick: Int64) -> Nanoseconds {
        let total = ticks * nanosecondsPerTick
        var growth = max(0, total - childrenCPU)
        childrenCPU = max(childrenCPU, total)
        let deducted = min(growth, reportedChildCPU)
        growth -= deducted
        reportedChildCPU -= deducted
        return growth
    }

    func close() {
        for thread in threads { thread.close() }
        tasks.close()
        io?.close()
        stat?.close()
    }
}
#endif
