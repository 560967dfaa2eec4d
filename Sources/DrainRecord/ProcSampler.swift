#if os(Linux)
#if canImport(Glibc)
import Glibc
#endif
import DrainTrace

/// Samples the recorded process tree from `/proc`: per thread CPU time (schedstat) and
/// voluntary context switches (status), per process `write_bytes`/`syscw` (io) and resident
/// set size (the main thread's status), and the network interfaces' byte counters.
///
/// Files stay open between samples and are re-read with `pread` into one buffer; a sample
/// allocates nothing unless a process, thread or interface appeared or a name changed.
/// `/proc` and the task folders are listed again only when the kernel has created a process
/// or thread since the last listing (the last pid in `/proc/loadavg` moved). O(t) per
/// sample for t threads in the tree, plus O(p) for p processes on the system when listing.
struct ProcSampler {
    private var tree: ProcessTree
    /// The spawned process, which the recorder reaps itself after the last sample.
    let root: Int32
    /// A member of the tree that is not sampled itself (strace, under `--strace`).
    private let excluded: Int32?
    private var processes: [SampledProcess] = []
    private var network = NetworkCounters()
    /// `/proc/loadavg`, whose last field is the last pid (or thread id) the kernel handed out.
    private let loadavg = ProcFile(path: "/proc/loadavg")
    /// That pid when /proc was last listed.
    private var listedAfterPID: Int64?
    private var joined: [Int32] = []
    private var pass: UInt32 = 0
    private let buffer: UnsafeMutableRawBufferPointer
    private let nanosecondsPerTick = 1_000_000_000 / Int64(max(1, sysconf(Int32(_SC_CLK_TCK))))

    /// The name of the `cpu` slices of reaped children, on their parent's thread id.
    static let reapedChildrenName = "reaped children"

    /// Starts following the tree under `root`; `excluding` names a member whose own
    /// activity is not recorded (its descendants are).
    init(root: Int32, excluding excluded: Int32? = nil) {
        tree = ProcessTree(root: root)
        self.root = root
        self.excluded = excluded
        buffer = .allocate(byteCount: 16 * 1024, alignment: 8)
        joined.reserveCapacity(16)
        processes.reserveCapacity(16)
        // Start the interfaces' counters now, so the first interval has deltas.
        var ignored: [IntervalSample.InterfaceTraffic] = []
        network.sample(buffer: buffer, into: &ignored)
        joined.append(root)
        addJoined()
    }

    /// The first process sampled: the command (under `--strace`, the process strace
    /// started), nil until it has been seen.
    private(set) var commandPID: Int32?

    /// Takes one sample into `sample` (already reset for its interval).
    mutating func sample(into sample: inout IntervalSample) {
        // Listing /proc and the task folders is most of a sample's cost; it can only find
        // something new when a process or thread was created since the last listing.
        let lastPID = loadavg?.read(into: buffer, ProcLoadavg.lastPID) ?? nil
        let listing = lastPID == nil || lastPID != listedAfterPID
        if listing {
            listedAfterPID = lastPID
            tree.refresh(joined: &joined)
            addJoined()
        }
        pass &+= 1
        var resident: Int64 = 0
        var anyResident = false
        // Newest first: children joined after their parents, so a child that was reaped is
        // found gone, and its writes credited to its parent, before the parent is read.
        var index = processes.count - 1
        while index >= 0 {
            if !sampleProcess(at: index, listing: listing, into: &sample, resident: &resident, anyResident: &anyResident) {
                removeProcess(at: index)
            }
            index -= 1
        }
        if anyResident { sample.residentBytes = resident }
        network.sample(buffer: buffer, into: &sample.interfaces)
    }

