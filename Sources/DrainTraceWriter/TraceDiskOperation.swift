/// A `disk` event's `op`. Raw values are DrainTrace's `DiskOperation` codes.
public enum TraceDiskOperation: UInt8, CaseIterable, Sendable {
    case write = 0, fsync, read, truncate

    /// The spelling in a trace.
    @inlinable
    public var name: StaticString {
        switch self {
        case .write: "write"
        case .fsync: "fsync"
        case .read: "read"
        case .truncate: "truncate"
        }
    }
}
