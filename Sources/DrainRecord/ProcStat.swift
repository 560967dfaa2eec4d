#if os(Linux)
/// The fields of `/proc/PID/stat` the recorder uses: state and parent, for finding the
/// command's process tree, and the CPU time of the children the process has reaped.
///
/// Format (proc(5)): `pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt
/// majflt cmajflt utime stime cutime cstime …`. The command name may hold spaces and
/// parentheses, so it ends at the *last* `)` of the text.
public struct ProcStat: Equatable, Sendable {
    /// The state letter: `R` running, `S` sleeping, `Z` zombie, …
    public var state: UInt8
    public var parentPID: Int32
    /// `cutime` + `cstime`: CPU time of the reaped children (and theirs), in clock ticks;
    /// nil when the line stops before them.
    public var childrenTicks: Int64?

    public init(state: UInt8, parentPID: Int32, childrenTicks: Int64? = nil) {
        self.state = state
        self.parentPID = parentPID
        self.childrenTicks = childrenTicks
    }

    /// Parses the text of a stat file; nil when it is not one. O(n) in the text.
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> ProcStat? {
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        var index = close + 1
        while index < bytes.count, ProcText.isBlank(bytes[index]) { index += 1 }
        guard index < bytes.count else { return nil }
        let state = bytes[index]
        guard let (parent, parentEnd) = ProcText.number(bytes, from: index + 1), parent <= Int64(Int32.max) else { return nil }
        var stat = ProcStat(state: state, parentPID: Int32(parent))
        // pgrp … stime are the 11 fields between ppid and cutime; tty_nr and tpgid may be -1.
        var position = parentEnd
        for _ in 0..<11 {
            while position < bytes.count, ProcText.isBlank(bytes[position]) { position += 1 }
            while position < bytes.count, !ProcText.isBlank(bytes[position]) { position += 1 }
        }
        if let (user, userEnd) = ProcText.number(bytes, from: position), let (system, _) = ProcText.number(bytes, from: userEnd) {
            stat.childrenTicks = user + system
        }
        return stat
    }
}
#endif
