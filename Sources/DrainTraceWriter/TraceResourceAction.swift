/// What a `resource` event does with the resource. Raw values are DrainTrace's `Action`
/// codes.
public enum TraceResourceAction: UInt8, CaseIterable, Sendable {
    case acquire = 0, release

    /// The spelling in a trace.
    @inlinable
    public var name: StaticString { self == .acquire ? "acquire" : "release" }
}
