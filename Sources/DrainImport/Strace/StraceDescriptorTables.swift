import DrainTrace

/// What one file descriptor of a traced process refers to, as far as the trace has shown.
struct StraceDescriptor {
    enum Kind: UInt8 {
        /// A file on disk: reads and writes are `disk` events.
        case file
        /// An internet socket: reads, writes, sends and receives are `net` events.
        case socket
        /// Anything else (pipes, Unix sockets, devices, /proc): transfers make no event.
        case other
    }

    var kind: Kind
    /// The file's path.
    var path: StringID = 0
    var transport: StraceTransport = .tcp
    /// `ip:port` of this side and of the peer, when known.
    var local: StringID = 0
    var remote: StringID = 0
    /// The peer's address, the `host` of `net` events.
    var remoteHost: StringID = 0
    var loopback = false
    /// The connection label, made when first needed; 0 until then or after an address changed.
    var connection: StringID = 0
    var closeOnExec = false

    static let other = StraceDescriptor(kind: .other)
}

/// The descriptor tables of the traced processes.
///
/// Threads, and processes cloned with `CLONE_FILES`, share one table; a fork copies its
/// parent's. `execve` drops the descriptors opened close-on-exec; an exit drops the process's
/// use of its table, and a table no process uses is freed. Memory is bounded by the
/// descriptors open at one time, not by the length of the trace. Lookups are O(1).
struct StraceDescriptorTables {
    private var tableOfProcess: [Int32: Int] = [:]
    private var tables: [Int: [Int32: StraceDescriptor]] = [:]
    private var users: [Int: Int] = [:]
    private var nextTable = 0

    /// The entry for `fd` of process `pid`, if the trace showed where it came from.
    func descriptor(pid: Int32, fd: Int32) -> StraceDescriptor? {
        guard let table = tableOfProcess[pid] else { return nil }
        return tables[table]?[fd]
    }

    /// The table of `pid`, created empty for a process seen for the first time.
    private mutating func table(of pid: Int32) -> Int {
        if let table = tableOfProcess[pid] { return table }
        let table = nextTable
        nextTable += 1
        tableOfProcess[pid] = table
        tables[table] = [:]
        users[table] = 1
        return table
    }

    mutating func set(pid: Int32, fd: Int32, _ descriptor: StraceDescriptor) {
        guard fd >= 0 else { return }
        let table = table(of: pid)
        tables[table, default: [:]][fd] = descriptor
    }

    mutating func remove(pid: Int32, fd: Int32) {
        guard let table = tableOfProcess[pid] else { return }
        tables[table]?.removeValue(forKey: fd)
    }

    /// Closes, or marks close-on-exec, every descriptor in `range` (`close_range`).
    mutating func closeRange(pid: Int32, _ range: ClosedRange<Int64>, markOnly: Bool) {
        guard let table = tableOfProcess[pid], let entries = tables[table] else { return }
        for (fd, entry) in entries where range.contains(Int64(fd)) {
            if markOnly {
                var marked = entry
                marked.closeOnExec = true
                tables[table]?[fd] = marked
            } else {
                tables[table]?.removeValue(forKey: fd)
            }
        }
    }

    /// `pid` replaced its program: its close-on-exec descriptors are gone.
    mutating func executed(pid: Int32) {
        guard let table = tableOfProcess[pid], let entries = tables[table] else { return }
        for (fd, entry) in entries where entry.closeOnExec {
            tables[table]?.removeValue(forKey: fd)
        }
    }

    /// `parent` created `child`: with `shared`, they use one table (threads, `CLONE_FILES`);
    /// otherwise the child starts with a copy of the parent's. Anything the child was seen
    /// opening before its parent's call returned is kept.
    mutating func cloned(parent: Int32, child: Int32, shared: Bool) {
        let parentTable = table(of: parent)
        let early = tableOfProcess[child].flatMap { tables[$0] } ?? [:]
        release(child)
        if shared {
            tableOfProcess[child] = parentTable
            users[parentTable, default: 0] += 1
            for (fd, entry) in early { tables[parentTable]?[fd] = entry }
        } else {
            let table = self.table(of: child)
            var copy = tables[parentTable] ?? [:]
            for (fd, entry) in early { copy[fd] = entry }
            tables[table] = copy
        }
    }

    /// `pid` exited: it no longer uses its table.
    mutating func exited(pid: Int32) {
        release(pid)
    }

    private mutating func release(_ pid: Int32) {
        guard let table = tableOfProcess.removeValue(forKey: pid) else { return }
        let remaining = (users[table] ?? 1) - 1
        if remaining <= 0 {
            users.removeValue(forKey: table)
            tables.removeValue(forKey: table)
        } else {
            users[table] = remaining
        }
    }
}
