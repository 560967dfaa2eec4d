/// The fields of `/proc/PID/stat` the recorder uses: state and parent, for finding the
/// command's process tree.
///
/// Format (proc(5)): `pid (comm) state ppid pgrp …`. The command name may hold spaces and
/// parentheses, so it ends at the *last* `)` of the text.
public struct ProcStat: Equatable, Sendable {
    /// The state letter: `R` running, `S` sleeping, `Z` zombie, …
    public var state: UInt8
    public var parentPID: Int32

    public init(state: UInt8, parentPID: Int32) {
        self.state = state
        self.parentPID = parentPID
    }

    /// Parses the text of a stat file; nil when it is not one. O(n) in the text.
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> ProcStat? {
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        var index = close + 1
        while index < bytes.count, ProcText.isBlank(bytes[index]) { index += 1 }
        guard index < bytes.count else { return nil }
        let state = bytes[index]
        guard let (parent, _) = ProcText.number(bytes, from: index + 1), parent <= Int64(Int32.max) else { return nil }
        return ProcStat(state: state, parentPID: Int32(parent))
    }
}