    /// Samples one process and its threads, listing its threads first when `listing`;
    /// false when the process is gone.
    private mutating func sampleProcess(
        at index: Int, listing: Bool, into sample: inout IntervalSample, resident: inout Int64, anyResident: inout Bool
    ) -> Bool {
        let currentPass = pass
        let buffer = self.buffer
        if listing {
            var listed = false
            processes[index].tasks.forEachNumber { thread in
                listed = true
                if let existing = processes[index].threads.firstIndex(where: { $0.thread == thread }) {
                    processes[index].threads[existing].pass = currentPass
                } else if var added = SampledThread(process: processes[index].pid, thread: thread) {
                    added.pass = currentPass
                    processes[index].threads.append(added)
                }
            }
            guard listed else { return false }
        } else {
            // Threads that exited are found by their files failing below.
            for thread in processes[index].threads.indices { processes[index].threads[thread].pass = currentPass }
        }
        var threadIndex = 0
        while threadIndex < processes[index].threads.count {
            // Read fields rather than copy the thread: a copy would share its name buffer
            // and make the in-place parse below copy it (an allocation per sample).
            guard processes[index].threads[threadIndex].pass == currentPass,
                let delta = processes[index].threads[threadIndex].sample(buffer: buffer)
            else {
                processes[index].threads[threadIndex].close()
                processes[index].threads.remove(at: threadIndex)
                continue
            }
            sample.threads.append(
                IntervalSample.ThreadActivity(
                    thread: processes[index].threads[threadIndex].thread, name: processes[index].threads[threadIndex].name,
                    cpu: delta.cpu, wakeups: delta.wakeups))
            processes[index].reportedCPU += delta.cpu
            threadIndex += 1
        }
        guard !processes[index].threads.isEmpty else { return false }
        // The kernel adds a child's counters to its parent's when the parent reaps it. A
        // child reaped before the parent's counters were read is removed, and what was
        // reported for it credited, before they count; reading again until no child is
        // found gone after the read closes the window between the two.
        var io = processes[index].readIO(buffer: buffer)
        var ticks = processes[index].readChildrenTicks(buffer: buffer)
        while removeReapedChildren(of: index) {
            io = processes[index].readIO(buffer: buffer)
            ticks = processes[index].readChildrenTicks(buffer: buffer)
        }
        if let io {
            let writes = processes[index].writes(since: io)
            sample.writes.append(IntervalSample.ProcessWrites(pid: processes[index].pid, bytes: writes.bytes, calls: writes.calls))
        }
        if let ticks {
            let reaped = processes[index].reapedChildrenCPU(ticks: ticks, nanosecondsPerTick: nanosecondsPerTick)
            if reaped > 0 {
                sample.threads.append(
                    IntervalSample.ThreadActivity(thread: processes[index].pid, name: Self.reapedChildrenName, cpu: reaped, wakeups: 0))
            }
        }
        if let leader = processes[index].leader {
            processes[index].parentPID = leader.parsed.parentPID
            if let bytes = leader.parsed.residentBytes {
                resident += bytes
                anyResident = true
            }
            if leader.parsed.state == UInt8(ascii: "Z"), leader.parsed.parentPID == tree.recorderPID, processes[index].pid != root {
                ChildProcess.reapOrphan(processes[index].pid)
            }
        }
        return true
    }

    /// Removes the children of the process at `index` (sampled earlier in this pass, so
    /// after it in the list) that no longer exist; true when there were any.
    private mutating func removeReapedChildren(of index: Int) -> Bool {
        let pid = processes[index].pid
        var removed = false
        var child = processes.count - 1
        while child > index {
            if processes[child].parentPID == pid, !processes[child].exists(buffer: buffer) {
                removeProcess(at: child)
                removed = true
            }
            child -= 1
        }
        return removed
    }

    /// Drops a process that is gone. Its parent's io counters and children's CPU time now
    /// include its own (the kernel adds a reaped child's to its parent's), so what was
    /// already reported for it is deducted from the parent's next growth.
    private mutating func removeProcess(at index: Int) {
        let gone = processes[index]
        gone.close()
        tree.remove(gone.pid)
        processes.remove(at: index)
        guard let parentPID = gone.parentPID, let parent = processes.firstIndex(where: { $0.pid == parentPID }) else { return }
        // Reported for the child's subtree: its counters at its last sample, plus its own
        // credit not yet deducted (grandchildren it reaped after that sample).
        processes[parent].reportedChildBytes += gone.writeBytes + gone.reportedChildBytes
        processes[parent].reportedChildCalls += gone.writeCalls + gone.reportedChildCalls
        // Reported for the child's subtree: its threads, the reaped-children slices it had
        // (its children's CPU at its last sample), and its undeducted credit.
        processes[parent].reportedChildCPU += gone.reportedCPU + gone.childrenCPU + gone.reportedChildCPU
    }

    private mutating func addJoined() {
        for pid in joined where pid != excluded {
            guard let process = SampledProcess(pid: pid) else { continue }
            processes.append(process)
            if commandPID == nil { commandPID = pid }
        }
        joined.removeAll(keepingCapacity: true)
    }

    func close() {
        for process in processes { process.close() }
        loadavg?.close()
        network.close()
        tree.close()
        buffer.deallocate()
    }
}
#endif
