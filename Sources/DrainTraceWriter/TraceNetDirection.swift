/// A `net` event's `dir`: bytes sent (`tx`) or received (`rx`). Raw values are DrainTrace's
/// `NetDirection` codes.
public enum TraceNetDirection: UInt8, CaseIterable, Sendable {
    case tx = 0, rx

    /// The spelling in a trace.
    @inlinable
    public var name: StaticString { self == .tx ? "tx" : "rx" }
}
