/// The app's state in a `lifecycle` event's `state`. Raw values are DrainTrace's
/// `LifecycleState` codes.
public enum TraceLifecycleState: UInt8, CaseIterable, Sendable {
    case notRunning = 0, inactive, active, background, suspended

    /// The spelling in a trace.
    @inlinable
    public var name: StaticString {
        switch self {
        case .notRunning: "not_running"
        case .inactive: "inactive"
        case .active: "active"
        case .background: "background"
        case .suspended: "suspended"
        }
    }
}
