#if os(Linux)
#if canImport(Glibc)
import Glibc
#endif

/// Finds the processes descending from the recorded command by listing `/proc` and reading
/// each new pid's parent from `/proc/PID/stat`.
///
/// A pid already classified is not read again: members until the sampler reports them gone,
/// other processes until their pid leaves `/proc`. The recorder is made a child subreaper
/// (`PR_SET_CHILD_SUBREAPER`), so a descendant whose parent exits is re-parented to the
/// recorder rather than to init, and is still recognised: its parent is the recorder.
/// A pass is O(p) in the pids of the system, plus one stat read per new pid.
struct ProcessTree {
    /// The recorder's own pid.
    let recorderPID: Int32
    private(set) var members: [Int32]
    /// Pids that are not descendants, with the pass that last saw them.
    private var foreign: [Int32: UInt32] = [:]
    private var pass: UInt32 = 0
    private var unresolved: [(pid: Int32, parent: Int32)] = []
    private let proc: ProcDirectory?
    private var statBuffer: UnsafeMutableRawBufferPointer

    init(root: Int32, recorderPID: Int32 = getpid()) {
        self.recorderPID = recorderPID
        members = [root]
        proc = ProcDirectory(path: "/proc")
        statBuffer = .allocate(byteCount: 4096, alignment: 8)
        unresolved.reserveCapacity(16)
    }

    /// Lists `/proc` and appends the pids that joined the tree since the last pass to
    /// `joined`.
    mutating func refresh(joined: inout [Int32]) {
        pass &+= 1
        unresolved.removeAll(keepingCapacity: true)
        let currentPass = pass
        var foreignSeen = 0
        proc?.forEachNumber { pid in
            if members.contains(pid) { return }
            if foreign[pid] != nil {
                foreign[pid] = currentPass
                foreignSeen += 1
                return
            }
            guard let parent = Self.parent(of: pid, buffer: statBuffer) else { return }
            unresolved.append((pid, parent))
        }
        // Parents can be listed after their children (pids wrap around), so repeat until
        // no pid joins.
        var changed = true
        while changed {
            changed = false
            for candidate in unresolved where !members.contains(candidate.pid) {
                if candidate.parent == recorderPID || members.contains(candidate.parent) {
                    members.append(candidate.pid)
                    joined.append(candidate.pid)
                    changed = true
                }
            }
        }
        // A foreign pid that left /proc is dropped at once, so that a descendant reusing
        // it later is read afresh (this allocates only when some process has exited).
        if foreignSeen < foreign.count {
            foreign = foreign.filter { $0.value == currentPass }
        }
        for candidate in unresolved where !members.contains(candidate.pid) {
            foreign[candidate.pid] = currentPass
        }
    }

    /// Forgets a member the sampler found gone, so its pid can be classified afresh if reused.
    mutating func remove(_ pid: Int32) {
        members.removeAll { $0 == pid }
    }

    private static func parent(of pid: Int32, buffer: UnsafeMutableRawBufferPointer) -> Int32? {
        guard let file = ProcFile(path: "/proc/\(pid)/stat") else { return nil }
        defer { file.close() }
        return file.read(into: buffer) { ProcStat.parse($0)?.parentPID } ?? nil
    }

    func close() {
        proc?.close()
        statBuffer.deallocate()
    }
}
#endif
