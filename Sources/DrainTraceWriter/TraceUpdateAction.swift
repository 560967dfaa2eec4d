/// Whether a `sensor` or `location` event starts or stops updates. Raw values are
/// DrainTrace's `Action` codes.
public enum TraceUpdateAction: UInt8, CaseIterable, Sendable {
    case start = 0, stop

    /// The spelling in a trace.
    @inlinable
    public var name: StaticString { self == .start ? "start" : "stop" }
}
