/// What a `background_task` event says about the task: it began, it ended, or the system
/// expired it before it ended. Raw values are DrainTrace's `Action` codes.
public enum TraceBackgroundTaskAction: UInt8, CaseIterable, Sendable {
    case begin = 0, end, expire

    /// The spelling in a trace.
    @inlinable
    public var name: StaticString {
        switch self {
        case .begin: "begin"
        case .end: "end"
        case .expire: "expire"
        }
    }
}
